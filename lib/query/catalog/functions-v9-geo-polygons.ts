// geo_point_in_polygon, geo_distance_point_to_polygon, geo_polygon_area, geo_polygon_perimeter and
// geo_polygon_centroid (their Kusto documentation pages): GeoJSON Polygon or MultiPolygon, geodesic
// edges on S2's sphere, each ring taken as the smaller of the two regions it bounds (the pages' rule;
// the ring's orientation is read from the sign of its area). Area, perimeter and centroid are S2's
// (a fan of triangles from the ring's first vertex: l'Huilier areas, TrueCentroids; edge angles).
// For a MultiPolygon of several polygons the pages measure their union, which in general needs
// polygon clipping this service does not do. Area and centroid are the parts' sum when the parts are
// disjoint (no edges cross, no vertex of one inside another; tested pairwise up to 512 edges); the
// area of two overlapping single-ring convex parts is their union's (functions-v9-geo-clip.ts, the
// area page's printed example); otherwise null, touching parts included, rather than a sum that
// would count an overlap twice; the
// perimeter (a shared stretch of boundary is not the union's) takes one polygon only. Containment
// and distance need no union and take any MultiPolygon.
// DuckDB only: Timestream has no list lambdas to walk a ring's vertices.
import { EARTH_RADIUS } from './functions-v9-geo-points';
import { convexUnionArea, counterclockwise } from './functions-v9-geo-clip';
import { polygonVectors, polygonsOf, validPolygons } from './functions-v9-geo-json';
import { geoJsonPoint, overPoint } from './functions-v9-geo-lines';
import { nearestOnEdges } from './functions-v9-geo-line-points';
import { literalContains, literalPolygonDistance } from './functions-v9-geo-literal';
import {
  angle,
  bind,
  chordToAngle,
  edgeChord2,
  edgesCross,
  scale,
  toLngLat,
  triangleArea,
  triangleCentroid,
  triangleExcess,
  vectorSum,
  windingAngle,
} from './functions-v9-geo-sphere';
import type { ScalarFunction, SqlBuilder } from './types';

const R = `${EARTH_RADIUS}E0`;
const FOUR_PI = '12.566370614359172E0';
const PI = '3.141592653589793E0';

/** body over the polygons' rings of unit vectors `gV` when the argument is a valid (Multi)Polygon; else null. */
const overPolygons = (g: string, body: string, parts: 'any' | 'one' | 'disjoint' = 'any'): string =>
  bind(
    polygonsOf(g),
    'gG',
    `CASE WHEN ${validPolygons('gG')}${parts === 'one' ? ' AND len(gG) = 1' : ''} THEN ` +
      bind(polygonVectors('gG'), 'gV', parts === 'disjoint' ? `CASE WHEN ${disjoint} THEN ${body} END` : body) +
      ' END',
  );

/** The fan of triangles (ring[1], ring[i], ring[i+1]) of ring `gv`, one value each. */
const fan = (triangle: (a: string, b: string, c: string) => string): string =>
  `list_transform(range(2, len(gv)), gi -> ${triangle('gv[1]', 'gv[gi]', 'gv[gi + 1]')})`;

/** Each closing edge too: ring `gv` has no closing vertex. */
const edges = (edge: (a: string, b: string) => string): string =>
  `list_transform(range(1, len(gv) + 1), gi -> ${edge('gv[gi]', 'gv[gi % len(gv) + 1]')})`;

/** A signed area in (-2π, 2π] (S2's remainder by 4π). */
const normalized = (area: string): string => bind(area, 'gu', `gu - ${FOUR_PI} * round(gu / ${FOUR_PI})`);

/** Ring gv's signed area: positive when it runs counterclockwise around the smaller region. */
const ringArea = normalized(`list_sum(${fan(triangleArea)})`);

/** Each ring of polygon gq with its role, shell +1 and holes -1. */
const rings = (value: (ring: string) => string): string =>
  `list_transform(range(1, len(gq) + 1), gk -> CASE WHEN gk = 1 THEN 1E0 ELSE -1E0 END * ${bind('gq[gk]', 'gv', value('gv'))})`;

/** Two single-ring parts that overlap, up to 512 edges (the tests are quadratic): the union of convex rings (functions-v9-geo-clip.ts), else null. */
const twoRingUnion = (): string =>
  `CASE WHEN len(gV) = 2 AND len(gV[1]) = 1 AND len(gV[2]) = 1 AND len(gV[1][1]) + len(gV[2][1]) <= ${MAX_DISJOINT_EDGES} THEN ` +
  bind(
    `list_transform([gV[1][1], gV[2][1]], gv -> ${counterclockwise('gv', orientation)})`,
    'gcR',
    convexUnionArea(`abs(${ringArea})`),
  ) +
  ' END';

const polygonArea: SqlBuilder = ({ a }) =>
  overPolygons(
    a[0]!,
    // Two convex single-ring parts take the union whether or not they overlap (A + B - A∩B holds for
    // disjoint, touching and identical rings alike): the disjoint test sees no crossing edge and no
    // vertex strictly inside in identical rings, or in rings whose vertices lie on the other's edges.
    `coalesce(${twoRingUnion()}, CASE WHEN ${disjoint} THEN list_sum(list_transform(gV, gq -> list_sum(${rings(() => `abs(${ringArea})`)}))) END) * ${R} * ${R}`,
  );

const perimeter: SqlBuilder = ({ a }) =>
  overPolygons(
    a[0]!,
    `list_sum(flatten(list_transform(gV, gq -> list_transform(gq, gv -> list_sum(${edges(angle)}))))) * ${R}`,
    'one',
  );

/** Ring gv's orientation, +1 counterclockwise around the smaller region, from its cheaper signed area. */
const orientation = `sign(${normalized(`list_sum(${fan(triangleExcess)})`)})`;

/** Ring gv's centroid (times its area), oriented around the smaller region. */
const ringCentroid = scale(orientation, vectorSum(fan(triangleCentroid)));

const polygonCentroid: SqlBuilder = ({ a }) =>
  overPolygons(
    a[0]!,
    geoJsonPoint(
      toLngLat(
        vectorSum(
          `flatten(list_transform(gV, gq -> list_transform(range(1, len(gq) + 1), gk -> ` +
            `${bind('gq[gk]', 'gv', scale('CASE WHEN gk = 1 THEN 1E0 ELSE -1E0 END', ringCentroid))})))`,
        ),
      ),
    ),
    'disjoint',
  );

/**
 * Point gP lies in the smaller region of ring gv: the edges' angles around it sum to ±2π with the
 * sign of the ring's orientation (the opposite sign means its antipode is inside).
 */
const inRing = bind(
  `[list_sum(${edges((x, y) => windingAngle('gP', x, y))}), list_sum(${fan(triangleExcess)})]`,
  'gw',
  `abs(gw[1]) > ${PI} AND sign(gw[1]) = sign(gw[2] - ${FOUR_PI} * round(gw[2] / ${FOUR_PI}))`,
);

/** Some polygon's shell holds gP and none of its holes does. */
const contains =
  `coalesce(list_bool_or(list_transform(gV, gq -> ${bind('gq[1]', 'gv', inRing)} AND ` +
  `NOT coalesce(list_bool_or(list_transform(gq[2:], gv -> ${inRing})), false))), false)`;

/** A literal polygon is written out edge by edge (functions-v9-geo-literal.ts); anything else walks the GeoJSON per row. */
/** Polygon `q` (rings of vectors) holds gP: its shell does and none of its holes. */
const polygonHolds = (q: string): string =>
  `${bind(`${q}[1]`, 'gv', inRing)} AND NOT coalesce(list_bool_or(list_transform(${q}[2:], gv -> ${inRing})), false)`;

/** Every edge of polygon `q` as [a, b]. */
const edgesOf = (q: string): string =>
  `flatten(list_transform(${q}, gv -> list_transform(range(1, len(gv) + 1), gk -> [gv[gk], gv[gk % len(gv) + 1]])))`;

/** Most edges for which the pairwise test below runs (it is quadratic; CASE, unlike AND, skips it above). */
const MAX_DISJOINT_EDGES = 512;

/**
 * The parts of gV are pairwise disjoint (their union's measure is the sum of theirs): no edges
 * cross and no vertex of one lies inside another (an island in another's hole is disjoint).
 */
const disjoint =
  `(len(gV) = 1 OR CASE WHEN list_sum(list_transform(gV, gq -> list_sum(list_transform(gq, gv -> len(gv))))) <= ${MAX_DISJOINT_EDGES} ` +
  `THEN NOT coalesce(list_bool_or(flatten(list_transform(range(1, len(gV) + 1), gA -> list_transform(range(gA + 1, len(gV) + 1), gB -> ` +
  `coalesce(list_bool_or(flatten(list_transform(${edgesOf('gV[gA]')}, ge -> list_transform(${edgesOf('gV[gB]')}, gf -> ` +
  `${edgesCross('ge[1]', 'ge[2]', 'gf[1]', 'gf[2]')})))), false) ` +
  `OR coalesce(list_bool_or(list_transform(flatten(gV[gA]), gX -> ${bind('gX', 'gP', polygonHolds('gV[gB]'))})), false) ` +
  `OR coalesce(list_bool_or(list_transform(flatten(gV[gB]), gX -> ${bind('gX', 'gP', polygonHolds('gV[gA]'))})), false))))), false) ELSE false END)`;

const pointInPolygon: SqlBuilder = ({ a, args }) =>
  overPoint(a[0]!, a[1]!, literalContains(args[2]) ?? overPolygons(a[2]!, contains));

const distanceToPolygon: SqlBuilder = ({ a, args }) => {
  const literal = literalPolygonDistance(args[2]);
  if (literal) {
    return overPoint(
      a[0]!,
      a[1]!,
      `CASE WHEN ${literal.contains} THEN 0E0 ELSE ${chordToAngle(literal.chord2)} * ${R} END`,
    );
  }
  const nearest = `list_min(flatten(flatten(list_transform(gV, gq -> list_transform(gq, gv -> ${edges((x, y) => edgeChord2('gP', x, y))})))))`;
  return overPoint(
    a[0]!,
    a[1]!,
    overPolygons(a[2]!, `CASE WHEN ${contains} THEN 0E0 ELSE ${chordToAngle(nearest)} * ${R} END`),
  );
};

/** The page: the point itself when the polygon contains it, else the nearest point of its rings' edges. */
const closestOnPolygon: SqlBuilder = ({ a }) => {
  const ring = 'gV[gj][gk]';
  const edges =
    `flatten(flatten(list_transform(range(1, len(gV) + 1), gj -> list_transform(range(1, len(gV[gj]) + 1), gk -> ` +
    `list_transform(range(1, len(${ring}) + 1), gi -> [${ring}[gi], ${ring}[gi % len(${ring}) + 1], gG[gj][gk][gi], gG[gj][gk][gi + 1]])))))`;
  const itself = geoJsonPoint(`[CAST(${a[0]} AS DOUBLE), CAST(${a[1]} AS DOUBLE)]`);
  return overPoint(
    a[0]!,
    a[1]!,
    overPolygons(a[2]!, `CASE WHEN ${contains} THEN ${itself} ELSE ${nearestOnEdges(edges)} END`),
  );
};

const polygon = { name: 'polygon', type: 'dynamic' as const };
const point = [
  { name: 'longitude', type: 'number' as const },
  { name: 'latitude', type: 'number' as const },
];
const DISJOINT =
  "a MultiPolygon's parts are summed when disjoint, else null: the union of overlapping parts is not computed";
const ONE = 'a MultiPolygon of several polygons gives null: the union of polygons is not computed';

export const GEO_POLYGON_V9_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'geo_point_in_polygon',
    family: 'geo',
    summary:
      'Whether a point lies in a GeoJSON Polygon or MultiPolygon on the sphere (null when invalid; DuckDB only).',
    signatures: [{ params: [...point, polygon], result: 'bool' }],
    duckdb: pointInPolygon,
    timestream: null,
  },
  {
    name: 'geo_distance_point_to_polygon',
    family: 'geo',
    summary:
      'The shortest distance in metres from a point to a GeoJSON Polygon or MultiPolygon, 0 inside (DuckDB only).',
    signatures: [{ params: [...point, polygon], result: 'real' }],
    duckdb: distanceToPolygon,
    timestream: null,
  },
  {
    name: 'geo_closest_point_on_polygon',
    family: 'geo',
    summary:
      'The point (GeoJSON) of a Polygon or MultiPolygon closest to a point, the point itself inside (DuckDB only).',
    signatures: [{ params: [...point, polygon], result: 'dynamic' }],
    duckdb: closestOnPolygon,
    timestream: null,
  },
  {
    name: 'geo_polygon_area',
    family: 'geo',
    summary:
      "The area in square metres of a GeoJSON Polygon or MultiPolygon (two convex single-ring parts give their union's area; other parts are summed when disjoint; other overlaps null: no general polygon union is computed; DuckDB only).",
    signatures: [{ params: [polygon], result: 'real' }],
    duckdb: polygonArea,
    timestream: null,
  },
  {
    name: 'geo_polygon_perimeter',
    family: 'geo',
    summary: `The length in metres of a GeoJSON Polygon's boundary (${ONE}; DuckDB only).`,
    signatures: [{ params: [polygon], result: 'real' }],
    duckdb: perimeter,
    timestream: null,
  },
  {
    name: 'geo_polygon_centroid',
    family: 'geo',
    summary: `The centroid of a GeoJSON Polygon or MultiPolygon as a GeoJSON Point (${DISJOINT}; DuckDB only).`,
    signatures: [{ params: [polygon], result: 'dynamic' }],
    duckdb: polygonCentroid,
    timestream: null,
  },
];
