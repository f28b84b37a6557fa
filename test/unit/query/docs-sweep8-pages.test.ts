// What the eighth sweep of the documentation's examples (graph, geospatial and time series pages,
// the last library pages) changed: a join's right column renamed for a clash also skips the right
// side's own names (detect_anomalous_access_cf_fl).
import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openFixtureDb } from '../../golden/fixture-db';
import { columnsAndRows } from './duckdb-rows';

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

/** The query's columns (name:type) and its rows on DuckDB. */
const run = (query: string): ReturnType<typeof columnsAndRows> => columnsAndRows(db, query);

describe('join column names', () => {
  it.each([
    // detect_anomalous_access_cf_fl: (entity, resource, ...) join (resource, resource1, ...) reads resource2.
    [
      'let a = datatable(entity:string, resource:string, scope:string)["u","r1","s"];\n' +
        'let b = datatable(resource:string, resource1:string, scope:string)["r2","r1","s"];\n' +
        'a | join kind=inner (b) on scope, $left.resource == $right.resource1 | project entity, resource2, resource1',
      ['entity:string', 'resource2:string', 'resource1:string'],
      [['u', 'r2', 'r1']],
    ],
    // Kusto.Language: a1 and a2 are the right side's own names, so its a becomes a3 and its a1 a11.
    [
      'let a = datatable(a:long, a1:long)[1, 10]; let b = datatable(a:long, a1:long, a2:long)[1, 20, 30]; a | join b on a',
      ['a:long', 'a1:long', 'a3:long', 'a11:long', 'a2:long'],
      [[1, 10, 1, 20, 30]],
    ],
  ])('%s', async (query, columns, rows) => {
    // Act
    const result = await run(query);
    // Assess
    expect(result.columns).toEqual(columns);
    expect(result.rows).toEqual(rows);
  });
});
