// geo_from_wkt (geo_from_wkt page): Well-known text to a GeoJSON shape (dynamic), null when the text
// is invalid or unsupported. Written with regular expressions, the same in both engines (RE2 in DuckDB,
// Java's in Timestream): the whole text must match the WKT grammar of the seven types the page
// converts (POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON,
// GEOMETRYCOLLECTION of those), then it is rewritten into JSON. What is not converted (null): Z and M
// coordinates, EMPTY geometries, numbers JSON cannot write (`.5`, `1.`, `+1`, `01`), a LineString of
// one position and a ring of fewer than four (GeoJSON's minimums). Keywords are matched in any case,
// as WKT's grammar allows. A number no double holds (`1e400`) makes the text invalid, so null: it has
// no coordinate to write (it was written as a null coordinate). Coordinates are not otherwise
// range-checked and rings not checked for closing: the page says only that invalid text gives null;
// the geo_* functions check both where they read a shape.
import type { ScalarFunction, SqlCall } from './types';

/** A number as JSON writes it (RFC 8259), so the rewritten text parses with no conversion. */
const NUMBER = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?';
const PAIR = `${NUMBER}\\s+${NUMBER}`;
const list = (item: string, min: number): string => `\\(\\s*${item}(?:\\s*,\\s*${item}){${min - 1},}\\s*\\)`;
const POINT_TEXT = list(PAIR, 1);
const LINE_TEXT = list(PAIR, 2);
const RING_TEXT = list(PAIR, 4);
const POLYGON_TEXT = list(RING_TEXT, 1);

/** WKT keyword, GeoJSON type, and the grammar of the text after the keyword. */
const TYPES: readonly (readonly [string, string, string])[] = [
  ['POINT', 'Point', POINT_TEXT],
  ['LINESTRING', 'LineString', LINE_TEXT],
  ['POLYGON', 'Polygon', POLYGON_TEXT],
  // MULTIPOINT's points may be written bare or in parentheses: MULTIPOINT (1 1, 2 2) or ((1 1), (2 2)).
  ['MULTIPOINT', 'MultiPoint', list(`(?:${PAIR}|${POINT_TEXT})`, 1)],
  ['MULTILINESTRING', 'MultiLineString', list(LINE_TEXT, 1)],
  ['MULTIPOLYGON', 'MultiPolygon', list(POLYGON_TEXT, 1)],
];
const GEOMETRY = `(?:${TYPES.map(([keyword, , text]) => `${keyword}\\s*${text}`).join('|')})`;
const WKT = `(?i)^\\s*(?:${GEOMETRY}|GEOMETRYCOLLECTION\\s*${list(GEOMETRY, 1)})\\s*$`;

/**
 * The text between one keyword's parentheses after pairs became [x,y] and bare parenthesized pairs
 * lost their parentheses: the structure left is `depth` levels of parentheses deep.
 */
const nested = (depth: number): string => (depth === 0 ? '[^()]*' : `(?:[^()]|\\(${nested(depth - 1)}\\))*`);
/** How deep each type's remaining parentheses go once pairs are [x,y] (a POINT has none left). */
const DEPTH: Readonly<Record<string, number>> = {
  LINESTRING: 0,
  POLYGON: 1,
  MULTIPOINT: 0,
  MULTILINESTRING: 1,
  MULTIPOLYGON: 2,
};

type Rewrite = readonly [pattern: string, replacement: (group: string) => string];

/**
 * The rewrites, in order: pairs to [x,y]; a pair alone in parentheses (a POINT, a MULTIPOINT member)
 * unwrapped; each keyword with its text to {"type":...,"coordinates":(...)}; GEOMETRYCOLLECTION's
 * members listed under "geometries"; last, every parenthesis a bracket. \b keeps POINT from matching
 * the end of MULTIPOINT.
 */
const REWRITES: readonly Rewrite[] = [
  [`(${NUMBER})\\s+(${NUMBER})`, (g) => `[${g}1,${g}2]`],
  // A POINT's, or a MULTIPOINT member's (after "(" or ","); not MULTIPOINT (1 1)'s list of one.
  ['(?i)(\\bPOINT\\s*|[(,]\\s*)\\(\\s*(\\[[^\\]]*\\])\\s*\\)', (g) => `${g}1${g}2`],
  ['(?i)\\bPOINT\\s*(\\[[^\\]]*\\])', (g) => `{"type":"Point","coordinates":${g}1}`],
  ...TYPES.filter(([keyword]) => keyword !== 'POINT').map(([keyword, type]): Rewrite => [
    `(?i)\\b${keyword}\\s*(\\(${nested(DEPTH[keyword]!)}\\))`,
    (g) => `{"type":"${type}","coordinates":${g}1}`,
  ]),
  ['(?i)\\bGEOMETRYCOLLECTION\\s*(\\([\\s\\S]*\\))', (g) => `{"type":"GeometryCollection","geometries":${g}1}`],
  ['\\(', () => '['],
  ['\\)', () => ']'],
];

function fromWkt(c: SqlCall): string {
  const { d } = c;
  const text = c.str(0);
  // DuckDB's rewrite names a group \1 and replaces the first match unless told 'g'; Trino's names it $1 and replaces all.
  const group = d.name === 'duckdb' ? '\\' : '$';
  const json = REWRITES.reduce(
    (sql, [pattern, replacement]) =>
      `regexp_replace(${sql}, ${d.string(pattern)}, ${d.string(replacement(group))}${d.name === 'duckdb' ? ", 'g'" : ''})`,
    text,
  );
  return `CASE WHEN ${d.regexMatch(text, d.string(WKT))} AND ${allFinite(c)} THEN ${d.parseJson(json)} END`;
}

/** SQL: whether every number of the text is a finite double (`1e400` reads as an infinity). */
function allFinite(c: SqlCall): string {
  const numbers = `regexp_extract_all(${c.str(0)}, ${c.d.string(NUMBER)})`;
  return c.d.name === 'duckdb'
    ? `list_bool_and(list_transform(${numbers}, n -> coalesce(isfinite(TRY_CAST(n AS DOUBLE)), false)))`
    : `all_match(${numbers}, n -> coalesce(is_finite(try_cast(n AS DOUBLE)), false))`;
}

export const GEO_WKT_V11_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'geo_from_wkt',
    family: 'geo',
    summary: 'The GeoJSON shape of a Well-known text geometry; null for invalid or unsupported text.',
    signatures: [{ params: [{ name: 'wkt', type: 'string' }], result: 'dynamic' }],
    duckdb: fromWkt,
    timestream: fromWkt,
  },
];
