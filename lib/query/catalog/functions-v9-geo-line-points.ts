// geo_line_interpolate_point and geo_line_locate_point (their Kusto documentation pages): a point at
// a fraction of a LineString's length and back, as S2Polyline's Interpolate (GetSuffix:
// the target length counted down edge by edge, then S2::InterpolateAtDistance on the edge it falls
// in) and UnInterpolate(Project(point)) compute them. A single LineString only, as the pages say; a
// MultiLineString or a fraction outside [0, 1] gives null. DuckDB only (list lambdas).
import { constantOf, type ArgumentCheck, type ScalarFunction, type SqlBuilder } from './types';
import { lineVectors, validLines } from './functions-v9-geo-json';
import { geoJsonPoint, overLines, overPoint } from './functions-v9-geo-lines';
import { angle, bind, cross, dot, edgeChord2, minus, plus, scale, toLngLat, triple } from './functions-v9-geo-sphere';

/** A LineString (only) as a list of positions, bound to gL; null for any other type. */
const overLine = (g: string, body: string): string =>
  bind(
    `CASE json_extract_string(${g}, '$.type') WHEN 'LineString' THEN [TRY_CAST(json_extract(${g}, '$.coordinates') AS DOUBLE[][])] END`,
    'gL',
    `CASE WHEN ${validLines('gL')} THEN ${bind(`${lineVectors('gL')}[1]`, 'gv', body)} END`,
  );

/** The edges' angles of line gv, bound to gd. */
const withLengths = (body: string): string =>
  bind(`list_transform(range(1, len(gv)), gi -> ${angle('gv[gi]', 'gv[gi + 1]')})`, 'gd', body);

/** a·cos(t) + tangent·sin(t)/|tangent|, normalized: the point at angle t from a toward b (S2::InterpolateAtDistance). */
const atDistance = (a: string, b: string, t: string): string =>
  bind(
    cross(cross(plus(b, a), minus(b, a)), a),
    'gT',
    bind(
      `[cos(${t}) * ${a}[1] + sin(${t}) / sqrt(${dot('gT', 'gT')}) * gT[1], cos(${t}) * ${a}[2] + sin(${t}) / sqrt(${dot('gT', 'gT')}) * gT[2], ` +
        `cos(${t}) * ${a}[3] + sin(${t}) / sqrt(${dot('gT', 'gT')}) * gT[3]]`,
      'gR',
      scale(`1E0 / sqrt(${dot('gR', 'gR')})`, 'gR'),
    ),
  );

/**
 * [remaining length, edge] after counting the target down edge by edge (S2's `target -= length`
 * order); edge 0 when the target lies beyond the last edge.
 */
const findEdge = (target: string): string =>
  `list_reduce(list_transform(range(1, len(gv)), gi -> [gi, gd[gi]]), (gs, gt) -> CASE WHEN gs[2] > 0 THEN gs ` +
  `WHEN gs[1] < gt[2] THEN [gs[1], gt[1]] ELSE [gs[1] - gt[2], 0E0] END, [${target}, 0E0])`;

const interpolate: SqlBuilder = ({ a }) =>
  `CASE WHEN ${a[1]} >= 0 AND ${a[1]} <= 1 THEN ${overLine(
    a[0]!,
    withLengths(
      `CASE WHEN ${a[1]} <= 0 THEN ${geoJsonPoint(toLngLat('gv[1]'))} ELSE ${bind(
        findEdge(`CAST(${a[1]} AS DOUBLE) * list_sum(gd)`),
        'ge',
        `CASE WHEN ge[2] = 0 THEN ${geoJsonPoint(toLngLat('gv[-1]'))} ELSE ${bind(
          'CAST(ge[2] AS BIGINT)',
          'gk',
          geoJsonPoint(toLngLat(atDistance('gv[gk]', 'gv[gk + 1]', 'ge[1]'))),
        )} END`,
      )} END`,
    ),
  )} END`;

/** S2::Project of gP onto edge ab: the great circle's closest point when it falls inside the edge, else the nearer end. */
const project = (a: string, b: string): string =>
  bind(
    cross(plus(b, a), minus(b, a)),
    'gc',
    bind(
      `[gP[1] - ${dot('gP', 'gc')} / ${dot('gc', 'gc')} * gc[1], gP[2] - ${dot('gP', 'gc')} / ${dot('gc', 'gc')} * gc[2], ` +
        `gP[3] - ${dot('gP', 'gc')} / ${dot('gc', 'gc')} * gc[3]]`,
      'gp',
      `CASE WHEN ${triple('gp', 'gc', a)} > 0 AND ${triple('gc', 'gp', b)} > 0 THEN ${scale(`1E0 / sqrt(${dot('gp', 'gp')})`, 'gp')} ` +
        `WHEN ${dot(minus('gP', a), minus('gP', a))} <= ${dot(minus('gP', b), minus('gP', b))} THEN ${a} ELSE ${b} END`,
    ),
  );

/** The fraction of the line's length up to gP's closest point (S2Polyline::UnInterpolate; at most 1). */
const locateBody = withLengths(
  bind(
    bind(
      `list_transform(range(1, len(gv)), gi -> ${edgeChord2('gP', 'gv[gi]', 'gv[gi + 1]')})`,
      'gm',
      'list_position(gm, list_min(gm))',
    ),
    'gk',
    bind(
      project('gv[gk]', 'gv[gk + 1]'),
      'gq',
      bind(
        `gk + CASE WHEN gq = gv[gk + 1] THEN 1 ELSE 0 END`,
        'gn',
        `least(1E0, (coalesce(list_sum(gd[1:gn - 1]), 0E0) + ${angle('gv[gn]', 'gq')}) / list_sum(gd))`,
      ),
    ),
  ),
);

const locate: SqlBuilder = ({ a }) => overPoint(a[1]!, a[2]!, overLine(a[0]!, locateBody));

/**
 * The point closest to gP on edges `edges` (a list of [vector a, vector b, position a, position b]):
 * S2::Project on the first nearest edge (S2Polyline::Project).
 */
export const nearestOnEdges = (edges: string): string =>
  bind(
    edges,
    'gE',
    bind(
      bind(`list_transform(gE, gx -> ${edgeChord2('gP', 'gx[1]', 'gx[2]')})`, 'gm', 'list_position(gm, list_min(gm))'),
      'gk',
      bind(
        project('gE[gk][1]', 'gE[gk][2]'),
        'gq',
        // A vertex is answered with its own coordinates, as the page prints (-115.192612, not ...200000001).
        geoJsonPoint(
          `CASE WHEN gq = gE[gk][1] THEN gE[gk][3] WHEN gq = gE[gk][2] THEN gE[gk][4] ELSE ${toLngLat('gq')} END`,
        ),
      ),
    ),
  );

const closest: SqlBuilder = ({ a }) =>
  overPoint(
    a[0]!,
    a[1]!,
    overLines(
      a[2]!,
      nearestOnEdges(
        `flatten(list_transform(range(1, len(gV) + 1), gj -> list_transform(range(1, len(gV[gj])), ` +
          `gi -> [gV[gj][gi], gV[gj][gi + 1], gL[gj][gi], gL[gj][gi + 1]])))`,
      ),
    ),
  );

/** use_spheroid = true measures on the WGS-84 ellipsoid, whose page prints no result to check it against. */
const sphereOnly: ArgumentCheck = (args) =>
  args[3] === undefined || constantOf(args[3]) === false
    ? undefined
    : [
        3,
        'use_spheroid must be the constant false: the WGS-84 spheroid is not supported (leave it out to use the sphere)',
      ];

const line = { name: 'lineString', type: 'dynamic' as const };

export const GEO_LINE_POINT_V9_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'geo_closest_point_on_line',
    family: 'geo',
    summary:
      'The point (GeoJSON) of a LineString or MultiLineString closest to a point (null when invalid; DuckDB only).',
    signatures: [
      {
        params: [{ name: 'longitude', type: 'number' }, { name: 'latitude', type: 'number' }, line],
        result: 'dynamic',
      },
    ],
    duckdb: closest,
    timestream: null,
  },
  {
    name: 'geo_line_interpolate_point',
    family: 'geo',
    summary: "The point (GeoJSON) at a fraction 0..1 of a LineString's length (null when invalid; DuckDB only).",
    signatures: [{ params: [line, { name: 'fraction', type: 'number' }], result: 'dynamic' }],
    duckdb: interpolate,
    timestream: null,
  },
  {
    name: 'geo_line_locate_point',
    family: 'geo',
    summary: "The fraction 0..1 of a LineString's length up to its point closest to a point (DuckDB only).",
    signatures: [
      {
        params: [
          line,
          { name: 'longitude', type: 'number' },
          { name: 'latitude', type: 'number' },
          { name: 'use_spheroid', type: 'bool', optional: true },
        ],
        result: 'real',
      },
    ],
    check: sphereOnly,
    duckdb: locate,
    timestream: null,
  },
];
