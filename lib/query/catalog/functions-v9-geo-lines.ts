// geo_line_length, geo_line_centroid and geo_distance_point_to_line (their Kusto documentation
// pages): GeoJSON LineString or MultiLineString, geodesic edges on S2's sphere. Lengths are S2's edge
// angles summed line by line; the centroid is S2Polyline's (the sum of S2::TrueCentroid of the edges);
// the distance S2's closest-edge chord. A MultiLineString is measured as the sum of its lines, which is
// the pages' "union" unless two lines run along the same stretch (then that stretch counts twice).
// DuckDB only: Timestream has no list lambdas to walk a line's vertices.
import { EARTH_RADIUS, validPoint } from './functions-v9-geo-points';
import { lineVectors, linesOf, validLines } from './functions-v9-geo-json';
import { literalLineChord2 } from './functions-v9-geo-literal';
import {
  angle,
  bind,
  chordToAngle,
  edgeCentroid,
  edgeChord2,
  toLngLat,
  unit,
  vectorSum,
} from './functions-v9-geo-sphere';
import type { ScalarFunction, SqlBuilder } from './types';

const R = `${EARTH_RADIUS}E0`;

/** body over the lines' unit vectors `gV` when the argument is a valid (Multi)LineString; else null. */
export const overLines = (g: string, body: string): string =>
  bind(linesOf(g), 'gL', `CASE WHEN ${validLines('gL')} THEN ${bind(lineVectors('gL'), 'gV', body)} END`);

/** One value per edge of every line, flattened. */
const perEdge = (edge: (a: string, b: string) => string): string =>
  `flatten(list_transform(gV, gv -> list_transform(range(1, len(gv)), gi -> ${edge('gv[gi]', 'gv[gi + 1]')})))`;

/** A point as a GeoJSON Point (dynamic). */
export const geoJsonPoint = (lngLat: string): string =>
  bind(lngLat, 'gj', `json_object('type', 'Point', 'coordinates', gj)`);

/** The point argument as a unit vector bound to gP, null when its coordinates are invalid. */
export const overPoint = (lng: string, lat: string, body: string): string =>
  `CASE WHEN ${validPoint(lng, lat)} THEN ${bind(unit(`[CAST(${lng} AS DOUBLE), CAST(${lat} AS DOUBLE)]`), 'gP', body)} END`;

const lineLength: SqlBuilder = ({ a }) =>
  overLines(
    a[0]!,
    `list_sum(list_transform(gV, gv -> list_sum(list_transform(range(1, len(gv)), gi -> ${angle('gv[gi]', 'gv[gi + 1]')})) * ${R}))`,
  );

const lineCentroid: SqlBuilder = ({ a }) => overLines(a[0]!, geoJsonPoint(toLngLat(vectorSum(perEdge(edgeCentroid)))));

/** A literal line is written out edge by edge (functions-v9-geo-literal.ts); anything else walks the GeoJSON per row. */
const distanceToLine: SqlBuilder = ({ a, args }) => {
  const literal = literalLineChord2(args[2]);
  return overPoint(
    a[0]!,
    a[1]!,
    literal !== undefined
      ? `${chordToAngle(literal)} * ${R}`
      : overLines(a[2]!, `${chordToAngle(`list_min(${perEdge((x, y) => edgeChord2('gP', x, y))})`)} * ${R}`),
  );
};

const line = { name: 'lineString', type: 'dynamic' as const };

export const GEO_LINE_V9_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'geo_line_length',
    family: 'geo',
    summary: 'The length in metres of a GeoJSON LineString or MultiLineString (null when invalid; DuckDB only).',
    signatures: [{ params: [line], result: 'real' }],
    duckdb: lineLength,
    timestream: null,
  },
  {
    name: 'geo_line_centroid',
    family: 'geo',
    summary: 'The centroid of a GeoJSON LineString or MultiLineString as a GeoJSON Point (DuckDB only).',
    signatures: [{ params: [line], result: 'dynamic' }],
    duckdb: lineCentroid,
    timestream: null,
  },
  {
    name: 'geo_distance_point_to_line',
    family: 'geo',
    summary: 'The shortest distance in metres from a point to a GeoJSON LineString or MultiLineString (DuckDB only).',
    signatures: [
      { params: [{ name: 'longitude', type: 'number' }, { name: 'latitude', type: 'number' }, line], result: 'real' },
    ],
    duckdb: distanceToLine,
    timestream: null,
  },
];
