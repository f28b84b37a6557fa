// Differences found by cross-checking today's additions against Kusto.Language (Microsoft's parser
// and semantic model): scalar literals inside dynamic(...) that it reads and this compiler refused.
// The scalar data types page says a dynamic value can hold "nested dynamic values"; a bool literal
// is spelled true, True or TRUE (as outside a dynamic literal); long(0x10) and real(-nan) are the
// same literals as outside one.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';

const text = async (db: DuckDBConnection, literal: string): Promise<unknown> => {
  const rows = await runSql(db, compile(`print t = tostring(${literal})`, { ...GOLDEN_OPTIONS, dialect: 'duckdb' }).sql);
  return JSON.parse(rows[0]![0] as string);
};

describe('probe 7: scalar literals in dynamic(...)', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('reads a nested dynamic literal as its value, its own scalar literals included', async () => {
    // Act
    const value = await text(db, 'dynamic([dynamic(null), dynamic([1, 2h]), dynamic({"a": dynamic(4), "b": dynamic("x)")})])');
    // Assess
    expect(value).toEqual([null, [1, '02:00:00'], { a: 4, b: 'x)' }]);
  });

  it('reads hexadecimal longs, signed NaN and capitalised bools as outside a dynamic literal', async () => {
    // Act
    const value = await text(db, 'dynamic([long(0x10), long(-0x1F), real(-nan), real(+nan), TRUE, False])');
    // Assess
    expect(value).toEqual([16, -31, 'NaN', 'NaN', true, false]);
  });

  it('still refuses a nested dynamic literal that is no JSON, at the outer literal', () => {
    expectRefusedAt('print d = dynamic([dynamic(nonsense)])', { ...baseOptions, dialect: 'duckdb' }, {
      code: 'QUERY_UNSUPPORTED',
      message: 'dynamic(...) holds JSON and scalar literals',
      position: '1:11',
    });
  });
});
