// What the fourth sweep of the documentation's examples (function, aggregation and plugin pages)
// changed: column_names_of(T) gives T's column names (column_names_of page); a datetime literal may
// have spaces around its date's dashes (sliding_window_counts page).
import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';

const options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };

describe('column_names_of', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const value = async (query: string): Promise<unknown> => {
    const compiled = compile(query, options);
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    expect(compiled.columns.map((c) => `${c.name}:${c.type}`)).toEqual(['Columns:dynamic']);
    return rows[0]![0];
  };

  it.each([
    // The page's three examples: a let table, a function without and with parameters.
    ['let T = datatable(A:string, B:int) []; print Columns=column_names_of(T)', ['A', 'B']],
    ['let MyFunction1 = () { print A="", B=1 }; print Columns=column_names_of(MyFunction1())', ['A', 'B']],
    ['let MyFunction1 = (param1:int) { print A="", B=1 }; print Columns=column_names_of(MyFunction1(1))', ['A', 'B']],
    // A pipeline's columns, in its order, and a table's.
    ['print Columns=column_names_of(States | project Name, Timestamp | extend x = 1)', ['Name', 'Timestamp', 'x']],
    ['print Columns=column_names_of(datatable(z:long, y:string)[])', ['z', 'y']],
  ])('%s', async (query, expected) => {
    expect(await value(query)).toEqual(expected);
  });

  it('is a constant: its elements can be read and counted', async () => {
    const compiled = compile(
      'let T = datatable(A:string, B:int) []; print n = array_length(column_names_of(T)), first = tostring(column_names_of(T)[0])',
      options,
    );
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    expect(rows).toEqual([[2, 'A']]);
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
  const columns = (query: string): string[] => {
    const compiled = compile(query, options);
    return compiled.columns.map((c) => `${c.name}:${c.type}`);
  };

  it('reads datetime(2017 - 08 - 01) as 2017-08-01 (sliding_window_counts page)', async () => {
    const db = await openFixtureDb();
    const compiled = compile(
      'print same = datetime(2017 - 08 - 01) == datetime(2017-08-01), d = datetime( 2017 -08- 01 10:30)',
      options,
    );
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    expect(rows).toEqual([[true, '2017-08-01T10:30:00Z']]);
  });

  it('still refuses a literal that is no date', () => {
    expect(columns('print d = datetime(2017-08-01)')).toEqual(['d:datetime']);
    expectRefusedAt('print d = datetime(2017 - 08 - 01 - 02)', options, {
      code: 'QUERY_SYNTAX',
      message: "invalid datetime literal '2017 - 08 - 01 - 02'",
      position: '1:11',
    });
  });
});
