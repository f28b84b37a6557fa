// Vector algebra on the unit sphere as DuckDB SQL, for the GeoJSON geo_* functions. Kusto computes
// these with the S2 geometry library, so each formula here is S2's, in S2's order of operations:
// a point is S2LatLng::ToPoint's (cos θ·cos φ, sin θ·cos φ, sin φ), an edge's length S2's
// atan2(|a×b|, a·b), a triangle's area l'Huilier's formula (S2::Area; its Girard branch for skinny
// triangles larger than 3e-4 rad is left out), a triangle's centroid S2::TrueCentroid. That is why
// the pages' printed 15 digits come out (Central Park's area 3475207.28346606 m², where the exact
// value is ...6565: the last digits are S2's rounding, reproduced by doing the same operations).
// Arguments are lambda parameters or short index expressions (`gv[gi]`): each is written several times.
import { RAD } from './functions-v9-geo-points';

/** A value bound once to a lambda parameter. */
export const bind = (value: string, name: string, body: string): string =>
  `list_transform([${value}], ${name} -> ${body})[1]`;

/** A [longitude, latitude] list as a unit vector. */
export const unit = (p: string): string =>
  `[cos(${p}[1] * ${RAD}E0) * cos(${p}[2] * ${RAD}E0), sin(${p}[1] * ${RAD}E0) * cos(${p}[2] * ${RAD}E0), sin(${p}[2] * ${RAD}E0)]`;

export const dot = (a: string, b: string): string => `(${a}[1] * ${b}[1] + ${a}[2] * ${b}[2] + ${a}[3] * ${b}[3])`;

export const cross = (a: string, b: string): string =>
  `[${a}[2] * ${b}[3] - ${a}[3] * ${b}[2], ${a}[3] * ${b}[1] - ${a}[1] * ${b}[3], ${a}[1] * ${b}[2] - ${a}[2] * ${b}[1]]`;

/** (a×b)·c, written out: the same operations as cross then dot, without repeating the cross product's text. */
export const triple = (a: string, b: string, c: string): string =>
  `((${a}[2] * ${b}[3] - ${a}[3] * ${b}[2]) * ${c}[1] + (${a}[3] * ${b}[1] - ${a}[1] * ${b}[3]) * ${c}[2] + ` +
  `(${a}[1] * ${b}[2] - ${a}[2] * ${b}[1]) * ${c}[3])`;

export const minus = (a: string, b: string): string => `[${a}[1] - ${b}[1], ${a}[2] - ${b}[2], ${a}[3] - ${b}[3]]`;
export const plus = (a: string, b: string): string => `[${a}[1] + ${b}[1], ${a}[2] + ${b}[2], ${a}[3] + ${b}[3]]`;
/** k·a, each bound once. */
export const scale = (k: string, a: string): string =>
  bind(a, 'gy', bind(k, 'gf', '[gf * gy[1], gf * gy[2], gf * gy[3]]'));

/** The angle between two unit vectors (S2Point::Angle). */
export const angle = (a: string, b: string): string =>
  bind(cross(a, b), 'gx', `atan2(sqrt(${dot('gx', 'gx')}), ${dot(a, b)})`);

/**
 * The sum of a non-empty list of vectors, each coordinate added in order as S2 adds the vectors
 * (list_sum per coordinate: list_reduce building a list per step is ten times slower).
 */
export const vectorSum = (list: string): string =>
  bind(
    list,
    'gs',
    '[list_sum(list_transform(gs, gt -> gt[1])), list_sum(list_transform(gs, gt -> gt[2])), list_sum(list_transform(gs, gt -> gt[3]))]',
  );

/** [longitude, latitude] in degrees of a (not necessarily unit) vector, as S2LatLng of a point. */
export const toLngLat = (v: string): string =>
  bind(
    v,
    'gl',
    `[atan2(gl[2], gl[1]) * 57.29577951308232E0, atan2(gl[3], sqrt(gl[1] * gl[1] + gl[2] * gl[2])) * 57.29577951308232E0]`,
  );

/** The signed area of triangle abc (S2::SignedArea: l'Huilier's formula, positive when counterclockwise). */
export function triangleArea(a: string, b: string, c: string): string {
  const sides = `[${angle(b, c)}, ${angle(c, a)}, ${angle(a, b)}]`;
  const half = (x: string): string => `tan(0.5E0 * ${x})`;
  const lhuilier = bind(
    `0.5E0 * (ga[1] + ga[2] + ga[3])`,
    'gh',
    `4E0 * atan(sqrt(greatest(0E0, ${half('gh')} * ${half('(gh - ga[1])')} * ${half('(gh - ga[2])')} * ${half('(gh - ga[3])')})))`,
  );
  return `(${bind(sides, 'ga', lhuilier)} * sign(${triple(a, b, c)}))`;
}

/** S2::TrueCentroid of triangle abc: its centroid times its area, by Cramer's rule relative to a. */
export function triangleCentroid(a: string, b: string, c: string): string {
  const ratio = (x: string): string => bind(x, 'gz', `CASE WHEN gz = 0 THEN 1E0 ELSE gz / sin(gz) END`);
  const r = `[${ratio(angle(b, c))}, ${ratio(angle(c, a))}, ${ratio(angle(a, b))}]`;
  const row = (k: number): string => `[${a}[${k}], ${b}[${k}] - ${a}[${k}], ${c}[${k}] - ${a}[${k}]]`;
  const m = `[${row(1)}, ${row(2)}, ${row(3)}, [gr[1], gr[2] - gr[1], gr[3] - gr[1]]]`;
  const solve =
    `[0.5E0 * ${triple('gm[2]', 'gm[3]', 'gm[4]')}, 0.5E0 * ${triple('gm[3]', 'gm[1]', 'gm[4]')}, ` +
    `0.5E0 * ${triple('gm[1]', 'gm[2]', 'gm[4]')}]`;
  return bind(r, 'gr', bind(m, 'gm', solve));
}

/** S2::TrueCentroid of edge ab: toward its midpoint, of length 2·sin(θ) (0 for antipodes). */
export const edgeCentroid = (a: string, b: string): string =>
  bind(
    `[${dot(minus(a, b), minus(a, b))}, ${dot(plus(a, b), plus(a, b))}]`,
    'gn',
    `CASE WHEN gn[2] = 0 THEN [0E0, 0E0, 0E0] ELSE ${scale('sqrt(gn[1] / gn[2])', plus(a, b))} END`,
  );

/**
 * The squared chord distance from p to edge ab (S2's form: the endpoints' chords, and the interior
 * when p's projection falls inside the edge, with the normal as (a-b)×(a+b) to keep its digits).
 */
export function edgeChord2(p: string, a: string, b: string): string {
  const ends = `least(4E0, ${dot(minus(p, a), minus(p, a))}, ${dot(minus(p, b), minus(p, b))})`;
  const inside = `${triple('gc', a, p)} > 0 AND ${triple(b, 'gc', p)} > 0`;
  const sin2 = `(${dot(p, 'gc')} * ${dot(p, 'gc')} / ${dot('gc', 'gc')})`;
  const interior = bind(sin2, 'gw', `2E0 * gw / (1E0 + sqrt(greatest(0E0, 1E0 - gw)))`);
  return bind(
    cross(minus(a, b), plus(a, b)),
    'gc',
    `CASE WHEN ${inside} THEN least(${ends}, ${interior}) ELSE ${ends} END`,
  );
}

/** A squared chord as an angle (S1ChordAngle::ToAngle). */
export const chordToAngle = (chord2: string): string => `(2E0 * asin(0.5E0 * sqrt(${chord2})))`;

/** The signed angle at p that edge ab subtends (its sum over a ring is ±2π around p, else 0). */
export const windingAngle = (p: string, a: string, b: string): string =>
  `atan2(${triple(a, b, p)}, ${dot(a, b)} - ${dot(p, a)} * ${dot(p, b)})`;

/** The signed area of triangle abc by Oosterom and Strackee's formula: cheaper than l'Huilier's, for orientation only. */
export const triangleExcess = (a: string, b: string, c: string): string =>
  `(2E0 * atan2(${triple(b, c, a)}, 1E0 + ${dot(a, b)} + ${dot(b, c)} + ${dot(c, a)}))`;

/** Edges ab and cd cross at a point interior to both (S2's SimpleCrossing; sharing a vertex is no crossing). */
export const edgesCross = (a: string, b: string, c: string, d: string): string =>
  bind(
    `[-${triple(a, b, c)}, ${triple(a, b, d)}, -${triple(c, d, b)}, ${triple(c, d, a)}]`,
    'gK',
    'gK[1] * gK[2] > 0 AND gK[1] * gK[3] > 0 AND gK[1] * gK[4] > 0',
  );
