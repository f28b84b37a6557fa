// A property bag holds a key once (lib/query/catalog/bag-pack-sql.ts, url-query-bag.ts): bag_pack
// and parse_urlquery wrote `{"a":1,"a":2}`; the pages are silent, so the last value wins, as in
// bag_zip and parse_url. The JSON text is compared as the engine returns it: JSON.parse would keep
// the last of two equal keys and hide the duplicate.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

describe('a repeated key in a built property bag', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });
  const text = async (query: string): Promise<unknown> => {
    const rows = await runSql(db, compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' }).sql);
    return rows[0]?.[0];
  };

  it.each([
    ['print bag_pack("a", 1, "a", 2)', '{"a":2}'],
    ['print pack("a", 1, "b", 2, "a", 3)', '{"b":2,"a":3}'],
    ['print k = "a" | project bag_pack(k, 1, "a", 2)', '{"a":2}'],
    ['print k = "a" | project bag_pack("a", 0, k, 1)', '{"a":1}'],
    ['print k = "b" | project bag_pack(k, 1, "a", 2)', '{"b":1,"a":2}'],
    ['print bag_pack("x", 1, "y", 2)', '{"x":1,"y":2}'],
  ])('%s keeps the last value of a key', async (query, expected) => {
    // Act
    const got = await text(query);
    // Assess
    expect(got).toBe(expected);
  });

  it('parse_urlquery keeps the last value of a repeated parameter', async () => {
    // Act
    const got = await text('print parse_urlquery("a=1&b=2&a=3")');
    // Assess
    expect(got).toBe('{"Query Parameters":{"b":"2","a":"3"}}');
  });

  it('compiles the key comparison for Timestream too', () => {
    // Act
    const sql = compile('print k = "a" | project bag_pack(k, 1, "a", 2)', {
      ...GOLDEN_OPTIONS,
      dialect: 'timestream',
    }).sql;
    // Assess: the column key is compared with the later constant one, the first comma cut off.
    expect(sql).toMatch(/IN \('a'\) THEN '' ELSE ','/);
    expect(sql).toContain('substr(');
  });
});
