// What the tenth sweep of the documentation's examples (the data type pages, the operator overview
// pages, the statements) changed: `uniqueid`, one of the guid page's synonyms, names the guid type
// in datatable, parse, mv-expand's typeof and function parameters, as Kusto.Language reads it.
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

describe('uniqueid names the guid type (guid page)', () => {
  it.each([
    [
      'datatable(f:uniqueid)[guid(74be27de-1e4e-49d9-b579-fe0b331d3642)] | extend t = gettype(f)',
      ['f:guid', 't:string'],
    ],
    ['print x = "74be27de-1e4e-49d9-b579-fe0b331d3642" | parse x with v:uniqueid | project v', ['v:guid']],
    [
      'datatable(d:dynamic)[dynamic(["74be27de-1e4e-49d9-b579-fe0b331d3642"])] | mv-expand d to typeof(uniqueid)',
      ['d:guid'],
    ],
    ['let f = (g:uniqueid) { tostring(g) }; print s = f(guid(74be27de-1e4e-49d9-b579-fe0b331d3642))', ['s:string']],
  ])('%s', async (query, columns) => {
    // Act
    const result = await run(query);
    // Assess
    expect(result.columns).toEqual(columns);
    expect(result.rows[0]).toContain('74be27de-1e4e-49d9-b579-fe0b331d3642');
  });
});
