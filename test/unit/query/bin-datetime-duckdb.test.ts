// bin() of datetimes on DuckDB: buckets counted from 0001-01-01 (KQL-NOTES.md), whichever form of
// time_bucket the dialect writes (without origin argument where DuckDB's default origin gives the
// same buckets; with it otherwise). Checked against a reference floor over years 1 to 9999.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const BIN_ORIGIN_MS = Date.parse('0001-01-01T00:00:00Z');

/** Timestamps around both origins, the Unix epoch, leap days and the ends of the range. */
const TIMES = [
  '0001-01-01T00:00:00Z',
  '0001-03-05T07:08:09Z',
  '0999-12-31T23:59:59Z',
  '1969-12-31T23:59:59Z',
  '1970-01-01T00:00:00Z',
  '1999-12-31T12:00:00Z',
  '2000-01-02T23:59:59Z',
  '2000-01-03T00:00:00Z',
  '2000-01-04T01:00:00Z',
  '2024-02-29T13:45:10Z',
  '2024-03-06T17:47:13Z',
  '2026-11-26T04:00:00Z',
  '9999-12-31T23:59:59Z',
];

/** Widths in KQL and in ms: dividing a day, a week, and ones that divide neither. */
const WIDTHS: readonly (readonly [string, number])[] = [
  ['1s', 1000],
  ['15m', 900_000],
  ['1h', 3_600_000],
  ['7h', 7 * 3_600_000],
  ['1d', 86_400_000],
  ['2d', 2 * 86_400_000],
  ['7d', 7 * 86_400_000],
  ['10d', 10 * 86_400_000],
];

function reference(iso: string, widthMs: number): string {
  const ms = Date.parse(iso);
  const bucket = Math.floor((ms - BIN_ORIGIN_MS) / widthMs) * widthMs + BIN_ORIGIN_MS;
  return new Date(bucket).toISOString().replace('.000Z', 'Z');
}

describe('bin(datetime, width) on DuckDB', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  for (const [width, widthMs] of WIDTHS) {
    it(`bin(t, ${width}) counts buckets from 0001-01-01`, async () => {
      // Prepare
      const rowsKql = TIMES.map((t) => `datetime(${t.replace('T', ' ').replace('Z', '')})`).join(', ');
      const query = `datatable(t: datetime) [${rowsKql}] | extend b = bin(t, ${width}) | project b`;
      const compiled = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
      // Act
      const rows = convertRows(
        await runSql(db, compiled.sql),
        compiled.columns.map((c) => c.type),
      );
      // Assess
      expect(rows.map((r) => r[0])).toEqual(TIMES.map((t) => reference(t, widthMs)));
    });
  }

  for (const [width] of WIDTHS) {
    it(`t % ${width} is the time since bin(t, ${width}), counted from the same origin`, async () => {
      // Prepare
      const rowsKql = TIMES.map((t) => `datetime(${t.replace('T', ' ').replace('Z', '')})`).join(', ');
      const query = `datatable(t: datetime) [${rowsKql}] | project m = t % ${width}, r = t - bin(t, ${width})`;
      const compiled = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
      // Act
      const rows = convertRows(
        await runSql(db, compiled.sql),
        compiled.columns.map((c) => c.type),
      );
      // Assess
      expect(compiled.columns.map((c) => c.type)).toEqual(['timespan', 'timespan']);
      for (const [m, r] of rows) expect(m).toBe(r);
    });
  }

  it('leaves the origin out only where DuckDB default origin gives the same buckets', () => {
    const sqlOf = (width: string): string =>
      compile(`print b = bin(datetime(2024-03-06), ${width})`, { ...GOLDEN_OPTIONS, dialect: 'duckdb' }).sql;
    expect(sqlOf('1h')).not.toContain("TIMESTAMP '0001-01-01");
    expect(sqlOf('7d')).not.toContain("TIMESTAMP '0001-01-01");
    expect(sqlOf('2d')).toContain("TIMESTAMP '0001-01-01 00:00:00'");
  });
});
