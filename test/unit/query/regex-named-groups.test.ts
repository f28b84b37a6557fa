// Named groups written `(?<name>...)` (Kusto's regex syntax page lists it beside `(?P<name>...)`):
// every place a constant regex reaches SQL hands DuckDB's RE2 `(?P<name>` and Timestream's Java
// regex a plain group, so both spellings answer alike with the same group numbers.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows } from '../../../lib/query/index';
import { engineRegex } from '../../../lib/query/regex-groups';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

describe('engineRegex', () => {
  it.each([
    ['(?<year>[0-9]{4})-([0-9][0-9])', '(?P<year>[0-9]{4})-([0-9][0-9])', '([0-9]{4})-([0-9][0-9])'],
    ['(?P<k>[a-z]+)=(?<v>[a-z]+)', '(?P<k>[a-z]+)=(?P<v>[a-z]+)', '([a-z]+)=([a-z]+)'],
    // Java's group names are letters and digits: Timestream gets plain groups, numbered the same.
    ['(?<my_key>[a-z]+)=(?P<_v2>[a-z]+)', '(?P<my_key>[a-z]+)=(?P<_v2>[a-z]+)', '([a-z]+)=([a-z]+)'],
    // Not inside a class, not escaped, not a lookbehind, not a non-capturing group.
    ['[(?<a>]x', '[(?<a>]x', '[(?<a>]x'],
    ['[]a(?<b>](?<c>d)', '[]a(?<b>](?P<c>d)', '[]a(?<b>](d)'],
    ['\\(?<a>x', '\\(?<a>x', '\\(?<a>x'],
    ['(?<=a)(?<!b)(?:c)', '(?<=a)(?<!b)(?:c)', '(?<=a)(?<!b)(?:c)'],
    ['', '', ''],
  ])('%s is %s for DuckDB and %s for Timestream', (regex, duckdb, timestream) => {
    // Act / Assess
    expect(engineRegex(regex, 'duckdb')).toBe(duckdb);
    expect(engineRegex(regex, 'timestream')).toBe(timestream);
  });
});

describe('(?<name>...) in every regex place', () => {
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

  // Each query written with (?<name>; its twin with (?P<name> must answer the same, and both what is expected.
  it.each<[string, string, unknown[][]]>([
    ['extract', 'print r = extract(@"(?<year>\\d{4})-(\\d\\d)", 2, "2020-05")', [['05']]],
    [
      'extract_all with captureGroups by name',
      'print r = extract_all(@"(?<k>\\w+)=(?<v>\\w+)", dynamic(["v", "k"]), "a=1 b=2")',
      [
        [
          [
            ['1', 'a'],
            ['2', 'b'],
          ],
        ],
      ],
    ],
    ['replace_regex', 'print r = replace_regex("a=1 b=2", @"(?<k>\\w)=(\\d)", @"\\2:\\1")', [['1:a 2:b']]],
    ['replace', 'print r = replace(@"(?<k>\\w)=(\\d)", @"\\2", "a=1 b=2")', [['1 2']]],
    ['countof regex', 'print r = countof("a1b22c", @"(?<d>\\d)", "regex")', [[3]]],
    [
      'trim, trim_start, trim_end',
      'print a = trim(@"(?<s>-)", "--x--"), b = trim_start(@"(?<s>-)", "--x--"), c = trim_end(@"(?<s>-)", "--x--")',
      [['x', 'x--', '--x']],
    ],
    ['indexof_regex', 'print r = indexof_regex("ab12", @"(?<d>\\d)")', [[2]]],
    [
      'matches regex',
      'print a = "2020-05" matches regex @"^(?<y>\\d{4})-", b = "x" matches regex "(?<y>a)"',
      [[true, false]],
    ],
    [
      'parse kind=regex',
      'print s = "2020-05 ok" | parse kind=regex s with @"(?<y>\\d{4})-" m:long " " w',
      [['2020-05 ok', 5, 'ok']],
    ],
    [
      'parse-where kind=regex',
      'datatable(s:string)["2020-05 ok", "no"] | parse-where kind=regex s with @"(?<y>\\d{4})-" m:long " " w',
      [['2020-05 ok', 5, 'ok']],
    ],
    [
      'parse-kv with regex',
      'print s = "a=1, b=2" | parse-kv s as (a:long, b:long) with (regex=@"(?<k>\\w+)=(?<v>\\d+)")',
      [['a=1, b=2', 1, 2]],
    ],
  ])('%s', async (_place, query, expected) => {
    // Act
    const rows = await run(query);
    const twin = await run(query.replaceAll('(?<', '(?P<'));
    // Assess
    expect(query).not.toContain('(?P<');
    expect(rows).toEqual(expected);
    expect(rows).toEqual(twin);
  });

  it('hands Timestream plain groups and DuckDB (?P<name>', () => {
    // Arrange
    const query = 'print r = extract(@"(?P<year>[0-9]{4})-(?<m>[0-9][0-9])", 2, "2020-05")';
    // Act
    const timestream = compile(query, { ...GOLDEN_OPTIONS, dialect: 'timestream' }).sql;
    const duckdb = compile(query, { ...GOLDEN_OPTIONS, dialect: 'duckdb' }).sql;
    // Assess
    expect(timestream).toContain("'([0-9]{4})-([0-9][0-9])', 2");
    expect(duckdb).toContain('(?P<year>[0-9]{4})-(?P<m>[0-9][0-9])');
  });
});
