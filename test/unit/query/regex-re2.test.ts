// Constant regexes are checked as RE2 reads them (re2 syntax page; DuckDB runs RE2): `(?P<name>...)`
// and RE2's own escapes and classes pass, while lookarounds, which JavaScript reads but the RE2
// DuckDB carries refuses unpositioned, are a 400 at the regex in every place a query writes one.
// (`(?<name>...)` runs: regex-named-groups.test.ts.)
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';

const duckdb = { ...baseOptions, dialect: 'duckdb' as const };

describe('regexes checked as RE2', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  async function run(query: string): Promise<unknown[][]> {
    const compiled = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' });
    return convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
  }

  it('runs (?P<name>...) groups, RE2 anchors and POSIX classes', async () => {
    // Act
    const rows = await run(
      'print a = extract("(?P<n>a)(b)", 2, "ab"), b = extract(@"\\A(\\d+)\\z", 1, "12"), c = extract("([[:alpha:]]+)", 1, "ab1"),' +
        ' d = extract_all(@"(?P<k>\\w)=(\\d)", "a=1 b=2"), e = "ab" matches regex "(?P<x>a)b"',
    );
    // Assess
    expect(rows).toEqual([
      [
        'b',
        '12',
        'ab',
        [
          ['a', '1'],
          ['b', '2'],
        ],
        true,
      ],
    ]);
  });

  it.each([
    ['print r = replace_regex("abc", "(?<=a)b", "x")', 'RE2 has no lookahead or lookbehind', '1:32', 'QUERY_SEMANTIC'],
    ['print r = "ab" matches regex "(?<!x)b"', 'RE2 has no lookahead or lookbehind', '1:30', 'QUERY_SEMANTIC'],
    [
      'print s = "2020-05" | parse kind=regex s with @"(?=\\d)" m:long',
      'RE2 has no lookahead or lookbehind',
      '1:47',
      'QUERY_SEMANTIC',
    ],
    [
      'print s = "a=1" | parse-kv s as (k:string) with (regex=@"(?<=x)(\\w)=(\\d)")',
      'RE2 has no lookahead or lookbehind',
      '1:56',
      'QUERY_SYNTAX',
    ],
  ])('refuses %s at the regex', (query, message, position, code) => {
    // Act / Assess
    expectRefusedAt(query, duckdb, { code, message, position });
  });
});
