// A numeric zone offset after the time, with or without a space before it, as `+hhmm`, `+hh:mm` or
// `-hh`, in datetime(...) literals and in todatetime() on DuckDB: the graph scenarios page prints a
// result that needs todatetime("2019-01-22 03:54:16 +0330") read (00:24:16 UTC), and .NET's parser,
// which Kusto uses, takes all of these forms. Every form of the datetime page's tables still reads.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const duckdb: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };

/** Text, and the UTC instant it stands for. */
const OFFSETS: readonly (readonly [string, string])[] = [
  ['2019-01-22 03:54:16 +0330', '2019-01-22T00:24:16Z'],
  ['2019-01-22 03:54:16+0330', '2019-01-22T00:24:16Z'],
  ['2019-01-22 03:54:16 +03:30', '2019-01-22T00:24:16Z'],
  ['2019-01-22T03:54:16 -05:00', '2019-01-22T08:54:16Z'],
  ['2019-01-22T03:54:16-0500', '2019-01-22T08:54:16Z'],
  ['2019-01-22 03:54:16 -05', '2019-01-22T08:54:16Z'],
  ['2019-01-22T03:54:16-05', '2019-01-22T08:54:16Z'],
  ['2019-01-22T03:54:16.5 +0330', '2019-01-22T00:24:16.5Z'],
  // A time without seconds before the zone: the engines' ISO readers want the seconds.
  ['2019-01-22T03:54 +0330', '2019-01-22T00:24:00Z'],
  ['2019-01-22 03:54-05:00', '2019-01-22T08:54:00Z'],
  ['2019-01-22T03:54Z', '2019-01-22T03:54:00Z'],
];

/** The examples of the datetime data type page's tables, each with the instant it stands for. */
const PAGE_FORMATS: readonly (readonly [string, string])[] = [
  ['2014-05-25T08:20:03.123456Z', '2014-05-25T08:20:03.123456Z'],
  ['2014-05-25T08:20', '2014-05-25T08:20:00Z'],
  ['2014-11-08 15:55:55.123456Z', '2014-11-08T15:55:55.123456Z'],
  ['2014-11-08', '2014-11-08T00:00:00Z'],
  ['Sat, 8 Nov 14 15:05:02 GMT', '2014-11-08T15:05:02Z'],
  ['8 Nov 14 15:05', '2014-11-08T15:05:00Z'],
  ['Saturday, 08-Nov-14 15:05 GMT', '2014-11-08T15:05:00Z'],
  ['08-Nov-14 15:05:02', '2014-11-08T15:05:02Z'],
  ['2014-11-08 15:05:25 GMT', '2014-11-08T15:05:25Z'],
  ['2014-11-08T15:05 GMT', '2014-11-08T15:05:00Z'],
];

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

async function firstRow(query: string): Promise<unknown[]> {
  const compiled = compile(query, duckdb);
  const rows = convertRows(
    await runSql(db, compiled.sql),
    compiled.columns.map((c) => c.type),
  );
  return rows[0]!;
}

describe('datetimes with a numeric zone offset', () => {
  for (const [text, utc] of OFFSETS)
    it(`reads '${text}' as ${utc} in a literal and in todatetime()`, async () => {
      expect(await firstRow(`print datetime(${text}), todatetime("${text}")`)).toEqual([utc, utc]);
    });

  it('reads every form of the datetime page alike in a literal and in todatetime()', async () => {
    for (const [text, utc] of PAGE_FORMATS)
      expect(await firstRow(`print datetime(${text}), todatetime("${text}")`)).toEqual([utc, utc]);
  });

  it('reads text with spaces around it in todatetime() as the literal reads it', async () => {
    // The engine's ISO cast gave null for a trailing space (.NET's parse, Kusto's, skips them).
    for (const [text, utc] of [...PAGE_FORMATS, ...OFFSETS].slice(0, 12))
      expect(await firstRow(`print datetime( ${text} ), todatetime("  ${text} ")`)).toEqual([utc, utc]);
  });

  it('still gives null for text that is no datetime, offset or not', async () => {
    expect(await firstRow('print todatetime("2019-01-22 +0330"), todatetime("03:54:16 +0330")')).toEqual([null, null]);
  });

  it('reads no hour 24, in todatetime() as in a literal (the engine read 24:00:00 as the next midnight)', async () => {
    for (const text of ['2020-01-01T24:00:00Z', '2020-01-01 24:00', '12-02-2022 24:00']) {
      expect(() => compile(`print datetime(${text})`, duckdb)).toThrow(/invalid datetime literal/);
      expect(await firstRow(`print todatetime("${text}")`)).toEqual([null]);
    }
  });

  it('refuses a zone after a date without a time in a literal, as todatetime() gives null for it', async () => {
    // The page's formats put %z after a time only: `-05` after a date is no offset.
    for (const text of ['2019-01-22-05', '2019-01-22 +0330', '2019-01-22Z']) {
      expect(() => compile(`print datetime(${text})`, duckdb)).toThrow(/invalid datetime literal/);
      expect(await firstRow(`print todatetime("${text}")`)).toEqual([null]);
    }
  });
});
