// S2 cells (the geo_point_to_s2cell, geo_s2cell_to_central_point, geo_s2cell_to_polygon and
// geo_s2cell_neighbors pages); the SQL is in functions-v9-geocell-s2-sql.ts. Invalid input gives
// what the pages print: '' for a point or level out of range, null for a token that names no cell.
// DuckDB only (refused on Timestream).
import { asDouble, bindAs, pointJson, polygonJson, validPoint } from './functions-v9-geocell-common';
import { MAX_LEVEL, s2Cell, s2Center, s2Neighbors, s2Ring, s2TokenOfPoint } from './functions-v9-geocell-s2-sql';
import type { ScalarFunction, SqlBuilder } from './types';

const DEFAULT_LEVEL = 11;

const tokenOfPoint: SqlBuilder = (c) => {
  const level = c.a.length > 2 ? `CAST(${c.a[2]} AS BIGINT)` : `${DEFAULT_LEVEL}::BIGINT`;
  const point = `{'x': ${asDouble(c.a[0]!)}, 'y': ${asDouble(c.a[1]!)}, 'l': ${level}}`;
  const valid = `${validPoint('pt.x', 'pt.y')} AND pt.l BETWEEN 0 AND ${MAX_LEVEL}`;
  return bindAs(point, 'pt', `CASE WHEN ${valid} THEN ${s2TokenOfPoint('pt.x', 'pt.y', 'pt.l')} ELSE '' END`);
};

/** A builder of the cell a token names, null for an invalid token. */
const ofCell =
  (body: (cell: string) => string): SqlBuilder =>
  (c) =>
    bindAs(s2Cell(c.a[0]!), 'sc', `CASE WHEN sc IS NOT NULL THEN ${body('sc')} END`);

const centralPoint = ofCell((cell) => bindAs(s2Center(cell), 'sl2', pointJson('sl2[1]', 'sl2[2]')));
const polygon = ofCell((cell) => polygonJson(s2Ring(cell)));
const neighbors = ofCell((cell) => `to_json(${s2Neighbors(cell)})`);

const fromToken = (name: string, summary: string, duckdb: SqlBuilder): ScalarFunction => ({
  name,
  family: 'geo',
  summary,
  signatures: [{ params: [{ name: 's2cell', type: 'string' }], result: 'dynamic' }],
  duckdb,
  timestream: null,
});

export const S2_V9_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'geo_point_to_s2cell',
    family: 'geo',
    summary:
      "The S2 cell token of a point at level 0 to 30 (default 11); '' for a point or level out of range (DuckDB only).",
    signatures: [
      {
        params: [
          { name: 'longitude', type: 'real' },
          { name: 'latitude', type: 'real' },
          { name: 'level', type: 'integer', optional: true },
        ],
        result: 'string',
      },
    ],
    duckdb: tokenOfPoint,
    timestream: null,
  },
  fromToken(
    'geo_s2cell_to_central_point',
    'The center of an S2 cell as a GeoJSON point; null for a token that names no cell (DuckDB only).',
    centralPoint,
  ),
  fromToken(
    'geo_s2cell_to_polygon',
    "The S2 cell's four vertices as a GeoJSON polygon (edges are geodesics); null for an invalid token (DuckDB only).",
    polygon,
  ),
  fromToken(
    'geo_s2cell_neighbors',
    "The tokens of the eight S2 cells around a cell (each once; fewer at a cube corner) in S2's AppendAllNeighbors order, as a dynamic array (Kusto prints them in another order); null for an invalid token (DuckDB only).",
    neighbors,
  ),
];
