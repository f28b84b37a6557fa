// S2 cells in DuckDB SQL, written from the public construction of S2 (s2geometry.io, "S2 Cell
// Hierarchy"): a point on the unit sphere lies on one of six cube faces; its (u, v) position on
// that face is warped by the quadratic projection into (s, t) in [0, 1), scaled to the 30-bit leaf
// coordinates (i, j); the cell id is the face (3 bits), then 2 bits of Hilbert-curve position per
// level, then a 1 bit that marks the level. The Hilbert walk needs the orientation the previous
// levels left, so it is a list_reduce over the levels. Tokens are the id in hex without its
// trailing zeros. The geometry (center, vertices) follows S2Cell: unit vectors (normalized by the
// reciprocal of the norm), latitude atan2(z, sqrt(x² + y²)): with DuckDB's libm that reproduces every
// coordinate the pages print to the last digit (without the normalization 5 of 36 printed vertex
// latitudes differ in the last bit).
import { bindAs } from './functions-v9-geocell-common';

/** (orientation · 4 + ij) -> Hilbert position, position -> orientation change, (orientation · 4 + position) -> ij. */
const IJ_TO_POS = '[0, 1, 3, 2, 0, 3, 1, 2, 2, 3, 1, 0, 2, 1, 3, 0]';
const POS_TO_IJ = '[0, 1, 3, 2, 0, 2, 3, 1, 3, 2, 0, 1, 3, 1, 0, 2]';
const POS_TO_ORIENTATION = '[1, 0, 0, 3]';
export const MAX_LEVEL = 30;
const LEAVES = 1 << MAX_LEVEL;
const DEGREES = '(180 / pi())';

/**
 * The token of the level-`l` cell at (i, j) of face f (i, j in [0, 2^l)); all plain references
 * (each is read in the fold's lambda). The walk starts from the face's orientation (odd faces swapped).
 */
export function s2Token(f: string, i: string, j: string, l: string): string {
  const ij = `((((${i} >> se[1]) & 1) << 1) | ((${j} >> se[1]) & 1))`;
  const pos = `${IJ_TO_POS}[sr[1] * 4 + ${ij} + 1]`;
  const step = `[xor(sr[1], ${POS_TO_ORIENTATION}[${pos} + 1]), sr[2] * 4 + ${pos}]`;
  const levels = `list_transform(range(${l}), sk -> [${l} - 1 - sk, 0])`;
  const bits = `list_reduce(list_prepend([${f} & 1, ${f}], ${levels}), (sr, se) -> ${step})[2]`;
  const id = `((CAST(${bits} AS UBIGINT) * 2 + 1) << (60 - 2 * ${l}))`;
  return `rtrim(lower(lpad(hex(${id}), 16, '0')), '0')`;
}

/**
 * The cell of an S2 token as {f, i, j, l} (i, j in [0, 2^l)), null when the text is not 1 to 16
 * hex digits naming a valid cell: a face below 6 and a lowest 1 bit at an even position up to 60.
 */
export function s2Cell(token: string): string {
  const padded = `rpad(${token}, 16, '0')`;
  const digit = (ch: string): string => `(strpos('0123456789abcdef', lower(${ch})) - 1)`;
  // Trailing zero bits: 4 per trailing '0' digit, and those of the last other digit.
  const tz = `(4 * (16 - length(rtrim(st, '0'))) + [0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0][${digit("right(rtrim(st, '0'), 1)")}])`;
  const face = `(${digit('left(st, 1)')} >> 1)`;
  const id = `CAST('0x' || st AS UBIGINT)`;
  const pos = `CAST((sv.id >> (61 - 2 * se[1])) & 3 AS BIGINT)`;
  const step = `[xor(sr[1], ${POS_TO_ORIENTATION}[${pos} + 1]), sr[2] * 2 + (${POS_TO_IJ}[sr[1] * 4 + ${pos} + 1] >> 1), sr[3] * 2 + (${POS_TO_IJ}[sr[1] * 4 + ${pos} + 1] & 1)]`;
  const levels = `list_transform(range(1, sv.l + 1), sk -> [sk, 0, 0])`;
  const walk = `list_reduce(list_prepend([sv.f & 1, 0, 0], ${levels}), (sr, se) -> ${step})`;
  const cell = bindAs(walk, 'sw', `{'f': sv.f, 'i': sw[2], 'j': sw[3], 'l': sv.l}`);
  const parsed = `{'id': ${id}, 'f': CAST(${face} AS BIGINT), 'l': CAST(${MAX_LEVEL} - ${tz} // 2 AS BIGINT), 'tz': ${tz}}`;
  const valid = `sv.f < 6 AND sv.tz % 2 = 0 AND sv.tz <= 60`;
  const body = bindAs(parsed, 'sv', `CASE WHEN ${valid} THEN ${cell} END`);
  return `CASE WHEN regexp_full_match(${token}, '[0-9a-fA-F]{1,16}') AND rtrim(${token}, '0') <> '' THEN ${bindAs(padded, 'st', body)} END`;
}

/** S2's quadratic projection from s (a plain reference) to u. */
const stToUV = (s: string): string =>
  `CASE WHEN ${s} >= 0.5 THEN (1::DOUBLE / 3) * (4 * ${s} * ${s} - 1) ELSE (1::DOUBLE / 3) * (1 - 4 * (1 - ${s}) * (1 - ${s})) END`;

/** Its inverse, from u (a plain reference) to s. */
const uvToST = (u: string): string =>
  `CASE WHEN ${u} >= 0 THEN 0.5 * sqrt(1 + 3 * ${u}) ELSE 1 - 0.5 * sqrt(1 - 3 * ${u}) END`;

/** The point {x, y, z} of (u, v) on face f (all plain references). */
function faceUVtoXYZ(f: string, u: string, v: string): string {
  const x = `CASE ${f} WHEN 0 THEN 1 WHEN 1 THEN -${u} WHEN 2 THEN -${u} WHEN 3 THEN -1 ELSE ${v} END`;
  const y = `CASE ${f} WHEN 0 THEN ${u} WHEN 1 THEN 1 WHEN 2 THEN -${v} WHEN 3 THEN -${v} WHEN 4 THEN -1 ELSE ${u} END`;
  const z = `CASE ${f} WHEN 0 THEN ${v} WHEN 1 THEN ${v} WHEN 2 THEN 1 WHEN 3 THEN -${u} WHEN 4 THEN -${u} ELSE -1 END`;
  return `{'x': CAST(${x} AS DOUBLE), 'y': CAST(${y} AS DOUBLE), 'z': CAST(${z} AS DOUBLE)}`;
}

/** The face and (u, v) of the point p ({x, y, z}, a lambda parameter): {f, u, v}. */
function xyzToFaceUV(p: string): string {
  const [ax, ay, az] = [`abs(${p}.x)`, `abs(${p}.y)`, `abs(${p}.z)`];
  const axis = `CASE WHEN ${ax} > ${ay} THEN CASE WHEN ${ax} > ${az} THEN 0 ELSE 2 END ELSE CASE WHEN ${ay} > ${az} THEN 1 ELSE 2 END END`;
  const face = `sa + CASE WHEN (CASE sa WHEN 0 THEN ${p}.x WHEN 1 THEN ${p}.y ELSE ${p}.z END) < 0 THEN 3 ELSE 0 END`;
  const { x, y, z } = { x: `${p}.x`, y: `${p}.y`, z: `${p}.z` };
  const u = `CASE sf WHEN 0 THEN ${y} / ${x} WHEN 1 THEN -${x} / ${y} WHEN 2 THEN -${x} / ${z} WHEN 3 THEN ${z} / ${x} WHEN 4 THEN ${z} / ${y} ELSE -${y} / ${z} END`;
  const v = `CASE sf WHEN 0 THEN ${z} / ${x} WHEN 1 THEN ${z} / ${y} WHEN 2 THEN -${y} / ${z} WHEN 3 THEN ${y} / ${x} WHEN 4 THEN -${x} / ${y} ELSE -${x} / ${z} END`;
  return bindAs(bindAs(axis, 'sa', face), 'sf', `{'f': sf, 'u': ${u}, 'v': ${v}}`);
}

/** A leaf coordinate of s (a plain reference): floor(2^30 · s) kept inside the face. */
const stToLeaf = (s: string): string => `least(greatest(CAST(floor(${LEAVES} * ${s}) AS BIGINT), 0), ${LEAVES - 1})`;

/** The level-l token of the point (lng, lat) in degrees (plain references). */
export function s2TokenOfPoint(lng: string, lat: string, l: string): string {
  const phi = `(${lat} * (pi() / 180))`;
  const theta = `(${lng} * (pi() / 180))`;
  const xyz = `{'x': cos(${theta}) * cos(${phi}), 'y': sin(${theta}) * cos(${phi}), 'z': sin(${phi})}`;
  const leaf = `{'f': CAST(sq.f AS BIGINT), 'i': ${stToLeaf(`(${uvToST('sq.u')})`)}, 'j': ${stToLeaf(`(${uvToST('sq.v')})`)}}`;
  const token = s2Token('sl.f', `(sl.i >> (${MAX_LEVEL} - ${l}))`, `(sl.j >> (${MAX_LEVEL} - ${l}))`, l);
  return bindAs(bindAs(bindAs(xyz, 'sx', xyzToFaceUV('sx')), 'sq', leaf), 'sl', token);
}

/** Longitude and latitude in degrees of the point p ({x, y, z}, a lambda parameter), as a [lng, lat] list. */
const lngLat = (p: string): string =>
  `[atan2(${p}.y, ${p}.x) * ${DEGREES}, atan2(${p}.z, sqrt(${p}.x * ${p}.x + ${p}.y * ${p}.y)) * ${DEGREES}]`;

/**
 * Longitude and latitude of the point p ({x, y, z}, a lambda parameter) once normalized as S2 does
 * (multiplied by the reciprocal of its norm): S2Cell's center and vertices are unit vectors.
 */
function unitLngLat(p: string): string {
  const unit = `list_transform([1 / sqrt(${p}.x * ${p}.x + ${p}.y * ${p}.y + ${p}.z * ${p}.z)], sm -> {'x': ${p}.x * sm, 'y': ${p}.y * sm, 'z': ${p}.z * sm})[1]`;
  return bindAs(unit, 'sn', lngLat('sn'));
}

/** The center of the cell c ({f, i, j, l}, a lambda parameter) as [lng, lat]. */
export function s2Center(c: string): string {
  const st = (k: string): string => `(CAST(2 * ${c}.${k} + 1 AS DOUBLE) / CAST(1::BIGINT << (${c}.l + 1) AS DOUBLE))`;
  const uv = `{'u': ${bindAs(st('i'), 'ss', stToUV('ss'))}, 'v': ${bindAs(st('j'), 'ss', stToUV('ss'))}}`;
  return bindAs(bindAs(uv, 'su', faceUVtoXYZ(`${c}.f`, 'su.u', 'su.v')), 'sp', unitLngLat('sp'));
}

/** The closed ring of the cell c's vertices as [[lng, lat], ...]: S2's counter-clockwise order from (u0, v0). */
export function s2Ring(c: string): string {
  const bound = (k: string, plus: number): string =>
    bindAs(`(CAST(${c}.${k} + ${plus} AS DOUBLE) / CAST(1::BIGINT << ${c}.l AS DOUBLE))`, 'ss', stToUV('ss'));
  const uv = `{'u0': ${bound('i', 0)}, 'u1': ${bound('i', 1)}, 'v0': ${bound('j', 0)}, 'v1': ${bound('j', 1)}}`;
  const vertex = (u: string, v: string): string => bindAs(faceUVtoXYZ(`${c}.f`, u, v), 'sp', unitLngLat('sp'));
  const corners = `[${vertex('sb.u0', 'sb.v0')}, ${vertex('sb.u1', 'sb.v0')}, ${vertex('sb.u1', 'sb.v1')}, ${vertex('sb.u0', 'sb.v1')}]`;
  return bindAs(bindAs(uv, 'sb', corners), 'sv4', 'list_append(sv4, sv4[1])');
}

/** The leaf (face, i, j) of a leaf coordinate pair just off face f, wrapped onto the face it lies on (S2's FromFaceIJWrap). */
function wrapLeaf(f: string, i: string, j: string): string {
  const limit = `(1 + 2.220446049250313e-16)`;
  const linear = (k: string): string =>
    `greatest(-${limit}, least(${limit}, CAST(2 * (greatest(-1, least(${LEAVES}, ${k})) - ${LEAVES / 2}) + 1 AS DOUBLE) / ${LEAVES}))`;
  const xyz = bindAs(`{'u': ${linear(i)}, 'v': ${linear(j)}}`, 'su', faceUVtoXYZ(f, 'su.u', 'su.v'));
  const leaf = `{'f': CAST(sq.f AS BIGINT), 'i': ${stToLeaf('(0.5 * (sq.u + 1))')}, 'j': ${stToLeaf('(0.5 * (sq.v + 1))')}}`;
  return bindAs(bindAs(xyz, 'sx', xyzToFaceUV('sx')), 'sq', leaf);
}

/** S2's order of the eight neighbors (S2CellId::AppendAllNeighbors): the row below, the middle row, the row above. */
export const S2_NEIGHBOR_OFFSETS: readonly (readonly [number, number])[] = [
  [-1, -1],
  [1, -1],
  [0, -1],
  [0, 1],
  [-1, 0],
  [1, 0],
  [-1, 1],
  [1, 1],
];

/** The tokens of the cells around c ({f, i, j, l}, a lambda parameter), each once, as a SQL list. */
export function s2Neighbors(c: string): string {
  const size = `(1::BIGINT << (${MAX_LEVEL} - ${c}.l))`;
  const offsets = `[${S2_NEIGHBOR_OFFSETS.map(([di, dj]) => `[${di}, ${dj}]`).join(', ')}]`;
  const leafOf = `{'i': (${c}.i << (${MAX_LEVEL} - ${c}.l)) + so[1] * ${size}, 'j': (${c}.j << (${MAX_LEVEL} - ${c}.l)) + so[2] * ${size}}`;
  const same = `{'f': ${c}.f, 'i': sn.i, 'j': sn.j}`;
  const inside = `sn.i >= 0 AND sn.i < ${LEAVES} AND sn.j >= 0 AND sn.j < ${LEAVES}`;
  const leaf = `CASE WHEN ${inside} THEN ${same} ELSE ${wrapLeaf(`${c}.f`, 'sn.i', 'sn.j')} END`;
  const token = s2Token('sw.f', `(sw.i >> (${MAX_LEVEL} - ${c}.l))`, `(sw.j >> (${MAX_LEVEL} - ${c}.l))`, `${c}.l`);
  const all = `list_transform(${offsets}, so -> ${bindAs(bindAs(leafOf, 'sn', leaf), 'sw', token)})`;
  // At a cube corner two offsets can wrap into the same cell: each is listed once.
  return bindAs(
    all,
    'sa8',
    `list_transform(list_filter(range(1, len(sa8) + 1), sk -> NOT list_contains(sa8[1:sk - 1], sa8[sk])), sk -> sa8[sk])`,
  );
}
