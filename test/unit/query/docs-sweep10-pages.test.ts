// What the tenth sweep of the documentation's examples (the data type pages, the operator overview
// pages, the statements) changed: mv-expand keeps its input's serialization, as the window
// functions page lists it among the operators that do (it was a 400 "needs serialized input");
// `uniqueid`, one of the guid page's synonyms, names the guid type in datatable, parse,
// mv-expand's typeof, function and query parameters, as Kusto.Language reads it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';
import { columnsAndRows } from './duckdb-rows';

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

/** The query's columns (name:type) and its rows on DuckDB. */
const run = (query: string): ReturnType<typeof columnsAndRows> => columnsAndRows(db, query);

describe('mv-expand keeps its input serialized (window functions page)', () => {
  it('numbers the expanded rows in the sorted rows order, each row elements in their array order', async () => {
    // Act
    const result = await run(
      'range x from 1 to 3 step 1 | sort by x desc | extend d = pack_array(x * 10, x * 10 + 1) | mv-expand d to typeof(long) | extend r = row_number(), p = prev(d)',
    );
    // Assess
    expect(result.columns).toEqual(['x:long', 'd:long', 'r:long', 'p:long']);
    expect(result.rows).toEqual([
      [3, 30, 1, null],
      [3, 31, 2, 30],
      [2, 20, 3, 31],
      [2, 21, 4, 20],
      [1, 10, 5, 21],
      [1, 11, 6, 10],
    ]);
  });

  it('still refuses a window function after mv-expand of rows that were not serialized', () => {
    expectRefusedAt(
      'datatable(x:long)[1, 2] | extend d = dynamic([1, 2]) | mv-expand d | extend r = row_number()',
      { ...GOLDEN_OPTIONS, dialect: 'duckdb' },
      { code: 'QUERY_SEMANTIC', message: 'row_number() needs serialized input', position: '1:81' },
    );
  });
});

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
