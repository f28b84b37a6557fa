// What the execution fuzz of the function catalog found (every function and signature called with
// edge values as literals and as column values, run on DuckDB): each case failed in the engine
// before its fix (a Binder or Conversion error, a hang) and now answers or is refused with a 400.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options = { ...GOLDEN_OPTIONS, dialect: 'duckdb' as const };

describe('function fuzz: column arguments where the engine wanted constants', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const run = (query: string): Promise<unknown[][]> => runSql(db, compile(query, options).sql);

  it('strcat_array joins with a delimiter that differs per row (a Binder Error before)', async () => {
    // Act
    const rows = await run(
      "range i from 0 to 2 step 1 | extend d = iff(i == 1, '', tostring(i)) | project r = strcat_array(dynamic([1, 'a', null]), d)",
    );
    // Assess
    expect(rows).toEqual([['10a0'], ['1a'], ['12a2']]);
  });

  it.each([
    ['set_intersect(dynamic(null), dynamic([3, 4, 1]))'],
    ['set_difference(dynamic({}), dynamic([1, 2]))'],
    ['set_difference(dynamic("s"), dynamic([1, 2]))'],
  ])('%s is null for a first argument that is a constant but no array (a Binder Error before)', async (call) => {
    // Act
    const rows = await run(`print r = ${call}`);
    // Assess
    expect(rows).toEqual([[null]]);
  });

  it('set_difference of arrays still keeps the elements absent from the second', async () => {
    // Act
    const rows = await run('print r = set_difference(dynamic([1, 2, 3, null, 3]), dynamic([1, 2]))');
    // Assess
    expect(rows).toEqual([['[3,null]']]);
  });
});
