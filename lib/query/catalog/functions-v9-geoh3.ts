// H3 cells placed on the icosahedron (the geo_point_to_h3cell page); the SQL is in
// functions-v9-geoh3-sql.ts, the tables in functions-v9-geoh3-tables.ts. Invalid input gives what
// the page prints: '' for a point or resolution out of range (a null resolution included). DuckDB
// only: Timestream gets a 400 naming the function and the engine, as for every cell function.
import { asDouble, bindAs, validPoint } from './functions-v9-geocell-common';
import { h3TokenOfPoint, MAX_H3_RES } from './functions-v9-geoh3-sql';
import type { ScalarFunction, SqlBuilder } from './types';

const DEFAULT_RESOLUTION = 6;

const tokenOfPoint: SqlBuilder = (c) => {
  const res = c.a.length > 2 ? `CAST(${c.a[2]} AS BIGINT)` : `${DEFAULT_RESOLUTION}::BIGINT`;
  const point = `{'x': ${asDouble(c.a[0]!)}, 'y': ${asDouble(c.a[1]!)}, 'r': ${res}}`;
  const valid = `${validPoint('hpt.x', 'hpt.y')} AND hpt.r BETWEEN 0 AND ${MAX_H3_RES}`;
  return bindAs(point, 'hpt', `CASE WHEN ${valid} THEN ${h3TokenOfPoint('hpt.x', 'hpt.y', 'hpt.r')} ELSE '' END`);
};

export const GEOH3_V9_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'geo_point_to_h3cell',
    family: 'geo',
    summary:
      "The H3 cell token of a point at resolution 0 to 15 (default 6); '' for a point or resolution out of range (DuckDB only).",
    signatures: [
      {
        params: [
          { name: 'longitude', type: 'real' },
          { name: 'latitude', type: 'real' },
          { name: 'resolution', type: 'integer', optional: true },
        ],
        result: 'string',
      },
    ],
    duckdb: tokenOfPoint,
    timestream: null,
  },
];
