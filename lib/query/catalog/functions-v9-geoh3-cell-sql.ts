// An H3 cell's place on the icosahedron in DuckDB SQL (H3's _h3ToFaceIjk and _hex2dToGeo): from the
// base cell's home face and position, one aperture-7 step a resolution (Class III ccw, Class II cw)
// plus the digit's unit vector gives the cell's hex coordinates on that face; a cell that falls
// past the face's edge ("overage") is moved onto the neighboring face (rotated and translated as
// that face's table says; a pentagon base cell may cross twice more). The hex center is then
// unprojected: inverse gnomonic distance and azimuth from the face center, a point at that
// azimuth and distance on the sphere. Doubles throughout, step by step as the library computes:
// the azimuth-and-distance form of H3 3.x (later versions go through unit vectors; h3-js 4.5
// differs from the pages in the last bits); with it the pages' coordinates come out to the last digit, but one.
import { bindAs } from './functions-v9-geocell-common';
import {
  AP7_ROT_RADS,
  CW,
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
  // One lambda level only: DuckDB's binding time grows steeply with the nesting of lambdas, so the
  // small expressions are repeated in the text instead of bound.
  const factor = substrate ? 3 : 1;
  const unit = `(${UNIT_SCALE}[${res} + 1] * ${factor})`;
  const maxDim = `(2 * ${unit})`;
  const sum = (a: string, b: string): string => `(${a} + ${b} - 3 * least(${a}, ${b}, 0))`;
  const m = `least(${s}[2], ${s}[3], 0)`;
  const quadrant = `(CASE WHEN ${m} < 0 THEN CASE WHEN ${s}[3] - ${m} > 0 THEN 2 ELSE 1 END ELSE 0 END)`;
  // KI quadrant of a pentagon's leading-4 cell: rotated 60° cw about the pentagon's center (maxDim, 0).
  const rotated = `(${quadrant} = 1 AND ${pentLeading4})`;
  const pre = `{'o': ${NEIGHBOR}[${s}[1] * 3 + ${quadrant} + 1], 'a': CASE WHEN ${rotated} THEN ${s}[3] + ${maxDim} ELSE ${s}[2] END, 'b': CASE WHEN ${rotated} THEN ${s}[3] - ${s}[2] + ${maxDim} ELSE ${s}[3] END}`;
  const matrix = (k: number): string => `${CCW_MATRIX}[hx.o[4] * 4 + ${k}]`;
  const na = `(${matrix(1)} * hx.a + ${matrix(2)} * hx.b + hx.o[2] * ${unit})`;
  const nb = `(${matrix(3)} * hx.a + ${matrix(4)} * hx.b + hx.o[3] * ${unit})`;
  const overage = substrate ? `CASE WHEN ${sum(na, nb)} = ${maxDim} THEN 1 ELSE 2 END` : '2';
  const cross = bindAs(pre, 'hx', `[hx.o[1], ${na}, ${nb}, ${overage}]`);
  const total = sum(`${s}[2]`, `${s}[3]`);
  const edge = substrate ? `WHEN ${total} = ${maxDim} THEN [${s}[1], ${s}[2], ${s}[3], 1] ` : '';
  return `CASE ${edge}WHEN ${total} > ${maxDim} THEN ${cross} ELSE [${s}[1], ${s}[2], ${s}[3], 0] END`;
}

/**
 * The cell hc ({id, res, base}, a plain reference; a valid cell) as {f, a, b}: its face and axial
 * hex coordinates at its resolution (H3's _h3ToFaceIjk).
 */
export function cellFaceIjk(hc: string): string {
  const pent = `list_contains(${PENTAGONS}, ${hc}.base)`;
  const digits0 = `list_transform(range(1, ${hc}.res + 1), hr -> CAST((${hc}.id >> (3 * (15 - hr))) & 7 AS BIGINT))`;
  const leading0 = `coalesce(list_filter(${digits0}, hz -> hz <> 0)[1], 0)`;
  const head = `{'d0': ${digits0}, 'l0': ${leading0}, 'h': ${HOME}[${hc}.base + 1]}`;
  // A pentagon's leading-5 cells are rotated 60° cw out of the deleted k-axis subsequence first.
  const digit = `CASE WHEN ${pent} AND hq1.l0 = 5 THEN [${CW.join(', ')}][hq1.d0[hr] + 1] ELSE hq1.d0[hr] END`;
  const odd = 'he[1] % 2 = 1';
  const step = `[CASE WHEN ${odd} THEN 2 * hs[1] + hs[2] ELSE 3 * hs[1] - hs[2] END + ${UNIT_I}[he[2] + 1], CASE WHEN ${odd} THEN 3 * hs[2] - hs[1] ELSE hs[1] + 2 * hs[2] END + ${UNIT_J}[he[2] + 1]]`;
  const walk = `list_reduce(list_prepend([hq1.h[2], hq1.h[3]], list_transform(range(1, ${hc}.res + 1), hr -> [hr, ${digit}])), (hs, he) -> ${step})`;
  // Overage is impossible for a hexagon base cell centered on its face (or at resolution 0).
  const possible = `(${pent} OR (${hc}.res > 0 AND hq1.h[4] = 0))`;
  const res2 = `(${hc}.res + ${hc}.res % 2)`;
  const start = `CASE WHEN ${hc}.res % 2 = 1 THEN list_concat([hq1.h[1]], ${downAp7r('hw[1]', 'hw[2]')}, [0]) ELSE [hq1.h[1], hw[1], hw[2], 0] END`;
  // The first move may rotate a pentagon's leading-4 cell (its leading digit is 4 before and after
  // the leading-5 rotation); a pentagon base cell may cross again, at most twice more. One fold of
  // four steps, each a no-op once inside (and for a hexagon's later steps).
  const pentLeading4 = `(hze[1] = 1 AND ${pent} AND hq1.l0 = 4)`;
  const moves = `(hze[1] = 1 OR (${pent} AND ha[4] <> 0))`;
  const adjusted = `list_reduce(list_prepend(${start}, [[1], [2], [3], [4]]), (ha, hze) -> CASE WHEN ${moves} THEN ${adjustOverage('ha', res2, pentLeading4, false)} ELSE ha END)`;
  // Back to the Class III grid: up of down is the identity when nothing moved.
  const back = `CASE WHEN ${hc}.res % 2 = 1 THEN list_concat([hf[1]], ${upAp7r('hf[2]', 'hf[3]')}) ELSE [hf[1], hf[2], hf[3]] END`;
  const placed = `CASE WHEN ${possible} THEN ${bindAs(adjusted, 'hf', back)} ELSE [hq1.h[1], hw[1], hw[2]] END`;
  const body = bindAs(walk, 'hw', bindAs(placed, 'hp', `{'f': hp[1], 'a': hp[2], 'b': hp[3]}`));
  return bindAs(head, 'hq1', body);
}

/** H3's constrainLng for a longitude within one turn of [-π, π] (a plain reference). */
const constrainLng = (l: string): string =>
  `CASE WHEN ${l} > pi() THEN ${l} - ${TWO_PI} WHEN ${l} < -pi() THEN ${l} + ${TWO_PI} ELSE ${l} END`;

/** H3's snap to a pole: a latitude within EPSILON of ±π/2 becomes ±π/2 (a plain reference). */
const nearPole = (lat: string): string =>
  `(abs(${lat} - pi() / 2) < ${EPSILON} OR abs(${lat} + pi() / 2) < ${EPSILON})`;
const snapPole = (lat: string): string =>
  `CASE WHEN abs(${lat} - pi() / 2) < ${EPSILON} THEN pi() / 2 WHEN abs(${lat} + pi() / 2) < ${EPSILON} THEN -pi() / 2 ELSE ${lat} END`;

/**
 * H3's _hex2dToGeo: the point (x, y) of face f's hex plane at resolution res (plain references) as
 * [lng, lat] in degrees. A substrate grid (the vertices' grid) is 3 times finer, and for Class III
 * a further sqrt(7) finer, with its rotation already in its coordinates. Then H3's
 * _geoAzDistanceRads: the point at that azimuth and angular distance from the face center. Four
 * lambda levels (DuckDB's binding time grows steeply with their nesting): small expressions are
 * repeated in the text instead of bound.
 */
export function hex2dToGeo(x: string, y: string, f: string, res: string, substrate: boolean): string {
  const lat1 = `${list(FACE_CENTER_GEO.map((g) => g[0]))}[${f} + 1]`;
  const lng1 = `${list(FACE_CENTER_GEO.map((g) => g[1]))}[${f} + 1]`;
  const r0 = `sqrt(${x} * ${x} + ${y} * ${y})`;
  // r divided by sqrt(7) once a resolution, as the library divides; a substrate by 3 (and sqrt(7)).
  const divided = `list_reduce(list_prepend(${r0}, list_transform(range(${res}), hk -> ${SQRT7})), (hx, hy) -> hx / hy)`;
  const scaled = substrate ? `(${divided} / 3.0 / CASE WHEN ${res} % 2 = 1 THEN ${SQRT7} ELSE 1.0 END)` : divided;
  const theta = `atan2(${y}, ${x})`;
  const level1 = `{'r0': ${r0}, 'th': ${theta}, 'd': atan(${scaled} * ${RES0_U_GNOMONIC}), 'lat1': ${lat1}, 'lng1': ${lng1}, 'ax': ${list(FACE_AXIS_AZ)}[${f} + 1]}`;
  // Class III turns the angle (not on a substrate grid, whose coordinates already turned).
  const turned = substrate
    ? 'hg1.th'
    : `CASE WHEN ${res} % 2 = 1 THEN ${posAngle(`(hg1.th + ${AP7_ROT_RADS})`)} ELSE hg1.th END`;
  // The azimuth, already in [0, 2π) (the library normalizes it again, which changes nothing).
  const level2 = `{'az': ${posAngle(`(hg1.ax - (${turned}))`)}}`;
  const meridian = `(hg2.az < ${EPSILON} OR abs(hg2.az - pi()) < ${EPSILON})`;
  const meridianLat = `CASE WHEN hg2.az < ${EPSILON} THEN hg1.lat1 + hg1.d ELSE hg1.lat1 - hg1.d END`;
  const sinLat = `greatest(-1.0, least(1.0, sin(hg1.lat1) * cos(hg1.d) + cos(hg1.lat1) * sin(hg1.d) * cos(hg2.az)))`;
  const level3 = `{'lat': CASE WHEN ${meridian} THEN ${meridianLat} ELSE asin(${sinLat}) END}`;
  const sinLng = `(sin(hg2.az) * sin(hg1.d) / cos(hg3.lat))`;
  const cosLng = `((cos(hg1.d) - sin(hg1.lat1) * sin(hg3.lat)) / cos(hg1.lat1) / cos(hg3.lat))`;
  // The library's clamps as written: a cosine out of range clamps the sine.
  const clamped = `CASE WHEN ${cosLng} > 1.0 THEN 1.0 WHEN ${cosLng} < -1.0 THEN -1.0 WHEN ${sinLng} > 1.0 THEN 1.0 WHEN ${sinLng} < -1.0 THEN -1.0 ELSE ${sinLng} END`;
  const raw = `CASE WHEN ${meridian} THEN hg1.lng1 ELSE hg1.lng1 + atan2(${clamped}, ${cosLng}) END`;
  const level4 = `{'lat': ${snapPole('hg3.lat')}, 'lng': CASE WHEN ${nearPole('hg3.lat')} THEN 0.0 ELSE ${constrainLng('hg4r')} END}`;
  const geo = bindAs(level4, 'hg4', '[hg4.lng, hg4.lat]');
  const unprojected = bindAs(
    level1,
    'hg1',
    `CASE WHEN hg1.r0 < ${EPSILON} OR hg1.d < ${EPSILON} THEN [hg1.lng1, hg1.lat1] ELSE ${bindAs(level2, 'hg2', bindAs(level3, 'hg3', bindAs(raw, 'hg4r', geo)))} END`,
  );
  return bindAs(unprojected, 'hll', `[hll[1] * ${RAD_TO_DEG}, hll[2] * ${RAD_TO_DEG}]`);
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
 * H3's _v2dIntersect of the lines o0-o1 and e[1]-e[2] (members of the plain reference `p`: {o0, o1,
 * e}), with its parameter t rounded to a C float as the library declares it: [x, y].
 */
function intersect(p: string): string {
  const [o0, o1, e] = [`${p}.o0`, `${p}.o1`, `${p}.e`];
  const t = `CAST(CAST(((${e}[2][1] - ${e}[1][1]) * (${o0}[2] - ${e}[1][2]) - (${e}[2][2] - ${e}[1][2]) * (${o0}[1] - ${e}[1][1])) / (-(${e}[2][1] - ${e}[1][1]) * (${o1}[2] - ${o0}[2]) + (${o1}[1] - ${o0}[1]) * (${e}[2][2] - ${e}[1][2])) AS FLOAT) AS DOUBLE)`;
  return bindAs(t, 'hit', `[${o0}[1] + hit * (${o1}[1] - ${o0}[1]), ${o0}[2] + hit * (${o1}[2] - ${o0}[2])]`);
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
  // The center on the substrate grid: aperture 3 then 3r is three times the coordinates; Class III adds 7r.
  const c = [
    `CASE WHEN ${hc}.res % 2 = 1 THEN 9 * hj.a - 3 * hj.b ELSE 3 * hj.a END`,
    `CASE WHEN ${hc}.res % 2 = 1 THEN 3 * hj.a + 6 * hj.b ELSE 3 * hj.b END`,
  ];
  const verts = `list_transform(CASE WHEN ${hc}.res % 2 = 1 THEN ${VERTS_CIII} ELSE ${VERTS_CII} END[1:${n}], hvo -> [${c[0]} + hvo[1], ${c[1]} + hvo[2]])`;
  // Each vertex moved onto its face; a pentagon's vertex may cross again (at most twice more).
  const moves = `(hz[1] = 1 OR (${hc}.pent AND ha[4] = 2))`;
  const adjust = `list_reduce(list_prepend([hj.f, hvv[1], hvv[2], 0], [[1], [2], [3], [4]]), (ha, hz) -> CASE WHEN ${moves} THEN ${adjustOverage('ha', res2, 'FALSE', true)} ELSE ha END)`;
  const head = `{'vs': ${verts}, 'n': ${n}}`;
  const adjusted = `list_transform(hrb.vs, hvv -> ${adjust})`;
  // Points to unproject, as [x, y, face] on a face's hex plane.
  const vertex = (k: string): string =>
    `[list_append(${hex2d(`[hadj[${k}][2], hadj[${k}][3]]`)}, CAST(hadj[${k}][1] AS DOUBLE))]`;
  // Hexagon: the crossing of edge (k-1, k) when the face changes there, not from an edge vertex, and not at a vertex.
  const hexCrossing = (k: string, prev: string): string => {
    const face2 = `CASE WHEN hadj[${prev}][1] = hj.f THEN hadj[${k}][1] ELSE hadj[${prev}][1] END`;
    const q = `${ADJACENT_QUADRANT}[hj.f * 20 + ${face2} + 1]`;
    const lines = `{'o0': ${hex2d(`hrb.vs[${prev}]`)}, 'o1': ${hex2d(`hrb.vs[${k}]`)}, 'e': ${faceEdge(q, res2)}}`;
    const point = bindAs(
      lines,
      'hoo',
      bindAs(
        intersect('hoo'),
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
    const carried = [
      `${matrix(1)} * hadj[${k}][2] + ${matrix(2)} * hadj[${k}][3] + hor[2] * ${unit}`,
      `${matrix(3)} * hadj[${k}][2] + ${matrix(4)} * hadj[${k}][3] + hor[3] * ${unit}`,
    ];
    const edgeQ = `${ADJACENT_QUADRANT}[hor[1] * 20 + hadj[${k}][1] + 1]`;
    const lines = `{'o0': ${hex2d(`[hadj[${prev}][2], hadj[${prev}][3]]`)}, 'o1': [(${carried[0]}) - 0.5 * (${carried[1]}), (${carried[1]}) * ${SQRT3_2}], 'e': ${faceEdge(edgeQ, res2)}}`;
    return bindAs(orient, 'hor', bindAs(lines, 'hoo', `[list_append(${intersect('hoo')}, CAST(hor[1] AS DOUBLE))]`));
  };
  const crossing = (k: string, prev: string): string =>
    `CASE WHEN ${hc}.res % 2 = 0 THEN [] WHEN ${hc}.pent THEN ${pentCrossing(k, prev)} ELSE ${hexCrossing(k, prev)} END`;
  // Vertex 0, then for each following vertex (wrapping to 0 at the end) the crossing before it and the vertex.
  const points = `flatten(list_transform(range(0, hrb.n + 1), hk -> CASE WHEN hk = 0 THEN ${vertex('1')} ELSE list_concat(${crossing('(hk % hrb.n + 1)', 'hk')}, CASE WHEN hk < hrb.n THEN ${vertex('hk + 1')} ELSE [] END) END))`;
  const ring = `list_transform(${points}, hpt -> ${hex2dToGeo('hpt[1]', 'hpt[2]', 'CAST(hpt[3] AS BIGINT)', res2, true)})`;
  const body = bindAs(adjusted, 'hadj', bindAs(ring, 'hrg', 'list_append(hrg, hrg[1])'));
  return bindAs(cellFaceIjk(hc), 'hj', bindAs(head, 'hrb', body));
}
