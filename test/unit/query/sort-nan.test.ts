// A real's NaN sorts next to its nulls, between them and the numbers, in every direction and null
// placement (sort page, "Using special floating-point values"; the engines put NaN above +inf).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { openFixtureDb } from '../../golden/fixture-db';
import { rowsOf } from './duckdb-rows';

const VALUES = 'datatable(x:real)[5.0, real(null), real(+inf), 0.0, real(nan), -5.0, real(-inf)]';

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe('sort of reals with null, NaN and infinities', () => {
  it.each([
    ['asc nulls first', [null, 'NaN', '-Infinity', -5, 0, 5, 'Infinity']],
    ['asc', [null, 'NaN', '-Infinity', -5, 0, 5, 'Infinity']],
    ['asc nulls last', ['-Infinity', -5, 0, 5, 'Infinity', 'NaN', null]],
    ['desc nulls first', [null, 'NaN', 'Infinity', 5, 0, -5, '-Infinity']],
    ['desc nulls last', ['Infinity', 5, 0, -5, '-Infinity', 'NaN', null]],
    ['desc', ['Infinity', 5, 0, -5, '-Infinity', 'NaN', null]],
  ])('sort by x %s puts NaN beside the nulls, as the page lists', async (placement, expected) => {
    // Act
    const rows = await rowsOf(db, `${VALUES} | sort by x ${placement}`);
    // Assess
    expect(rows.map((r) => r[0])).toEqual(expected);
  });

  it('top picks the largest numbers, not NaN (top is sort then take)', async () => {
    // Act
    const rows = await rowsOf(db, `${VALUES} | top 2 by x`);
    // Assess
    expect(rows).toEqual([['Infinity'], [5]]);
  });

  it('a computed real key and row_number after it keep the same order', async () => {
    // Act
    const rows = await rowsOf(db, `${VALUES} | sort by x * 2 asc | extend r = row_number() | project x, r`);
    // Assess
    expect(rows.map((r) => r[0])).toEqual([null, 'NaN', '-Infinity', -5, 0, 5, 'Infinity']);
    expect(rows.map((r) => r[1])).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a long key keeps its plain ORDER BY term', async () => {
    // Act
    const rows = await rowsOf(db, 'datatable(n:long)[2, long(null), -3] | sort by n asc nulls first');
    // Assess
    expect(rows.map((r) => r[0])).toEqual([null, -3, 2]);
  });
});
