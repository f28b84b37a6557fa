// DuckDB's TIMESTAMP_NS as the answer path reads it, and the engine facts that decide how 100 ns
// ticks can be carried for datetimes (issue 15; the attempt and its measurements are in the report
// of the `kql-ticks` branch). Today datetimes compile to TIMESTAMP (microseconds); these tests pin:
// - the reading path (readRowsJson + convertRow) already writes a TIMESTAMP_NS cell with Kusto's 7 digits;
// - TIMESTAMP_NS spans only 1677-09-21 .. 2262-04-11, so mixing it with a TIMESTAMP outside that span
//   (Kusto's datetime runs 0001 .. 9999; `datetime(1601-01-01)` is a common sentinel) is an engine
//   error: a TIMESTAMP_NS result type for every `endof*` would turn such queries into errors;
// - a TIMESTAMP column compared with a TIMESTAMP_NS value is cast per row (no filter pushdown: 20-40x
//   slower on 1M rows), while the value cast down to TIMESTAMP keeps the pushdown; that cast truncates
//   toward zero, which is a floor only after 1970, so an exact `<=` needs a real floor, not the cast;
//   the same implicit cast feeds every TIMESTAMP function given a TIMESTAMP_NS (date_trunc, epoch_us, +).
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRowsJson } from '../../../lib/adapters/duckdb/query-engine';
import { convertRow } from '../../../lib/query/index';

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
});

afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

const datetimes = async (sql: string): Promise<unknown[]> =>
  (await readRowsJson(connection, sql)).map((row) => convertRow(row, ['datetime'])[0]);

describe('TIMESTAMP_NS on the answer path', () => {
  it('writes the 7th fractional digit of a TIMESTAMP_NS cell, as Kusto does', async () => {
    // Act
    const values = await datetimes(
      "SELECT make_timestamp_ns(epoch_ns(TIMESTAMP '2017-01-02') - 100) UNION ALL SELECT TIMESTAMP_NS '2017-10-30 01:02:03.7654321'",
    );
    // Assess
    expect(values).toEqual(['2017-01-01T23:59:59.9999999Z', '2017-10-30T01:02:03.7654321Z']);
  });

  it('keeps both values of a union of a TIMESTAMP and a TIMESTAMP_NS column', async () => {
    // Act
    const values = await datetimes(
      "SELECT * FROM (SELECT TIMESTAMP '2020-01-01 00:00:00.000001' AS t UNION ALL SELECT TIMESTAMP_NS '2020-01-01 23:59:59.9999999') ORDER BY t",
    );
    // Assess
    expect(values).toEqual(['2020-01-01T00:00:00.000001Z', '2020-01-01T23:59:59.9999999Z']);
  });

  it('compares a TIMESTAMP with a tick value exactly at the boundary', async () => {
    // Act
    const [row] = await readRowsJson(
      connection,
      "SELECT TIMESTAMP '2020-01-01 23:59:59.999999' <= TIMESTAMP_NS '2020-01-01 23:59:59.9999999', TIMESTAMP '2020-01-02' <= TIMESTAMP_NS '2020-01-01 23:59:59.9999999'",
    );
    // Assess
    expect(row).toEqual([true, false]);
  });
});

describe('engine facts a tick design must respect', () => {
  it('refuses a TIMESTAMP before 1677 where a TIMESTAMP_NS is expected', async () => {
    // Act + Assess
    await expect(
      readRowsJson(connection, "SELECT TIMESTAMP '1601-01-01' <= TIMESTAMP_NS '2020-01-01 23:59:59.9999999'"),
    ).rejects.toThrow(/Conversion Error/);
    await expect(readRowsJson(connection, "SELECT epoch_ns(TIMESTAMP '9999-12-31')")).rejects.toThrow(
      /Conversion Error/,
    );
  });

  it('casts TIMESTAMP_NS down to TIMESTAMP toward zero, not down', async () => {
    // Act
    const values = await datetimes(
      "SELECT CAST(TIMESTAMP_NS '2020-01-01 00:00:00.0000009' AS TIMESTAMP) UNION ALL SELECT CAST(TIMESTAMP_NS '1960-01-01 00:00:00.0000001' AS TIMESTAMP)",
    );
    // Assess: after 1970 the microsecond below, before 1970 the one above.
    expect(values).toEqual(['2020-01-01T00:00:00Z', '1960-01-01T00:00:00.000001Z']);
  });

  it('rounds a TIMESTAMP_NS before 1970 up to the next microsecond in TIMESTAMP functions: even the day changes', async () => {
    // Act: date_trunc (startofday) of the last tick of 1960-01-01.
    const values = await datetimes("SELECT date_trunc('day', TIMESTAMP_NS '1960-01-01 23:59:59.9999999')");
    // Assess: Kusto gives 1960-01-01; every function that takes TIMESTAMP needs an explicit floor first.
    expect(values).toEqual(['1960-01-02T00:00:00Z']);
  });

  it('casts a TIMESTAMP column per row when it is compared with a TIMESTAMP_NS value', async () => {
    // Prepare
    await connection.run("CREATE OR REPLACE TABLE s AS SELECT TIMESTAMP '2020-01-01' AS ts");
    const plan = async (sql: string): Promise<string> =>
      (await readRowsJson(connection, `EXPLAIN ${sql}`)).map((row) => String(row[1])).join('\n');
    // Act
    const ns = await plan("SELECT count(*) FROM s WHERE ts <= TIMESTAMP_NS '2020-01-01 23:59:59.9999999'");
    const down = await plan(
      "SELECT count(*) FROM s WHERE ts <= CAST(TIMESTAMP_NS '2020-01-01 23:59:59.9999999' AS TIMESTAMP)",
    );
    // Assess
    expect(ns).toContain('CAST(ts AS TIMESTAMP_NS)');
    expect(down).not.toContain('CAST(ts');
  });
});
