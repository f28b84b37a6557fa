// Geohash (the geo_point_to_geohash, geo_geohash_to_central_point, geo_geohash_to_polygon and
// geo_geohash_neighbors pages). A geohash of n characters is 5n bits alternating longitude and
// latitude, longitude first: ceil(5n/2) bits bisect [-180, 180], floor(5n/2) bisect [-90, 90], and
// each 5 bits are one character of the base-32 alphabet (BY_SPLIT_BITS). The bisection compares the
// value with exact midpoints (-180 + k·360/2^m is a double exactly for every m up to 45), so it is
// the exact-real index floor((x + 180)·2^m / 360): computed here in doubles and corrected by one
// step against the two exact boundaries around it, instead of 45 folded bisection steps. The
// characters are read and written a whole character at a time (BY_SPLIT_BITS).
// Invalid input gives what the pages print: '' for a point or accuracy out of range, null for a
// geohash that is not 1 to 18 characters of the alphabet. DuckDB only (refused on Timestream).
import { asDouble, bindAs, pointJson, polygonJson, validPoint } from './functions-v9-geocell-common';
import type { ScalarFunction, SqlBuilder } from './types';

const MAX_ACCURACY = 18;
const DEFAULT_ACCURACY = 5;

/** Bits of longitude and of latitude in a geohash of n characters (n a SQL BIGINT). */
const lonBits = (n: string): string => `((5 * ${n} + 1) // 2)`;
const latBits = (n: string): string => `((5 * ${n}) // 2)`;

/**
 * The index of x among 2^m equal parts of [-span/2, span/2] (span 360 or 180, written as 45·2^s so
 * that the boundary k·span/2^m = k·45 / 2^(m - s) is exact in doubles), clamped to the last part.
 */
function cellIndex(x: string, m: string, span: 360 | 180): string {
  const shift = span === 360 ? 3 : 2;
  const boundary = (k: string): string =>
    `(CAST((${k}) * 45 AS DOUBLE) / CAST(1::BIGINT << (${m} - ${shift}) AS DOUBLE) - ${span / 2})`;
  const cells = `(1::BIGINT << ${m})`;
  const guess = `least(greatest(CAST(floor((${x} + ${span / 2}) / ${span} * ${cells}) AS BIGINT), 0), ${cells} - 1)`;
  const fixed = `gk - CASE WHEN ${x} < ${boundary('gk')} THEN 1 ELSE 0 END + CASE WHEN gk + 1 < ${cells} AND ${x} >= ${boundary('gk + 1')} THEN 1 ELSE 0 END`;
  return bindAs(guess, 'gk', fixed);
}

/**
 * The geohash alphabet (0123456789bcdefghjkmnpqrstuvwxyz: no a, i, l, o) reordered by the 5 bits' meaning: character k holds three bits of one coordinate
 * (k >> 2) interleaved with two of the other (k & 3), as every character does (an even character
 * starts with longitude, an odd one with latitude). One lookup a character, no bit-by-bit loop.
 */
const BY_SPLIT_BITS = '028b139c46df57eghksujmtvnqwyprxz';

/** For character gi: the shift of its three and of its two bits in the longitude and latitude indexes. */
function splitShifts(n: string, gi = 'gi'): { threeLon: string; twoLat: string; threeLat: string; twoLon: string } {
  return {
    threeLon: `(${lonBits(n)} - 3 - 5 * ${gi} // 2)`,
    twoLat: `(${latBits(n)} - 2 - 5 * ${gi} // 2)`,
    threeLat: `(${latBits(n)} - 3 - (5 * ${gi} - 1) // 2)`,
    twoLon: `(${lonBits(n)} - 2 - (5 * ${gi} + 1) // 2)`,
  };
}

/** Character gi (a plain reference) of the geohash of the cell (lo, la) with n characters. */
function characterOf(lo: string, la: string, n: string, gi: string): string {
  const at = splitShifts(n, gi);
  const k = `CASE WHEN ${gi} % 2 = 0 THEN ((${lo} >> ${at.threeLon}) & 7) * 4 + ((${la} >> ${at.twoLat}) & 3) ELSE ((${la} >> ${at.threeLat}) & 7) * 4 + ((${lo} >> ${at.twoLon}) & 3) END`;
  return `substr('${BY_SPLIT_BITS}', CAST(1 + ${k} AS INTEGER), 1)`;
}

/**
 * The geohash text of the cell (lo, la) (longitude and latitude indexes) with n characters; all
 * arguments SQL BIGINT expressions that are plain references (each is named several times).
 */
export function geohashText(lo: string, la: string, n: string): string {
  return `array_to_string(list_transform(range(${n}), gi -> ${characterOf(lo, la, n, 'gi')}), '')`;
}

const encodePoint: SqlBuilder = (c) => {
  const n = c.a.length > 2 ? `CAST(${c.a[2]} AS BIGINT)` : `${DEFAULT_ACCURACY}::BIGINT`;
  const point = `{'x': ${asDouble(c.a[0]!)}, 'y': ${asDouble(c.a[1]!)}, 'n': ${n}}`;
  const indexes = `{'lo': ${cellIndex('gp.x', lonBits('gp.n'), 360)}, 'la': ${cellIndex('gp.y', latBits('gp.n'), 180)}, 'n': gp.n}`;
  const text = bindAs(indexes, 'gc', geohashText('gc.lo', 'gc.la', 'gc.n'));
  const body = `CASE WHEN ${validPoint('gp.x', 'gp.y')} AND gp.n BETWEEN 1 AND ${MAX_ACCURACY} THEN ${text} ELSE '' END`;
  return bindAs(point, 'gp', body);
};

/**
 * A geohash's cell as {lo, la, n} (longitude index, latitude index, length), null when the text is
 * not 1 to 18 characters of the alphabet (the pages' invalid geohash). `h` is named several times.
 */
export function geohashCell(h: string): string {
  const splits = `list_transform(range(length(${h})), gi -> CAST(strpos('${BY_SPLIT_BITS}', substr(${h}, gi + 1, 1)) - 1 AS BIGINT))`;
  const at = splitShifts('gn');
  const part = (even: string, odd: string): string =>
    `CAST(list_sum(list_transform(range(gn), gi -> CASE WHEN gi % 2 = 0 THEN ${even} ELSE ${odd} END)) AS BIGINT)`;
  const lo = part(`(gd[gi + 1] >> 2) << ${at.threeLon}`, `(gd[gi + 1] & 3) << ${at.twoLon}`);
  const la = part(`(gd[gi + 1] & 3) << ${at.twoLat}`, `(gd[gi + 1] >> 2) << ${at.threeLat}`);
  const cell = bindAs(splits, 'gd', bindAs(`CAST(len(gd) AS BIGINT)`, 'gn', `{'lo': ${lo}, 'la': ${la}, 'n': gn}`));
  return `CASE WHEN length(${h}) BETWEEN 1 AND ${MAX_ACCURACY} AND regexp_full_match(${h}, '[0-9b-hjkmnp-z]+') THEN ${cell} END`;
}

/** The corner of the cell's longitude (k = lo) or latitude (k = la) range, k + half for the center. */
const corner = (k: string, bits: string, span: 360 | 180): string =>
  `(CAST((${k}) * 45 AS DOUBLE) / CAST(1::BIGINT << (${bits} - ${span === 360 ? 3 : 2}) AS DOUBLE) - ${span / 2})`;

const centralPoint: SqlBuilder = (c) => {
  // (2k + 1)·45 / 2^(m - s + 1): the middle of part k, exact in doubles as the corners are.
  const mid = (k: string, bits: string, span: 360 | 180): string =>
    `(CAST((2 * ${k} + 1) * 45 AS DOUBLE) / CAST(1::BIGINT << (${bits} - ${span === 360 ? 2 : 1}) AS DOUBLE) - ${span / 2})`;
  const body = pointJson(mid('gc.lo', lonBits('gc.n'), 360), mid('gc.la', latBits('gc.n'), 180));
  return bindAs(geohashCell(c.a[0]!), 'gc', `CASE WHEN gc IS NOT NULL THEN ${body} END`);
};

const polygon: SqlBuilder = (c) => {
  const [w, e] = [corner('gc.lo', lonBits('gc.n'), 360), corner('gc.lo + 1', lonBits('gc.n'), 360)];
  const [s, n] = [corner('gc.la', latBits('gc.n'), 180), corner('gc.la + 1', latBits('gc.n'), 180)];
  // The pages' ring: south-west, south-east, north-east, north-west, south-west again.
  const ring = `[[${w}, ${s}], [${e}, ${s}], [${e}, ${n}], [${w}, ${n}], [${w}, ${s}]]`;
  return bindAs(geohashCell(c.a[0]!), 'gc', `CASE WHEN gc IS NOT NULL THEN ${polygonJson(ring)} END`);
};

/**
 * The eight cells around: longitude wraps around the antimeridian, rows beyond a pole are left out
 * (the pages print no example at either). Order: north, then clockwise. The page prints its eight
 * cells in an order that follows no rule we could find (its conformance case is a known gap; the
 * others compare the cells as a set).
 */
export const GEOHASH_NEIGHBOR_OFFSETS: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 1],
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, -1],
  [-1, 0],
  [-1, 1],
];

const neighbors: SqlBuilder = (c) => {
  const cells = `(1::BIGINT << ${lonBits('gc.n')})`;
  const rows = `(1::BIGINT << ${latBits('gc.n')})`;
  const offsets = `[${GEOHASH_NEIGHBOR_OFFSETS.map(([dx, dy]) => `[${dx}, ${dy}]`).join(', ')}]`;
  const moved = `list_transform(${offsets}, go -> {'lo': ((gc.lo + go[1]) % ${cells} + ${cells}) % ${cells}, 'la': gc.la + go[2]})`;
  const inside = `list_filter(${moved}, gm -> gm.la >= 0 AND gm.la < ${rows})`;
  // The characters of all the neighbors in one list (one lambda call a character, not a list a
  // neighbor: about twice as fast), then cut into texts of n characters.
  const each = `list_transform(range(len(gl) * gc.n), gq -> {'lo': gl[gq // gc.n + 1].lo, 'la': gl[gq // gc.n + 1].la, 'i': gq % gc.n})`;
  const chars = `list_transform(${each}, ge -> ${characterOf('ge.lo', 'ge.la', 'gc.n', 'ge.i')})`;
  const texts = bindAs(
    inside,
    'gl',
    bindAs(
      chars,
      'gh',
      `to_json(list_transform(range(len(gl)), gr -> array_to_string(gh[gr * gc.n + 1:(gr + 1) * gc.n], '')))`,
    ),
  );
  return bindAs(geohashCell(c.a[0]!), 'gc', `CASE WHEN gc IS NOT NULL THEN ${texts} END`);
};

const fromGeohash = (name: string, summary: string, duckdb: SqlBuilder): ScalarFunction => ({
  name,
  family: 'geo',
  summary,
  signatures: [{ params: [{ name: 'geohash', type: 'string' }], result: 'dynamic' }],
  duckdb,
  timestream: null,
});

export const GEOHASH_V9_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'geo_point_to_geohash',
    family: 'geo',
    summary:
      "The geohash of a point with accuracy characters (1 to 18, default 5); '' for a point or accuracy out of range (DuckDB only).",
    signatures: [
      {
        params: [
          { name: 'longitude', type: 'real' },
          { name: 'latitude', type: 'real' },
          { name: 'accuracy', type: 'integer', optional: true },
        ],
        result: 'string',
      },
    ],
    duckdb: encodePoint,
    timestream: null,
  },
  fromGeohash(
    'geo_geohash_to_central_point',
    'The center of a geohash cell as a GeoJSON point; null for a geohash that is not 1 to 18 characters of its alphabet (DuckDB only).',
    centralPoint,
  ),
  fromGeohash(
    'geo_geohash_to_polygon',
    'The rectangle of a geohash cell as a GeoJSON polygon; null for an invalid geohash (DuckDB only).',
    polygon,
  ),
  fromGeohash(
    'geo_geohash_neighbors',
    'The eight geohash cells around a geohash (fewer next to a pole), north first then clockwise, as a dynamic array (Kusto prints them in another order); null for an invalid geohash (DuckDB only).',
    neighbors,
  ),
];
