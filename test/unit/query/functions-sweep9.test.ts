// What the ninth docs sweep fixed (docs/query-api.md, "The docs' examples"). The pages' printed
// examples are conformance cases (test/conformance/cases/fn-sweep9-*.json); these pin the rules
// around them.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions } from './compile-failure';
import { rowsOf } from './duckdb-rows';

const ts = { ...baseOptions, dialect: 'timestream' as const };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe('reverse() of a datetime', () => {
  it('reverses its text with 7 fractional digits, as the reverse page prints it', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = reverse(datetime(2017-10-15 12:00)), b = reverse(datetime(2020-01-02 03:04:05.25)), c = reverse(datetime(null))',
    );

    // Assess: not tostring's 2017-10-15T12:00:00Z; a null datetime is "" as tostring gives.
    expect(rows).toEqual([['Z0000000.00:00:21T51-01-7102', 'Z0000052.50:40:30T20-10-0202', '']]);
  });

  it('keeps tostring text for the other types', async () => {
    // Act
    const rows = await rowsOf(db, 'print a = reverse(12345), b = reverse(123.45), c = reverse(3h), d = reverse("abc")');

    // Assess
    expect(rows).toEqual([['54321', '54.321', '00:00:30', 'cba']]);
  });

  it('writes the same 7-digit text on Timestream', () => {
    // Act
    const { sql } = compile('print r = reverse(datetime(2017-10-15 12:00))', ts);

    // Assess: date_format's %f (microseconds) and one more zero, as the hash functions hash.
    expect(sql).toContain('date_format(');
    expect(sql).toContain("'0Z'");
  });
});
