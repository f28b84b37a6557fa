// Differences found by cross-checking today's additions against Kusto.Language (Microsoft's parser
// and semantic model): scalar literals inside dynamic(...) that it reads and this compiler refused,
// and new_activity_metrics arguments of the wrong type, refused at the argument (Kusto.Language:
// "must be summable") instead of at `evaluate` by a bin_at() the user never wrote.
// The scalar data types page says a dynamic value can hold "nested dynamic values"; a bool literal
// is spelled true, True or TRUE (as outside a dynamic literal); long(0x10) and real(-nan) are the
// same literals as outside one.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';

const text = async (db: DuckDBConnection, literal: string): Promise<unknown> => {
  const rows = await runSql(
    db,
    compile(`print t = tostring(${literal})`, { ...GOLDEN_OPTIONS, dialect: 'duckdb' }).sql,
  );
  return JSON.parse(rows[0]![0] as string);
};

describe('probe 7: scalar literals in dynamic(...)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('reads a nested dynamic literal as its value, its own scalar literals included', async () => {
    // Act
    const value = await text(
      db,
      'dynamic([dynamic(null), dynamic([1, 2h]), dynamic({"a": dynamic(4), "b": dynamic("x)")})])',
    );
    // Assess
    expect(value).toEqual([null, [1, '02:00:00'], { a: 4, b: 'x)' }]);
  });

  it('reads hexadecimal longs, signed NaN and capitalised bools as outside a dynamic literal', async () => {
    // Act
    const value = await text(
      db,
      'dynamic([long(0x10), long(-0x1F), 0x20, -0xff, real(-nan), real(+nan), TRUE, False])',
    );
    // Assess
    expect(value).toEqual([16, -31, 32, -255, 'NaN', 'NaN', true, false]);
  });

  it('still refuses a nested dynamic literal that is no JSON, at the outer literal', () => {
    expectRefusedAt(
      'print d = dynamic([dynamic(nonsense)])',
      { ...baseOptions, dialect: 'duckdb' },
      {
        code: 'QUERY_UNSUPPORTED',
        message: 'dynamic(...) holds JSON and scalar literals',
        position: '1:11',
      },
    );
  });
});

describe('probe 7: new_activity_metrics argument types', () => {
  const options = { ...baseOptions, dialect: 'duckdb' } as const;
  const table = 'datatable(id:long, Day:datetime, s:string, n:long)[1, datetime(2017-05-01), "a", 1]';
  const call = (args: string): string => `${table} | evaluate new_activity_metrics(${args})`;
  const at = (query: string, text: string): string => `1:${query.indexOf(text) + 1}`;

  it.each([
    [
      'id, s, datetime(2017-05-01), datetime(2017-05-31), 1d',
      's, datetime',
      'the timeline column s must be a datetime, a timespan or a number, got string',
    ],
    [
      "id, Day, 'a', datetime(2017-05-31), 1d",
      "'a'",
      'Start must be a datetime like the timeline column Day, got string',
    ],
    ['id, Day, datetime(2017-05-01), 7, 1d', '7, 1d', 'End must be a datetime like the timeline column Day, got long'],
    [
      'id, Day, datetime(2017-05-01), datetime(2017-05-31), 5',
      '5)',
      'Window must be a timespan for the timeline column Day, got long',
    ],
    [
      'id, Day, datetime(2017-05-01), datetime(2017-05-31), 1d, 5',
      '5)',
      'Cohort must be a datetime like the timeline column Day, got long',
    ],
    ['id, n, 0, 10, 1h', '1h', 'Window must be a number for the timeline column n, got timespan'],
  ])('refuses new_activity_metrics(%s) at the argument', (args, marker, message) => {
    const query = call(args);
    expectRefusedAt(query, options, { code: 'QUERY_SEMANTIC', message, position: at(query, marker) });
  });

  it('still takes a numeric timeline with numeric bounds and Window', () => {
    const columns = compile(call('id, n, 0, 10, 1'), options).columns.map((c) => `${c.name}:${c.type}`);
    expect(columns.slice(0, 2)).toEqual(['from_n:long', 'to_n:long']);
  });
});
