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
  // The first move may rotate a pentagon's leading-4 cell; a pentagon base cell may cross again,
  // at most twice more. One fold of four steps, each a no-op once inside (or for a hexagon's later steps).
  const pentLeading4 = `(hz = 1 AND ${pent} AND ${leading('hd')} = 4)`;
  const moves = `(hz = 1 OR (${pent} AND ha[4] <> 0))`;
  const adjusted = `list_reduce(list_prepend(hs0, [[1], [2], [3], [4]]), (ha, hze) -> ${bindAs('hze[1]', 'hz', `CASE WHEN ${moves} THEN ${adjustOverage('ha', res2, pentLeading4, false)} ELSE ha END`)})`;
  // Back to the Class III grid: up of down is the identity when nothing moved.
  const back = `CASE WHEN ${hc}.res % 2 = 1 THEN list_concat([hf[1]], ${upAp7r('hf[2]', 'hf[3]')}) ELSE [hf[1], hf[2], hf[3]] END`;
  const placed = `CASE WHEN ${possible} THEN ${bindAs(bindAs(start, 'hs0', adjusted), 'hf', back)} ELSE [hh[1], hw[1], hw[2]] END`;
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

/** Substrate-grid offsets of a cell's vertices from its center, ccw from the i axis (Class II, Class III). */
const VERTS_CII = '[[2, 1], [1, 2], [-1, 1], [-2, -1], [-1, -2], [1, -1]]';
const VERTS_CIII = '[[5, 4], [1, 5], [-4, 1], [-5, -4], [-1, -5], [4, -1]]';

/** Per face f and face g (index f·20 + g + 1): the quadrant (0 ij, 1 ki, 2 jk) g lies across from f, -1 if not adjacent. */
const ADJACENT_QUADRANT = `[${Array.from({ length: 400 }, (_, n) =>
  FACE_NEIGHBORS[Math.floor(n / 20)]!.findIndex(([g]) => g === n % 20),
).join(', ')}]`;

/** The axial point p ([a, b], a plain reference) in its face's hex plane, as [x, y]. */
const hex2d = (p: string): string => `[${p}[1] - 0.5 * ${p}[2], ${p}[2] * ${SQRT3_2}]`;

/**
 * The face edge shared with the neighbor across quadrant q (a plain reference) at Class II
 * resolution res, as its two endpoints [[x0, y0], [x1, y1]] (the triangle's corners scaled up).
 */
function faceEdge(q: string, res: string): string {
  const m = `(2 * ${UNIT_SCALE}[${res} + 1])`;
  const v0 = `[3.0 * ${m}, 0.0]`;
  const v1 = `[-1.5 * ${m}, 3.0 * ${SQRT3_2} * ${m}]`;
  const v2 = `[-1.5 * ${m}, -3.0 * ${SQRT3_2} * ${m}]`;
  return `CASE ${q} WHEN 0 THEN [${v0}, ${v1}] WHEN 2 THEN [${v1}, ${v2}] ELSE [${v2}, ${v0}] END`;
}

/**
 * H3's _v2dIntersect of the lines p0-p1 and e[1]-e[2] (plain references), with its parameter t
 * rounded to a C float as the library declares it.
 */
function intersect(p0: string, p1: string, e: string): string {
  const t = `CAST(CAST(((${e}[2][1] - ${e}[1][1]) * (${p0}[2] - ${e}[1][2]) - (${e}[2][2] - ${e}[1][2]) * (${p0}[1] - ${e}[1][1])) / (-(${e}[2][1] - ${e}[1][1]) * (${p1}[2] - ${p0}[2]) + (${p1}[1] - ${p0}[1]) * (${e}[2][2] - ${e}[1][2])) AS FLOAT) AS DOUBLE)`;
  return bindAs(t, 'hit', `[${p0}[1] + hit * (${p1}[1] - ${p0}[1]), ${p0}[2] + hit * (${p1}[2] - ${p0}[2])]`);
}

/**
 * The closed ring of the cell hc's boundary (a plain reference; a valid cell) as [[lng, lat], ...]
 * (H3's _faceIjkToGeoBoundary and _faceIjkPentToGeoBoundary): the vertices on the substrate grid
 * (aperture 3, 3r, and 7r for Class III), each moved onto the face it lies on; a Class III edge
 * that crosses an icosahedron edge gets the crossing point as a vertex of its own.
 */
export function cellRing(hc: string): string {
  const res2 = `(${hc}.res + ${hc}.res % 2)`;
  const n = `CASE WHEN ${hc}.pent THEN 5 ELSE 6 END`;
  const ap3 = `[hj.a + hj.b, 2 * hj.b - hj.a]`;
  const center = bindAs(
    bindAs(ap3, 'h3a', `[2 * h3a[1] - h3a[2], h3a[1] + h3a[2]]`),
    'h3r',
    `CASE WHEN ${hc}.res % 2 = 1 THEN ${downAp7r('h3r[1]', 'h3r[2]')} ELSE h3r END`,
  );
  const verts = `list_transform(CASE WHEN ${hc}.res % 2 = 1 THEN ${VERTS_CIII} ELSE ${VERTS_CII} END[1:${n}], hvo -> [hvc[1] + hvo[1], hvc[2] + hvo[2]])`;
  // Each vertex moved onto its face; a pentagon's vertex may cross again (at most twice more).
  const moves = `(hz[1] = 1 OR (${hc}.pent AND ha[4] = 2))`;
  const adjust = `list_reduce(list_prepend([hj.f, hvv[1], hvv[2], 0], [[1], [2], [3], [4]]), (ha, hz) -> CASE WHEN ${moves} THEN ${adjustOverage('ha', res2, 'FALSE', true)} ELSE ha END)`;
  const adjusted = `list_transform(hvs, hvv -> ${adjust})`;
  // Points to unproject, as [x, y, face] on a face's hex plane.
  const vertex = (k: string): string => `[${bindAs(`hadj[${k}]`, 'hvk', `list_append(${hex2d('[hvk[2], hvk[3]]')}, CAST(hvk[1] AS DOUBLE))`)}]`;
  // Hexagon: the crossing of edge (k-1, k) when the face changes there, not from an edge vertex, and not at a vertex.
  const hexCrossing = (k: string, prev: string): string => {
    const face2 = `CASE WHEN hadj[${prev}][1] = hj.f THEN hadj[${k}][1] ELSE hadj[${prev}][1] END`;
    const q = `${ADJACENT_QUADRANT}[hj.f * 20 + ${face2} + 1]`;
    const point = bindAs(
      `{'o0': ${hex2d(`hvs[${prev}]`)}, 'o1': ${hex2d(`hvs[${k}]`)}}`,
      'hoo',
      bindAs(
        bindAs(faceEdge(q, res2), 'hed', intersect('hoo.o0', 'hoo.o1', 'hed')),
        'hin',
        `CASE WHEN hin = hoo.o0 OR hin = hoo.o1 THEN [] ELSE [list_append(hin, CAST(hj.f AS DOUBLE))] END`,
      ),
    );
    return `CASE WHEN hadj[${k}][1] <> hadj[${prev}][1] AND hadj[${prev}][4] <> 1 THEN ${point} ELSE [] END`;
  };
  // Pentagon: every Class III edge crosses; the current vertex is carried into the last vertex's face.
  const pentCrossing = (k: string, prev: string): string => {
    const q = `${ADJACENT_QUADRANT}[hadj[${k}][1] * 20 + hadj[${prev}][1] + 1]`;
    const orient = `${NEIGHBOR}[hadj[${k}][1] * 3 + ${q} + 1]`;
    const unit = `(${UNIT_SCALE}[${res2} + 1] * 3)`;
    const matrix = (i: number): string => `${CCW_MATRIX}[hor[4] * 4 + ${i}]`;
    const carried = `[${matrix(1)} * hadj[${k}][2] + ${matrix(2)} * hadj[${k}][3] + hor[2] * ${unit}, ${matrix(3)} * hadj[${k}][2] + ${matrix(4)} * hadj[${k}][3] + hor[3] * ${unit}]`;
    const edgeQ = `${ADJACENT_QUADRANT}[hor[1] * 20 + hadj[${k}][1] + 1]`;
    const inter = bindAs(
      `{'o0': ${hex2d(`[hadj[${prev}][2], hadj[${prev}][3]]`)}, 'o1': ${bindAs(carried, 'hca', hex2d('hca'))}}`,
      'hoo',
      bindAs(faceEdge(edgeQ, res2), 'hed', intersect('hoo.o0', 'hoo.o1', 'hed')),
    );
    return bindAs(orient, 'hor', `[list_append(${inter}, CAST(hor[1] AS DOUBLE))]`);
  };
  const crossing = (k: string, prev: string): string =>
    `CASE WHEN ${hc}.res % 2 = 0 THEN [] WHEN ${hc}.pent THEN ${pentCrossing(k, prev)} ELSE ${hexCrossing(k, prev)} END`;
  // Vertex 0, then for each following vertex (wrapping to 0 at the end) the crossing before it and the vertex.
  const points = `flatten(list_transform(range(0, hn + 1), hk -> CASE WHEN hk = 0 THEN ${vertex('1')} ELSE list_concat(${crossing('(hk % hn + 1)', 'hk')}, CASE WHEN hk < hn THEN ${vertex('hk + 1')} ELSE [] END) END))`;
  const ring = `list_transform(${points}, hpt -> ${hex2dToGeo('hpt[1]', 'hpt[2]', 'CAST(hpt[3] AS BIGINT)', res2, true)})`;
  const body = bindAs(adjusted, 'hadj', bindAs(ring, 'hrg', 'list_append(hrg, hrg[1])'));
  return bindAs(
    cellFaceIjk(hc),
    'hj',
    bindAs(center, 'hvc', bindAs(verts, 'hvs', bindAs(n, 'hn', body))),
  );
}
