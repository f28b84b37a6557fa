// geo_distance_2points, geo_point_in_circle, geo_azimuth and geo_angle (their Kusto documentation
// pages). Kusto measures on a sphere of radius 6,371,010 m (S2's Earth radius: the only radius that
// gives the pages' printed 1546754.35197381 m for Seattle to Los Angeles; the mean radius 6,371,008.8
// gives ...4.06) with geodesic edges. Degrees become radians as S2 converts them, deg · (π/180).
// Invalid coordinates (longitude outside [-180, 180], latitude outside [-90, 90], NaN) give null.
import { constantOf, type ArgumentCheck, type ScalarFunction, type SqlBuilder } from './types';

/** S2's Earth radius in metres (s2earth.h), which Kusto's geo functions use. */
export const EARTH_RADIUS = 6371010;
/** π/180 as one double, as S2's S1Angle::Degrees multiplies. */
export const RAD = 0.017453292519943295;
const TWO_PI = '6.283185307179586E0';

const dbl = (x: string): string => `CAST(${x} AS DOUBLE)`;
const rad = (x: string): string => `(${dbl(x)} * ${RAD}E0)`;

/** A valid longitude and latitude (NaN fails both comparisons in both engines). */
export const validPoint = (lng: string, lat: string): string =>
  `(${lng} >= -180 AND ${lng} <= 180 AND ${lat} >= -90 AND ${lat} <= 90)`;

/** The central angle between two points by the haversine formula (S2LatLng::GetDistance's form). */
export function centralAngle(lng1: string, lat1: string, lng2: string, lat2: string): string {
  const dLat = `sin(0.5E0 * (${rad(lat2)} - ${rad(lat1)}))`;
  const dLng = `sin(0.5E0 * (${rad(lng2)} - ${rad(lng1)}))`;
  const x = `${dLat} * ${dLat} + ${dLng} * ${dLng} * cos(${rad(lat1)}) * cos(${rad(lat2)})`;
  return `(2E0 * asin(sqrt(least(1E0, ${x}))))`;
}

/** The two points are one point or antipodes (the azimuth between them is undefined: the pages answer null). */
const degenerate = (lng1: string, lat1: string, lng2: string, lat2: string): string =>
  `((${lat1} = ${lat2} AND (${lng1} = ${lng2} OR abs(${lat1}) = 90 OR abs(${lng1} - ${lng2}) = 360)) OR ` +
  `(${lat1} = -(${lat2}) AND (abs(${lng1} - ${lng2}) = 180 OR abs(${lat1}) = 90)))`;

/** The initial bearing from point 1 to point 2, clockwise from north, in [0, 2π). */
function azimuth(lng1: string, lat1: string, lng2: string, lat2: string): string {
  const dLng = `(${rad(lng2)} - ${rad(lng1)})`;
  const y = `sin(${dLng}) * cos(${rad(lat2)})`;
  const x = `cos(${rad(lat1)}) * sin(${rad(lat2)}) - sin(${rad(lat1)}) * cos(${rad(lat2)}) * cos(${dLng})`;
  return positive(`atan2(${y}, ${x})`);
}

/** An angle in (-2π, 2π) moved into [0, 2π). */
const positive = (angle: string): string => `(${angle} + CASE WHEN ${angle} < 0 THEN ${TWO_PI} ELSE 0E0 END)`;

const distance2Points: SqlBuilder = ({ a }) =>
  `CASE WHEN ${validPoint(a[0]!, a[1]!)} AND ${validPoint(a[2]!, a[3]!)} ` +
  `THEN ${centralAngle(a[0]!, a[1]!, a[2]!, a[3]!)} * ${EARTH_RADIUS}E0 END`;

/**
 * The page: a circle is a spherical cap whose radius (> 0) is measured along the surface; else null.
 * The upper bound keeps NaN out (DuckDB orders NaN above every number).
 */
const pointInCircle: SqlBuilder = ({ a }) =>
  `CASE WHEN ${validPoint(a[0]!, a[1]!)} AND ${validPoint(a[2]!, a[3]!)} AND ${a[4]} > 0 AND ${a[4]} <= 1.7976931348623157E308 ` +
  `THEN ${centralAngle(a[0]!, a[1]!, a[2]!, a[3]!)} <= ${dbl(a[4]!)} / ${EARTH_RADIUS}E0 END`;

const geoAzimuth: SqlBuilder = ({ a }) =>
  `CASE WHEN ${validPoint(a[0]!, a[1]!)} AND ${validPoint(a[2]!, a[3]!)} AND NOT ${degenerate(a[0]!, a[1]!, a[2]!, a[3]!)} ` +
  `THEN ${azimuth(a[0]!, a[1]!, a[2]!, a[3]!)} END`;

/** The clockwise angle at point 2 from the line to point 1 to the line to point 3 (the page's 2.94493843406882). */
const geoAngle: SqlBuilder = ({ a }) => {
  const [x1, y1, x2, y2, x3, y3] = a as [string, string, string, string, string, string];
  const turn = `(${azimuth(x2, y2, x3, y3)} - ${azimuth(x2, y2, x1, y1)})`;
  return (
    `CASE WHEN ${validPoint(x1, y1)} AND ${validPoint(x2, y2)} AND ${validPoint(x3, y3)} ` +
    `AND NOT ${degenerate(x1, y1, x2, y2)} AND NOT ${degenerate(x2, y2, x3, y3)} THEN ${positive(turn)} END`
  );
};

/** use_spheroid = true measures on the WGS-84 ellipsoid, whose page prints no result to check it against. */
const sphereOnly: ArgumentCheck = (args) => {
  const flag = args[4];
  if (flag === undefined || constantOf(flag) === false) return undefined;
  return [
    4,
    'use_spheroid must be the constant false: distances on the WGS-84 spheroid are not supported (leave it out to measure on the sphere)',
  ];
};

const point = (n: number) => [
  { name: `p${n}_longitude`, type: 'number' as const },
  { name: `p${n}_latitude`, type: 'number' as const },
];

export const GEO_POINT_V9_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'geo_distance_2points',
    family: 'geo',
    summary: 'The shortest distance in metres between two points on the Earth sphere (null for invalid coordinates).',
    signatures: [
      { params: [...point(1), ...point(2), { name: 'use_spheroid', type: 'bool', optional: true }], result: 'real' },
    ],
    check: sphereOnly,
    duckdb: distance2Points,
    timestream: distance2Points,
  },
  {
    name: 'geo_point_in_circle',
    family: 'geo',
    summary: 'Whether a point lies in a spherical cap of a centre and a radius in metres (null when invalid).',
    signatures: [
      {
        params: [
          { name: 'p_longitude', type: 'number' },
          { name: 'p_latitude', type: 'number' },
          { name: 'pc_longitude', type: 'number' },
          { name: 'pc_latitude', type: 'number' },
          { name: 'c_radius', type: 'number' },
        ],
        result: 'bool',
      },
    ],
    duckdb: pointInCircle,
    timestream: pointInCircle,
  },
  {
    name: 'geo_azimuth',
    family: 'geo',
    summary: 'The clockwise angle in radians from true north to the geodesic from point 1 to point 2.',
    signatures: [{ params: [...point(1), ...point(2)], result: 'real' }],
    duckdb: geoAzimuth,
    timestream: geoAzimuth,
  },
  {
    name: 'geo_angle',
    family: 'geo',
    summary: 'The clockwise angle in radians, in [0, 2π), from the line [p1, p2] to the line [p2, p3] on the sphere.',
    signatures: [{ params: [...point(1), ...point(2), ...point(3)], result: 'real' }],
    duckdb: geoAngle,
    timestream: geoAngle,
  },
];
