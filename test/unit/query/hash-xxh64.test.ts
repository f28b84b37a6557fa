// hash() on DuckDB against an XXH64 written in TypeScript (xxh64-reference.ts), on strings long
// enough to take every path of the algorithm (32-byte stripes, 8-byte lanes, a 4-byte word, single
// bytes) and with multi-byte UTF-8 characters. The documentation's printed values are pinned by the
// conformance corpus (fn-v6-hash-*.json); the reference is checked against them here too.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { xxh64 } from './xxh64-reference';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('hash(): XXH64 in SQL', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('has a reference that gives the numbers the hash page prints', () => {
    // Assess
    expect(xxh64(utf8('World'))).toBe(1846988464401551951n);
    expect(xxh64(utf8('Hello'))).toBe(753694413698530628n);
  });

  it('equals the reference on strings of 0 to 80 characters, ASCII and multi-byte', async () => {
    // Prepare
    const alphabet = [...'ab Z9-é€😀'];
    const texts = Array.from({ length: 81 }, (_, n) =>
      Array.from({ length: n }, (_, k) => alphabet[(n * 7 + k * 3) % alphabet.length]).join(''),
    );
    const query = `datatable(s:string) [${texts.map((t) => `'${t}'`).join(', ')}] | extend h = tostring(hash(s))`;
    // Act
    const compiled = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
    const rows = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    ) as [string, string][];
    // Assess
    expect(rows).toHaveLength(texts.length);
    for (const [s, h] of rows) expect(h, JSON.stringify(s)).toBe(String(xxh64(utf8(s))));
  });
});
