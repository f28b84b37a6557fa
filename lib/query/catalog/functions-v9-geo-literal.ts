// geo_point_in_polygon, geo_distance_point_to_polygon and geo_distance_point_to_line over a literal
// geometry (the pages' and most queries' form: `where geo_point_in_polygon(lng, lat, dynamic({...}))`),
// written out edge by edge with the geometry's vectors computed here, once. The general SQL walks
// the GeoJSON with list lambdas on every row (parsing, validating, converting each vertex again),
// which cost DuckDB 20-60 µs a row for four vertices; written out, a row costs a few arithmetic
// operations per edge. The vectors may differ from the general path's in their last bit (V8's sin
// and cos against the C library's): a containment answer can differ only for a point on an edge,
// where the pages leave containment to S2's conventions, and a distance in its 16th digit (the
// pages' printed 15 digits still come out). Anything but a clean, valid geometry of at most
// MAX_EDGES edges returns undefined and takes the general path (null for invalid input included).
import type { IrExpr } from '../ir';
import { RAD } from './functions-v9-geo-points';
import { constantOf } from './types';

/** Keeps the written-out SQL under ~45 KB (the query's SQL is limited to 128 KB). */
const MAX_EDGES = 128;
/** A distance's edge is longer to write out. */
const MAX_DISTANCE_EDGES = 48;

type Vec = readonly [number, number, number];
type Ring = readonly Vec[];

const isPosition = (p: unknown): p is [number, number] =>
  Array.isArray(p) &&
  p.length === 2 &&
  typeof p[0] === 'number' &&
  typeof p[1] === 'number' &&
  p[0] >= -180 &&
  p[0] <= 180 &&
  p[1] >= -90 &&
  p[1] <= 90;

/** S2LatLng::ToPoint. */
function unitOf([lng, lat]: [number, number]): Vec {
  const cosLat = Math.cos(lat * RAD);
  return [Math.cos(lng * RAD) * cosLat, Math.sin(lng * RAD) * cosLat, Math.sin(lat * RAD)];
}

/** A ring's vectors without the closing position, or undefined when it breaks the pages' rules. */
function ringOf(r: unknown): Ring | undefined {
  if (!Array.isArray(r) || r.length < 4 || !r.every(isPosition)) return undefined;
  const ps = r as [number, number][];
  const [first, last] = [ps[0]!, ps[ps.length - 1]!];
  if (first[0] !== last[0] || first[1] !== last[1]) return undefined;
  for (let i = 1; i < ps.length; i++) if (ps[i]![0] === ps[i - 1]![0] && ps[i]![1] === ps[i - 1]![1]) return undefined;
  return ps.slice(0, -1).map(unitOf);
}

/** A literal dynamic argument's type and coordinates, when it is a JSON object. */
function geoJson(arg: IrExpr | undefined): { type?: unknown; coordinates?: unknown } | undefined {
  if (arg?.kind !== 'lit' || arg.type !== 'dynamic') return undefined;
  let g: unknown;
  try {
    g = JSON.parse(String(constantOf(arg)));
  } catch {
    return undefined;
  }
  return typeof g === 'object' && g !== null && !Array.isArray(g)
    ? (g as { type?: unknown; coordinates?: unknown })
    : undefined;
}

/** A literal (Multi)LineString's edges as [a, b] vectors, or undefined (see the header). */
function lineEdgesOf(arg: IrExpr | undefined): [Vec, Vec][] | undefined {
  const g = geoJson(arg);
  const lines = g?.type === 'LineString' ? [g.coordinates] : g?.type === 'MultiLineString' ? g.coordinates : undefined;
  if (!Array.isArray(lines) || lines.length === 0) return undefined;
  const edges: [Vec, Vec][] = [];
  for (const line of lines) {
    if (!Array.isArray(line) || line.length < 2 || !line.every(isPosition)) return undefined;
    const vs = (line as [number, number][]).map(unitOf);
    for (let i = 1; i < vs.length; i++) edges.push([vs[i - 1]!, vs[i]!]);
  }
  return edges.length <= MAX_DISTANCE_EDGES ? edges : undefined;
}

/** The literal's polygons of rings, or undefined (see the header). */
function polygonsOf(arg: IrExpr | undefined, maxEdges = MAX_EDGES): Ring[][] | undefined {
  const g = geoJson(arg);
  if (g === undefined) return undefined;
  const { type, coordinates } = g;
  const polys = type === 'Polygon' ? [coordinates] : type === 'MultiPolygon' ? coordinates : undefined;
  if (!Array.isArray(polys) || polys.length === 0) return undefined;
  const out: Ring[][] = [];
  let edges = 0;
  for (const poly of polys) {
    if (!Array.isArray(poly) || poly.length === 0) return undefined;
    const rings = poly.map(ringOf);
    if (rings.some((r) => r === undefined)) return undefined;
    edges += rings.reduce((n, r) => n + r!.length, 0);
    out.push(rings as Ring[]);
  }
  return edges <= maxEdges ? out : undefined;
}

const cross = (a: Vec, b: Vec): Vec => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const num = (x: number): string => (Number.isInteger(x) ? `${x}E0` : String(x).replace('e', 'E'));
/** v·gP as SQL, gP the point's vector. */
const dotP = (v: Vec): string => `(${num(v[0])} * gP[1] + ${num(v[1])} * gP[2] + ${num(v[2])} * gP[3])`;

/** The ring's orientation: the sign of its area (a fan of Oosterom and Strackee triangles), normalized to (-2π, 2π]. */
function orientation(ring: Ring): number {
  let area = 0;
  for (let i = 1; i + 1 < ring.length; i++) {
    const [a, b, c] = [ring[0]!, ring[i]!, ring[i + 1]!];
    area += 2 * Math.atan2(dot(a, cross(b, c)), 1 + dot(a, b) + dot(b, c) + dot(c, a));
  }
  return Math.sign(area - 4 * Math.PI * Math.round(area / (4 * Math.PI)));
}

/** gP lies in the ring's smaller region: its edges' angles around gP sum to ±2π with the ring's orientation. */
function inRing(ring: Ring): string {
  const sign = orientation(ring);
  if (sign === 0) return 'FALSE';
  const angles = ring.map((a, i) => {
    const b = ring[(i + 1) % ring.length]!;
    return `atan2(${dotP(cross(a, b))}, ${num(dot(a, b))} - ${dotP(a)} * ${dotP(b)})`;
  });
  return `(${angles.join(' + ')}) ${sign > 0 ? '>' : '<'} ${sign > 0 ? '' : '-'}3.141592653589793E0`;
}

/** SQL of "the literal polygon contains gP", or undefined for the general path. */
export function literalContains(arg: IrExpr | undefined, maxEdges = MAX_EDGES): string | undefined {
  const polys = polygonsOf(arg, maxEdges);
  if (!polys) return undefined;
  const each = polys.map(([shell, ...holes]) =>
    holes.length === 0 ? `(${inRing(shell!)})` : `(${inRing(shell!)} AND NOT (${holes.map(inRing).join(' OR ')}))`,
  );
  return `(${each.join(' OR ')})`;
}

const minus = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const plus = (a: Vec, b: Vec): Vec => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];

/** |gP - v|² as SQL. */
const chordTo = (v: Vec): string =>
  `((gP[1] - ${num(v[0])}) * (gP[1] - ${num(v[0])}) + (gP[2] - ${num(v[1])}) * (gP[2] - ${num(v[1])}) + ` +
  `(gP[3] - ${num(v[2])}) * (gP[3] - ${num(v[2])}))`;

/** The squared chord from gP to edge ab, as functions-v9-geo-sphere.ts edgeChord2 computes it. */
function edgeChord2(a: Vec, b: Vec): string {
  const n = cross(minus(a, b), plus(a, b));
  const ends = `least(4E0, ${chordTo(a)}, ${chordTo(b)})`;
  const nn = dot(n, n);
  if (nn === 0) return ends;
  const sin2 = `(${dotP(n)} * ${dotP(n)} / ${num(nn)})`;
  const interior = `2E0 * ${sin2} / (1E0 + sqrt(greatest(0E0, 1E0 - ${sin2})))`;
  return `CASE WHEN ${dotP(cross(n, a))} > 0 AND ${dotP(cross(b, n))} > 0 THEN least(${ends}, ${interior}) ELSE ${ends} END`;
}

/** SQL of the smallest squared chord from gP to a literal (Multi)LineString, or undefined for the general path. */
export function literalLineChord2(arg: IrExpr | undefined): string | undefined {
  const edges = lineEdgesOf(arg);
  if (!edges) return undefined;
  return edges.length === 1 ? edgeChord2(...edges[0]!) : `least(${edges.map(([a, b]) => edgeChord2(a, b)).join(', ')})`;
}

/** SQL of [contains, smallest squared chord to an edge] for a literal (Multi)Polygon and gP, or undefined. */
export function literalPolygonDistance(arg: IrExpr | undefined): { contains: string; chord2: string } | undefined {
  const contains = literalContains(arg, MAX_DISTANCE_EDGES);
  const polys = polygonsOf(arg, MAX_DISTANCE_EDGES);
  if (contains === undefined || polys === undefined) return undefined;
  const chords = polys.flat().flatMap((ring) => ring.map((a, i) => edgeChord2(a, ring[(i + 1) % ring.length]!)));
  return { contains, chord2: chords.length === 1 ? chords[0]! : `least(${chords.join(', ')})` };
}
