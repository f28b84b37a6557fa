// Scalar literals inside a dynamic literal (lib/query/dynamic-literal.ts): Kusto's dynamic page
// allows "an array of dynamic or other scalar literals". They must hold the same values as the same
// literals packed at run time by pack_array(), and a literal that is not valid is a positioned 400.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';

const run = async (db: DuckDBConnection, query: string): Promise<unknown[][]> =>
  runSql(db, compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' }).sql);

describe('scalar literals in dynamic(...)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('hold what pack_array() makes of the same literals', async () => {
    // Arrange
    const literals =
      'datetime(2020-01-01), datetime(2017-01-01 10:00:00.123), 1h, -1.5d, 10microsecond, time(1.02:03:04), guid(74BE27DE-1e4e-49d9-b579-fe0b331d3642), long(5), int(-3), real(1.5), real(nan), real(-inf), bool(true), int(null)';
    // Act
    const rows = await run(
      db,
      `print a = tostring(dynamic([${literals}])), b = tostring(pack_array(${literals})) | extend same = a == b`,
    );
    // Assess
    expect(rows[0]![2]).toBe(true);
    expect(JSON.parse(rows[0]![0] as string)).toEqual([
      '2020-01-01T00:00:00.0000000Z',
      '2017-01-01T10:00:00.1230000Z',
      '01:00:00',
      '-1.12:00:00',
      '00:00:00.0000100',
      '1.02:03:04',
      '74be27de-1e4e-49d9-b579-fe0b331d3642',
      5,
      -3,
      1.5,
      'NaN',
      '-Infinity',
      true,
      null,
    ]);
  });

  it('keep ticks exactly (their text), in bags and nested arrays, and leave numbers, words and strings alone', async () => {
    // Act
    const rows = await run(
      db,
      `print t = tostring(dynamic({"span": 1tick, 'at': date("2017-01-01 10:00:00.1234567"), "n": [1e3, 2, -4.5, true, null, "1h", 'x 2d']}))`,
    );
    // Assess
    expect(JSON.parse(rows[0]![0] as string)).toEqual({
      span: '00:00:00.0000001',
      at: '2017-01-01T10:00:00.1234567Z',
      n: [1000, 2, -4.5, true, null, '1h', 'x 2d'],
    });
  });

  it('are read back as their types by the conversion functions', async () => {
    // Act
    const rows = await run(
      db,
      'print d = dynamic([1h, datetime(2020-01-01 10:00:00), long(7)]) | project s = totimespan(d[0]) + 1m, t = todatetime(d[1]) + 1h, n = tolong(d[2]) * 2',
    );
    // Assess: the engine's values (timespans as BIGINT microseconds, as a literal's, datetimes as TIMESTAMP text)
    expect(rows).toEqual([['3660000000', '2020-01-01 11:00:00', '14']]);
  });

  it('refuses a scalar literal that is not valid, at the dynamic literal, as a syntax error', () => {
    const options = { ...baseOptions, dialect: 'duckdb' } as const;
    expectRefusedAt('print d = dynamic([datetime(2020-13-01)])', options, {
      code: 'QUERY_SYNTAX',
      message: "invalid dynamic literal: invalid datetime '2020-13-01'",
      position: '1:11',
    });
    expectRefusedAt('print d = dynamic([int(3000000000)])', options, {
      code: 'QUERY_SYNTAX',
      message: "int '3000000000' out of range",
      position: '1:11',
    });
    expectRefusedAt('print d = dynamic([1parsec])', options, {
      code: 'QUERY_SYNTAX',
      message: "invalid timespan '1parsec'",
      position: '1:11',
    });
    expectRefusedAt('print d = dynamic([nonsense])', options, {
      code: 'QUERY_UNSUPPORTED',
      message: 'dynamic(...) holds JSON and scalar literals',
      position: '1:11',
    });
  });
});
