// An H3 cell's place on the icosahedron in DuckDB SQL (H3's _h3ToFaceIjk and _hex2dToGeo): from the
// base cell's home face and position, one aperture-7 step a resolution (Class III ccw, Class II cw)
// plus the digit's unit vector gives the cell's hex coordinates on that face; a cell that falls
// past the face's edge ("overage") is moved onto the neighboring face (rotated and translated as
// that face's table says; a pentagon base cell may cross twice more). The hex center is then
// unprojected: inverse gnomonic distance and azimuth from the face center, a point at that
// azimuth and distance on the sphere. Doubles throughout, step by step as the library computes.
import { bindAs } from './functions-v9-geocell-common';
import {
  AP7_ROT_RADS,
  CW,
  downAp7,
  downAp7r,
  EPSILON,
  list,
  PENTAGONS,
  posAngle,
  RAD_TO_DEG,
  RES0_U_GNOMONIC,
  SQRT3_2,
  SQRT7,
  TWO_PI,
  UNIT_I,
  UNIT_J,
  UNIT_SCALE,
  upAp7r,
} from './functions-v9-geoh3-common';
import { BASE_CELL_HOME, FACE_AXIS_AZ, FACE_CENTER_GEO, FACE_NEIGHBORS } from './functions-v9-geoh3-tables';

/** Per base cell: [home face, axial a, axial b, 1 when its home position is the face center]. */
const HOME = `[${BASE_CELL_HOME.map(([f, i, j, k]) => `[${f}, ${i - k}, ${j - k}, ${i + j + k === 0 ? 1 : 0}]`).join(', ')}]`;

/** Per face and quadrant (ij, ki, jk), index face·3 + quadrant + 1: [face, axial translation a, b, ccw rotations]. */
const NEIGHBOR = `[${FACE_NEIGHBORS.flatMap((row) => row.map(([f, i, j, k, r]) => `[${f}, ${i - k}, ${j - k}, ${r}]`)).join(', ')}]`;

/** 60° ccw rotations n = 0 to 5 of axial [a, b] as [p, q, r, s] (a' = p·a + q·b, b' = r·a + s·b), index n·4 + 1. */
const CCW_MATRIX = (() => {
  const out: number[] = [];
  let m = [1, 0, 0, 1];
  for (let n = 0; n < 6; n++) {
    out.push(...m);
    // ccw: (a, b) -> (a - b, a)
    m = [m[0]! - m[2]!, m[1]! - m[3]!, m[0]!, m[1]!];
  }
  return `[${out.join(', ')}]`;
})();

/**
 * H3's _adjustOverageClassII on the state s ([face, a, b, overage], a plain reference) at Class II
 * resolution `res`: unchanged with overage 0 inside the face (1 exactly on its edge on a substrate
 * grid), else moved onto the neighboring face with overage 2 (1 when it lands on an edge there).
 * `pentLeading4` (SQL boolean) rotates a pentagon's leading-4 cells out of the deleted subsequence.
 */
export function adjustOverage(s: string, res: string, pentLeading4: string, substrate: boolean): string {
  const factor = substrate ? 3 : 1;
  const unit = `(${UNIT_SCALE}[${res} + 1] * ${factor})`;
  const maxDim = `(2 * ${unit})`;
  const sum = (a: string, b: string): string => `(${a} + ${b} - 3 * least(${a}, ${b}, 0))`;
  const quadrant = `CASE WHEN least(${s}[2], ${s}[3], 0) < 0 THEN CASE WHEN ${s}[3] - least(${s}[2], ${s}[3], 0) > 0 THEN 2 ELSE 1 END ELSE 0 END`;
  // KI quadrant of a pentagon's leading-4 cell: rotated 60° cw about the pentagon's center (maxDim, 0).
  const pre = `CASE WHEN hq = 1 AND ${pentLeading4} THEN [${s}[3] + ${maxDim}, ${s}[3] - ${s}[2] + ${maxDim}] ELSE [${s}[2], ${s}[3]] END`;
  const matrix = (k: number): string => `${CCW_MATRIX}[ho[4] * 4 + ${k}]`;
  const moved = `[ho[1], ${matrix(1)} * hpre[1] + ${matrix(2)} * hpre[2] + ho[2] * ${unit}, ${matrix(3)} * hpre[1] + ${matrix(4)} * hpre[2] + ho[3] * ${unit}]`;
  const withOverage = bindAs(moved, 'hm', `[hm[1], hm[2], hm[3], ${substrate ? `CASE WHEN ${sum('hm[2]', 'hm[3]')} = ${maxDim} THEN 1 ELSE 2 END` : '2'}]`);
  const cross = bindAs(
    quadrant,
    'hq',
    bindAs(`${NEIGHBOR}[${s}[1] * 3 + hq + 1]`, 'ho', bindAs(pre, 'hpre', withOverage)),
  );
  const total = sum(`${s}[2]`, `${s}[3]`);
  const edge = substrate ? `WHEN ${total} = ${maxDim} THEN [${s}[1], ${s}[2], ${s}[3], 1] ` : '';
  return `CASE ${edge}WHEN ${total} > ${maxDim} THEN ${cross} ELSE [${s}[1], ${s}[2], ${s}[3], 0] END`;
}

/**
 * The cell hc ({id, res, base}, a plain reference; a valid cell) as {f, a, b}: its face and axial
 * hex coordinates at its resolution (H3's _h3ToFaceIjk).
 */
export function cellFaceIjk(hc: string): string {
  const digits0 = `list_transform(range(1, ${hc}.res + 1), hr -> CAST((${hc}.id >> (3 * (15 - hr))) & 7 AS BIGINT))`;
  const pent = `list_contains(${PENTAGONS}, ${hc}.base)`;
  const leading = (d: string): string => `coalesce(list_filter(${d}, hz -> hz <> 0)[1], 0)`;
  // A pentagon's leading-5 cells are rotated 60° cw out of the deleted k-axis subsequence first.
  const digits = `CASE WHEN ${pent} AND ${leading('hd0')} = 5 THEN list_transform(hd0, hz -> [${CW.join(', ')}][hz + 1]) ELSE hd0 END`;
  const step = `CASE WHEN he[1] % 2 = 1 THEN ${downAp7('hs[1]', 'hs[2]')} ELSE ${downAp7r('hs[1]', 'hs[2]')} END`;
  const walk = `list_reduce(list_prepend([hh[2], hh[3]], list_transform(range(1, ${hc}.res + 1), hr -> [hr, hd[hr]])), (hs, he) -> list_transform([${step}], hx -> [hx[1] + ${UNIT_I}[he[2] + 1], hx[2] + ${UNIT_J}[he[2] + 1]])[1])`;
  // Overage is impossible for a hexagon base cell centered on its face (or at resolution 0).
  const possible = `(${pent} OR (${hc}.res > 0 AND hh[4] = 0))`;
  const res2 = `(${hc}.res + ${hc}.res % 2)`;
  const start = `CASE WHEN ${hc}.res % 2 = 1 THEN list_concat([hh[1]], ${downAp7r('hw[1]', 'hw[2]')}, [0]) ELSE [hh[1], hw[1], hw[2], 0] END`;
  const first = bindAs(start, 'hs0', adjustOverage('hs0', res2, `(${pent} AND ${leading('hd')} = 4)`, false));
  // A pentagon base cell may cross again, at most twice more: each fold step is a no-op once inside.
  const again = `list_reduce([hs1, hs1, hs1, hs1], (ha, hz) -> CASE WHEN ha[4] = 0 THEN ha ELSE ${adjustOverage('ha', res2, 'FALSE', false)} END)`;
  const adjusted = bindAs(first, 'hs1', `CASE WHEN ${pent} THEN ${again} ELSE hs1 END`);
  // Back to the Class III grid: up of down is the identity when nothing moved.
  const back = `CASE WHEN ${hc}.res % 2 = 1 THEN list_concat([hf[1]], ${upAp7r('hf[2]', 'hf[3]')}) ELSE [hf[1], hf[2], hf[3]] END`;
  const placed = `CASE WHEN ${possible} THEN ${bindAs(adjusted, 'hf', back)} ELSE [hh[1], hw[1], hw[2]] END`;
  const body = bindAs(walk, 'hw', bindAs(placed, 'hp', `{'f': hp[1], 'a': hp[2], 'b': hp[3]}`));
  return bindAs(digits0, 'hd0', bindAs(digits, 'hd', bindAs(`${HOME}[${hc}.base + 1]`, 'hh', body)));
}

/** H3's constrainLng for a longitude within one turn of [-π, π] (a plain reference). */
const constrainLng = (l: string): string =>
  `CASE WHEN ${l} > pi() THEN ${l} - ${TWO_PI} WHEN ${l} < -pi() THEN ${l} + ${TWO_PI} ELSE ${l} END`;

/**
 * H3's _geoAzDistanceRads from the face center (lat1, lng1) at azimuth az and angular distance d
 * (plain references) as [lat, lng] in radians.
 */
function azDistance(lat1: string, lng1: string, az: string, d: string): string {
  const halfPi = 'pi() / 2';
  const pole = (lat: string, other: string): string =>
    `CASE WHEN abs(${lat} - ${halfPi}) < ${EPSILON} THEN [${halfPi}, 0.0::DOUBLE] WHEN abs(${lat} + ${halfPi}) < ${EPSILON} THEN [-${halfPi}, 0.0::DOUBLE] ELSE ${other} END`;
  const meridian = bindAs(
    `CASE WHEN hz2 < ${EPSILON} THEN ${lat1} + ${d} ELSE ${lat1} - ${d} END`,
    'hl',
    pole('hl', `[hl, ${bindAs(lng1, 'hl1', constrainLng('hl1'))}]`),
  );
  const sinLat = `greatest(-1.0, least(1.0, sin(${lat1}) * cos(${d}) + cos(${lat1}) * sin(${d}) * cos(hz2)))`;
  const sinLng = `sin(hz2) * sin(${d}) / cos(hl)`;
  const cosLng = `(cos(${d}) - sin(${lat1}) * sin(hl)) / cos(${lat1}) / cos(hl)`;
  // The library's clamps as written: a cosine out of range clamps the sine.
  const clamped = `CASE WHEN hcl > 1.0 THEN 1.0 WHEN hcl < -1.0 THEN -1.0 WHEN hsl > 1.0 THEN 1.0 WHEN hsl < -1.0 THEN -1.0 ELSE hsl END`;
  const lng = bindAs(
    `{'s': ${sinLng}, 'c': ${cosLng}}`,
    'hsc',
    bindAs(`${lng1} + atan2(${bindAs('hsc.s', 'hsl', bindAs('hsc.c', 'hcl', clamped))}, hsc.c)`, 'hl2', constrainLng('hl2')),
  );
  const general = bindAs(`asin(${sinLat})`, 'hl', pole('hl', `[hl, ${lng}]`));
  const body = `CASE WHEN hz2 < ${EPSILON} OR abs(hz2 - pi()) < ${EPSILON} THEN ${meridian} ELSE ${general} END`;
  return `CASE WHEN ${d} < ${EPSILON} THEN [${lat1}, ${lng1}] ELSE ${bindAs(posAngle(az), 'hz2', body)} END`;
}

/**
 * H3's _hex2dToGeo: the point (x, y) of face f's hex plane at resolution res (plain references) as
 * [lng, lat] in degrees. A substrate grid (the vertices' grid) is 3 times finer, and for Class III
 * a further sqrt(7) finer, with its rotation already in its coordinates.
 */
export function hex2dToGeo(x: string, y: string, f: string, res: string, substrate: boolean): string {
  const faceLat = `${list(FACE_CENTER_GEO.map((g) => g[0]))}[${f} + 1]`;
  const faceLng = `${list(FACE_CENTER_GEO.map((g) => g[1]))}[${f} + 1]`;
  // r divided by sqrt(7) once a resolution, as the library divides.
  const divided = `list_reduce(list_prepend(hr0, list_transform(range(${res}), hk -> ${SQRT7})), (hx, hy) -> hx / hy)`;
  const sub = substrate ? `CASE WHEN ${res} % 2 = 1 THEN hr1 / 3.0 / ${SQRT7} ELSE hr1 / 3.0 END` : 'hr1';
  const r = `atan(${bindAs(divided, 'hr1', sub)} * ${RES0_U_GNOMONIC})`;
  const theta0 = `atan2(${y}, ${x})`;
  const theta1 = substrate
    ? theta0
    : bindAs(theta0, 'ht0', `CASE WHEN ${res} % 2 = 1 THEN ${bindAs(`ht0 + ${AP7_ROT_RADS}`, 'ht1', posAngle('ht1'))} ELSE ht0 END`);
  const azimuth = bindAs(`${list(FACE_AXIS_AZ)}[${f} + 1] - (${theta1})`, 'ht2', posAngle('ht2'));
  const point = bindAs(
    `{'lat': ${faceLat}, 'lng': ${faceLng}, 'az': ${azimuth}, 'd': ${r}}`,
    'hg',
    azDistance('hg.lat', 'hg.lng', 'hg.az', 'hg.d'),
  );
  const geo = `CASE WHEN hr0 < ${EPSILON} THEN [${faceLat}, ${faceLng}] ELSE ${point} END`;
  return bindAs(bindAs(`sqrt(${x} * ${x} + ${y} * ${y})`, 'hr0', geo), 'hll', `[hll[2] * ${RAD_TO_DEG}, hll[1] * ${RAD_TO_DEG}]`);
}

/** The center of the cell hc (a plain reference; a valid cell) as [lng, lat] in degrees. */
export function cellCenter(hc: string): string {
  const xy = `{'x': hj.a - 0.5 * hj.b, 'y': hj.b * ${SQRT3_2}}`;
  return bindAs(cellFaceIjk(hc), 'hj', bindAs(xy, 'hxy', hex2dToGeo('hxy.x', 'hxy.y', 'hj.f', `${hc}.res`, false)));
}
