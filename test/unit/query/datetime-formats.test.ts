// The datetime text forms of the datetime data type page besides ISO 8601 (datetime-formats.ts):
// a datetime(...) literal (read here, in TypeScript) and todatetime() of the same text (read by
// DuckDB's SQL) must give the same instant, or both none; near misses give none.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { formatDatetimeTicks, parseDatetimeTicks } from '../../../lib/query/literals';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

/** Text and the instant it names, or null when it names none. */
const TEXTS: readonly (readonly [string, string | null])[] = [
  ['Sat, 8 Nov 14 15:05:02 GMT', '2014-11-08T15:05:02Z'],
  ['sat, 08 nov 14 15:05 gmt', '2014-11-08T15:05:00Z'],
  ['Tuesday, 01-Feb-99 00:00', '1999-02-01T00:00:00Z'],
  ['1 Jan 49 00:00', '2049-01-01T00:00:00Z'],
  ['1 Jan 50 00:00', '1950-01-01T00:00:00Z'],
  ['8 Nov 2014 15:05:02 GMT', '2014-11-08T15:05:02Z'],
  ['29 Feb 24 12:00', '2024-02-29T12:00:00Z'],
  ['2014-11-08T15:05:25 GMT', '2014-11-08T15:05:25Z'],
  ['2014-11-08 15:05 GMT', '2014-11-08T15:05:00Z'],
  ['12-02-2022', '2022-12-02T00:00:00Z'],
  ['02/17/2016 08:40:01', '2016-02-17T08:40:01Z'],
  ['2/3/2016 8:40\n', '2016-02-03T08:40:00Z'],
  ['29 Feb 23 12:00', null],
  ['31 Apr 14 10:00', null],
  ['8 Nob 14 15:05', null],
  ['Caturday, 8 Nov 14 15:05', null],
  ['Sat, 8 Nov 14', null],
  ['8 Nov 14 24:00', null],
  ['8 Nov 14 15:05 EST', null],
  ['13-02-2022', null],
  ['2014-11-08 GMT15:05', null],
];

describe('datetime text forms beyond ISO 8601', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('reads each form in a datetime literal as the table says, and refuses near misses', () => {
    // Prepare / Act
    const literal = TEXTS.map(([text]) => {
      const ticks = parseDatetimeTicks(text);
      return ticks === undefined ? null : formatDatetimeTicks(ticks);
    });
    // Assess
    expect(literal).toEqual(TEXTS.map(([, instant]) => instant));
  });

  it('gives the same instants from todatetime() of a string column on DuckDB', async () => {
    // Prepare
    const rows = TEXTS.map(([text]) => JSON.stringify(text)).join(', ');
    const query = compile(`datatable(s:string)[${rows}] | project d = todatetime(s)`, {
      ...GOLDEN_OPTIONS,
      dialect: 'duckdb',
    });
    // Act
    const got = convertRows(await runSql(db, query.sql), ['datetime']).map((r) => r[0]);
    // Assess
    expect(got).toEqual(TEXTS.map(([, instant]) => instant));
  });

  it('reads the comma-separated date of the startofweek page in a literal only (todatetime of such text is on no page)', () => {
    // Act
    const read = ['2025, 6, 14', '2025,6,14', '2025, 2, 30', '2025, 6', '2025, 6, 14, 10'].map((text) => {
      const ticks = parseDatetimeTicks(text);
      return ticks === undefined ? null : formatDatetimeTicks(ticks);
    });
    // Assess
    expect(read).toEqual(['2025-06-14T00:00:00Z', '2025-06-14T00:00:00Z', null, null, null]);
  });
});
