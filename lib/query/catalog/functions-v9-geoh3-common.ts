// What H3's SQL (functions-v9-geoh3-*-sql.ts) shares: the library's constants as DuckDB doubles,
// its angle normalization, the digit rotations, and the aperture steps on axial hex coordinates.
// Coordinates are kept axial, [i - k, j - k] of H3's ijk+ triple, so that every aperture step and
// rotation is a pair of integer formulas; ijk+ is recovered by subtracting min(i, j, 0).
import { PENTAGON_CW_OFFSET_FACES } from './functions-v9-geoh3-tables';

export const MAX_H3_RES = 15;

/**
 * A number as a DuckDB DOUBLE literal: in exponent form DuckDB reads it as a double (correctly
 * rounded), where a plain decimal literal would be a DECIMAL converted by a division.
 */
export const dbl = (x: number): string => x.toExponential();
export const list = (xs: readonly number[]): string => `[${xs.map(dbl).join(', ')}]`;

// The C library's constants, each the double its literal denotes.
export const RES0_U_GNOMONIC = dbl(0.381966011250105);
export const AP7_ROT_RADS = dbl(0.3334731722518321);
export const SQRT7 = dbl(2.6457513110645907);
export const RSIN60 = dbl(1.1547005383792515);
export const SQRT3_2 = dbl(0.8660254037844386);
export const TWO_PI = dbl(6.283185307179586);
export const DEG_TO_RAD = dbl(0.017453292519943295);
export const RAD_TO_DEG = dbl(57.29577951308232);
export const EPSILON = dbl(1e-16);

/** H3's _posAngleRads: the angle moved into [0, 2π) by one turn (a plain reference). */
export const posAngle = (a: string): string =>
  `(CASE WHEN ${a} < 0 THEN ${a} + ${TWO_PI} ELSE ${a} END - CASE WHEN ${a} >= ${TWO_PI} THEN ${TWO_PI} ELSE 0 END)`;

/** Digit d rotated 60° ccw and cw (index d), 0 and 7 unchanged. */
export const CCW = [0, 5, 3, 1, 6, 4, 2, 7];
export const CW = [0, 3, 6, 2, 5, 1, 4, 7];
export const rotateCcw = (d: number, n: number): number => {
  let x = d;
  for (let k = 0; k < ((n % 6) + 6) % 6; k++) x = CCW[x]!;
  return x;
};

/** Digit d rotated 60° ccw n times (n 0 to 5), indexed by n·8 + d + 1. */
export const CCW_BY_N = `[${[0, 1, 2, 3, 4, 5].flatMap((n) => CCW.map((_, d) => rotateCcw(d, n))).join(', ')}]`;

/** The 12 pentagon base cells as a SQL list. */
export const PENTAGONS = `[${Object.keys(PENTAGON_CW_OFFSET_FACES).join(', ')}]`;

/** Axial offset of each digit's unit vector (index d + 1): i and j components. */
export const UNIT_I = '[0, -1, 0, -1, 1, 0, 1]';
export const UNIT_J = '[0, -1, 1, 0, 0, -1, 1]';

/** Aperture-7 children's center (ccw for Class III, cw for Class II) of axial [a, b] (plain references). */
export const downAp7 = (a: string, b: string): string => `[2 * ${a} + ${b}, 3 * ${b} - ${a}]`;
export const downAp7r = (a: string, b: string): string => `[3 * ${a} - ${b}, ${a} + 2 * ${b}]`;
/** The aperture-7 parent (cw) of axial [a, b], rounded half away from zero as lround does. */
export const upAp7r = (a: string, b: string): string =>
  `[CAST(round((2 * ${a} + ${b}) / 7.0) AS BIGINT), CAST(round((3 * ${b} - ${a}) / 7.0) AS BIGINT)]`;
export const upAp7 = (a: string, b: string): string =>
  `[CAST(round((3 * ${a} - ${b}) / 7.0) AS BIGINT), CAST(round((${a} + 2 * ${b}) / 7.0) AS BIGINT)]`;

/** 7^(r / 2) for an even resolution r (index r + 1): the Class II unit scale. */
export const UNIT_SCALE = `[${Array.from({ length: 18 }, (_, r) => 7 ** Math.floor(r / 2)).join(', ')}]`;
