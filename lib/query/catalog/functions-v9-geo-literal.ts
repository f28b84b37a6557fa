// geo_point_in_polygon over a literal polygon (the pages' and most queries' form: `where
// geo_point_in_polygon(lng, lat, dynamic({...}))`), written out edge by edge with the polygon's
// vectors computed here, once. The general SQL walks the GeoJSON with list lambdas on every row
// (parsing, validating, converting each vertex again), which cost DuckDB ~60 µs a row for four
// vertices; written out, a row costs a few arithmetic operations per edge. The answer is a boolean
// whose inputs differ from the general path's at most in a vector's last bit (V8's sin and cos
// against the C library's), which can only matter for a point on an edge, where the pages leave
// containment to S2's conventions anyway. Anything but a clean, valid polygon of at most
// MAX_EDGES edges returns undefined and takes the general path (null for invalid input included).
import type { IrExpr } from '../ir';
import { RAD } from './functions-v9-geo-points';
import { constantOf } from './types';

/** Keeps the written-out SQL under ~45 KB (the query's SQL is limited to 128 KB). */
const MAX_EDGES = 128;

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

/** A ring's vectors without the closing position, or undefined when it breaks the pages' rules. */
function ringOf(r: unknown): Ring | undefined {
  if (!Array.isArray(r) || r.length < 4 || !r.every(isPosition)) return undefined;
  const ps = r as [number, number][];
  const [first, last] = [ps[0]!, ps[ps.length - 1]!];
  if (first[0] !== last[0] || first[1] !== last[1]) return undefined;
  for (let i = 1; i < ps.length; i++) if (ps[i]![0] === ps[i - 1]![0] && ps[i]![1] === ps[i - 1]![1]) return undefined;
  return ps.slice(0, -1).map(([lng, lat]) => {
    const cosLat = Math.cos(lat * RAD);
    return [Math.cos(lng * RAD) * cosLat, Math.sin(lng * RAD) * cosLat, Math.sin(lat * RAD)] as const;
  });
}

/** The literal's polygons of rings, or undefined (see the header). */
function polygonsOf(arg: IrExpr | undefined): Ring[][] | undefined {
  if (arg?.kind !== 'lit' || arg.type !== 'dynamic') return undefined;
  let g: unknown;
  try {
    g = JSON.parse(String(constantOf(arg)));
  } catch {
    return undefined;
  }
  if (typeof g !== 'object' || g === null) return undefined;
  const { type, coordinates } = g as { type?: unknown; coordinates?: unknown };
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
  return edges <= MAX_EDGES ? out : undefined;
}

const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
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
export function literalContains(arg: IrExpr | undefined): string | undefined {
  const polys = polygonsOf(arg);
  if (!polys) return undefined;
  const each = polys.map(([shell, ...holes]) =>
    holes.length === 0 ? `(${inRing(shell!)})` : `(${inRing(shell!)} AND NOT (${holes.map(inRing).join(' OR ')}))`,
  );
  return `(${each.join(' OR ')})`;
}
