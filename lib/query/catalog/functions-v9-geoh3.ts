// H3 cells placed on the icosahedron (the geo_point_to_h3cell, geo_h3cell_to_central_point and
// geo_h3cell_to_polygon pages); the SQL is in functions-v9-geoh3-sql.ts (point to cell) and
// functions-v9-geoh3-cell-sql.ts (cell to sphere), the tables in functions-v9-geoh3-tables.ts.
// Invalid input gives what the pages print: '' for a point or resolution out of range (a null
// resolution included), null for a token that names no cell. DuckDB only: Timestream gets a 400
// naming the function and the engine, as for every cell function.
import { asDouble, bindAs, pointJson, polygonJson, validPoint } from './functions-v9-geocell-common';
import { h3Cell } from './functions-v9-geocell-h3';
import { cellCenter, cellRing } from './functions-v9-geoh3-cell-sql';
import { MAX_H3_RES } from './functions-v9-geoh3-common';
import { h3TokenOfPoint } from './functions-v9-geoh3-sql';
import type { ScalarFunction, SqlBuilder } from './types';

const DEFAULT_RESOLUTION = 6;

const tokenOfPoint: SqlBuilder = (c) => {
  const res = c.a.length > 2 ? `CAST(${c.a[2]} AS BIGINT)` : `${DEFAULT_RESOLUTION}::BIGINT`;
  const point = `{'x': ${asDouble(c.a[0]!)}, 'y': ${asDouble(c.a[1]!)}, 'r': ${res}}`;
  const valid = `${validPoint('hpt.x', 'hpt.y')} AND hpt.r BETWEEN 0 AND ${MAX_H3_RES}`;
  return bindAs(point, 'hpt', `CASE WHEN ${valid} THEN ${h3TokenOfPoint('hpt.x', 'hpt.y', 'hpt.r')} ELSE '' END`);
};

/** A builder of what the cell a token names gives, null for a token that names no cell. */
const ofCell =
  (body: (cell: string) => string): SqlBuilder =>
  (c) =>
    bindAs(h3Cell(c.a[0]!), 'hcl', `CASE WHEN hcl IS NOT NULL THEN ${body('hcl')} END`);

const centralPoint = ofCell((cell) => bindAs(cellCenter(cell), 'hce', pointJson('hce[1]', 'hce[2]')));
const polygon = ofCell((cell) => polygonJson(cellRing(cell)));

const fromCell = (name: string, summary: string, duckdb: SqlBuilder): ScalarFunction => ({
  name,
  family: 'geo',
  summary,
  signatures: [{ params: [{ name: 'h3cell', type: 'string' }], result: 'dynamic' }],
  duckdb,
  timestream: null,
});

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
  fromCell(
    'geo_h3cell_to_central_point',
    'The center of an H3 cell as a GeoJSON point; null for a token that names no cell (DuckDB only).',
    centralPoint,
  ),
  fromCell(
    'geo_h3cell_to_polygon',
    "The H3 cell's boundary as a GeoJSON polygon (6 vertices, 5 for a pentagon, more where a Class III cell crosses an icosahedron edge; edges are straight on the face's plane, not geodesics); null for a token that names no cell (DuckDB only).",
    polygon,
  ),
];
