// What the fourth sweep of the documentation's examples (function, aggregation and plugin pages)
// changed: column_names_of(T) gives T's column names (column_names_of page); a datetime literal may
// have spaces around its date's dashes (sliding_window_counts page).
import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';
import { columnsAndRows } from './duckdb-rows';

const options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

/** The query's columns (name:type) and its rows on DuckDB. */
const run = (query: string): ReturnType<typeof columnsAndRows> => columnsAndRows(db, query);

describe('column_names_of', () => {
  it.each([
    // The page's three examples: a let table, a function without and with parameters.
    ['let T = datatable(A:string, B:int) []; print Columns=column_names_of(T)', ['A', 'B']],
    ['let MyFunction1 = () { print A="", B=1 }; print Columns=column_names_of(MyFunction1())', ['A', 'B']],
    ['let MyFunction1 = (param1:int) { print A="", B=1 }; print Columns=column_names_of(MyFunction1(1))', ['A', 'B']],
    // A pipeline's columns, in its order, and a table's.
    ['print Columns=column_names_of(States | project Name, Timestamp | extend x = 1)', ['Name', 'Timestamp', 'x']],
    ['print Columns=column_names_of(datatable(z:long, y:string)[])', ['z', 'y']],
  ])('%s', async (query, expected) => {
    expect(await run(query)).toEqual({ columns: ['Columns:dynamic'], rows: [[expected]] });
  });

  it('is a constant: its elements can be read and counted', async () => {
    const got = await run(
      'let T = datatable(A:string, B:int) []; print n = array_length(column_names_of(T)), first = tostring(column_names_of(T)[0])',
    );
    expect(got.rows).toEqual([[2, 'A']]);
  });

  it('compiles for Timestream as a constant array', () => {
    const compiled = compile('print Columns=column_names_of(Events | project Timestamp)', {
      ...GOLDEN_OPTIONS,
      dialect: 'timestream',
    });
    expect(compiled.sql).toContain(`'["Timestamp"]'`);
  });

  it('refuses a scalar argument', () => {
    expectRefusedAt('print column_names_of(1)', options, {
      code: 'QUERY_SEMANTIC',
      message: 'column_names_of() takes a tabular expression',
      position: '1:23',
    });
  });
});

describe('datetime literals with spaces around the dashes', () => {
  it('reads datetime(2017 - 08 - 01) as 2017-08-01 (sliding_window_counts page)', async () => {
    const got = await run(
      'print same = datetime(2017 - 08 - 01) == datetime(2017-08-01), d = datetime( 2017 -08- 01 10:30), t = datetime(2017 - 08 - 01T10:30)',
    );
    expect(got).toEqual({
      columns: ['same:bool', 'd:datetime', 't:datetime'],
      rows: [[true, '2017-08-01T10:30:00Z', '2017-08-01T10:30:00Z']],
    });
  });

  it('still refuses a literal that is no date', () => {
    expectRefusedAt('print d = datetime(2017 - 08 - 01 - 02)', options, {
      code: 'QUERY_SYNTAX',
      message: "invalid datetime literal '2017 - 08 - 01 - 02'",
      position: '1:11',
    });
  });
});
