// GeoJSON (dynamic) arguments of the geo_* functions as DuckDB lists, and the pages' validity rules:
// a LineString has at least two positions; a Polygon's rings (shell first, then holes) at least four,
// the first equal to the last, no two consecutive ones equal; each position a [longitude, latitude]
// in range. Anything else (another type, a string where a number goes, a missing member, NaN) makes
// the geometry invalid and the function null, as the pages answer. The casts are TRY_CASTs, so a
// value of any shape or depth gives null rather than an error.
import { unit } from './functions-v9-geo-sphere';

const coordinates = (g: string, type: string): string => `TRY_CAST(json_extract(${g}, '$.coordinates') AS ${type})`;
const typeOf = (g: string): string => `json_extract_string(${g}, '$.type')`;

/** Polygon or MultiPolygon as DOUBLE[][][][] (polygons of rings of positions); null for any other type. */
export const polygonsOf = (g: string): string =>
  `CASE ${typeOf(g)} WHEN 'Polygon' THEN [${coordinates(g, 'DOUBLE[][][]')}] ` +
  `WHEN 'MultiPolygon' THEN ${coordinates(g, 'DOUBLE[][][][]')} END`;

/** LineString or MultiLineString as DOUBLE[][][] (lines of positions); null for any other type. */
export const linesOf = (g: string): string =>
  `CASE ${typeOf(g)} WHEN 'LineString' THEN [${coordinates(g, 'DOUBLE[][]')}] ` +
  `WHEN 'MultiLineString' THEN ${coordinates(g, 'DOUBLE[][][]')} END`;

/** Every element of a list satisfies a predicate (false for a null element; the list must be non-empty). */
const all = (list: string, name: string, predicate: string): string =>
  `coalesce(len(${list}) > 0 AND list_bool_and(list_transform(${list}, ${name} -> coalesce(${predicate}, false))), false)`;

const validPosition = (p: string): string =>
  `len(${p}) = 2 AND ${p}[1] >= -180 AND ${p}[1] <= 180 AND ${p}[2] >= -90 AND ${p}[2] <= 90`;

const noRepeat = (list: string): string =>
  `coalesce(list_bool_and(list_transform(range(1, len(${list})), gk -> ${list}[gk] <> ${list}[gk + 1])), true)`;

const validRing = (r: string): string =>
  `len(${r}) >= 4 AND ${all(r, 'gp', validPosition('gp'))} AND ${r}[1] = ${r}[-1] AND ${noRepeat(r)}`;

const validLine = (l: string): string => `len(${l}) >= 2 AND ${all(l, 'gp', validPosition('gp'))}`;

/** polygonsOf's value is a valid (Multi)Polygon. */
export const validPolygons = (polys: string): string => all(polys, 'gq', all('gq', 'gr', validRing('gr')));

/** linesOf's value is a valid (Multi)LineString. */
export const validLines = (lines: string): string => all(lines, 'gq', validLine('gq'));

/** Polygons of rings of unit vectors, each ring without its closing position (S2 loops close implicitly). */
export const polygonVectors = (polys: string): string =>
  `list_transform(${polys}, gq -> list_transform(gq, gr -> list_transform(gr[1:len(gr) - 1], gp -> ${unit('gp')})))`;

/** Lines of unit vectors. */
export const lineVectors = (lines: string): string =>
  `list_transform(${lines}, gq -> list_transform(gq, gp -> ${unit('gp')}))`;
