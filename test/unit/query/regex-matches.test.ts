// A regex's successive matches as Kusto reports them (lib/query/regex-matches.ts): non-overlapping,
// an empty match kept unless it sits where the previous match ended, as the regex page's engine and
// RE2's global replace skip it. The engines' regexp_extract_all loops reported such a match, and
// DuckDB's one empty match found past its search start twice ("ab" with \b gave 3).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { canMatchEmpty } from '../../../lib/query/regex-groups';
import { GOLDEN_OPTIONS, openFixtureDb } from '../../golden/fixture-db';
import { rowsOf } from './duckdb-rows';

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe('successive matches of a regex that can match the empty string', () => {
  it('counts each empty match once and none where a match ended', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = countof("ab", @"\\b", "regex"), b = countof("abc", "", "regex"), c = countof("abc", "x*", "regex"), d = countof("baaa", "a*", "regex"),' +
        ' e = countof("a\\nb", "(?m)^", "regex"), f = countof("abc", @"\\B", "regex"), g = countof("abc", "$", "regex"), h = countof("aé", "", "regex"),' +
        ' i = countof("", "", "regex"), j = countof("abcabc", "a.c", "regex")',
    );

    // Assess: \b before a and after b; 4 empty matches; "" and "aaa" (not the empty one at the end);
    // ^ at 0 and after the new line; \B at 1 and 2; $ once; one empty match per character and the end.
    expect(rows).toEqual([[2, 4, 4, 2, 2, 2, 1, 3, 1, 2]]);
  });

  it('extracts and finds the same matches, and replace_regex replaces them', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract_all(@"(a*)", "baaa"), b = extract_all(@"(\\b)", "ab"), c = extract_all(@"(\\w*)", "door-open"), d = extract_all(@"(a)?(b*)", dynamic([2]), "xabbab"),' +
        ' e = replace_regex("abxd", "x*", "-"), f = countof("abxd", "x*", "regex"), g = indexof_regex("abxd", "x*", 0, -1, 4), h = indexof_regex("ab", @"\\b", 0, -1, 2),' +
        ' i = indexof_regex("baaa", "a*", 0, -1, 3), j = indexof_regex("éab", @"\\b", 0, -1, 2)',
    );

    // Assess: "abxd" with x*: empty at 0 and 1, "x", empty at 4 (not at 3, where "x" ended).
    expect(rows).toEqual([[['', 'aaa'], ['', ''], ['door', 'open'], ['', 'bb', 'b'], '-a-b-d-', 4, 4, 2, -1, 3]]);
  });

  it('reads the regex of indexof_regex with its own flags: . stops at a new line without s', async () => {
    // Act
    const rows = await rowsOf(db, 'print a = indexof_regex("a\\nb", "a.b"), b = indexof_regex("xa\\nb", "(?s)a.b")');

    // Assess: the prefix the search adds set s for the whole regex (0 was answered).
    expect(rows).toEqual([[-1, 1]]);
  });

  it('keeps the plain search for a regex that cannot match the empty string', () => {
    // Act
    const sql = compile('print c = countof("abcabc", "a.c", "regex")', { ...GOLDEN_OPTIONS, dialect: 'duckdb' }).sql;

    // Assess
    expect(sql).toContain(`len(regexp_extract_all('abcabc', 'a.c'))`);
  });

  it('writes the same selection for Timestream', () => {
    // Act
    const sql = compile('print c = countof("ab", @"\\b", "regex"), a = extract_all(@"(x*)", "abc")', {
      ...GOLDEN_OPTIONS,
      dialect: 'timestream',
    }).sql;

    // Assess
    expect(sql).toContain(`regexp_extract_all('ab', '(?s:.*?)(?:\\b)')`);
    expect(sql).toContain(`regexp_extract_all('abc', '(?s:.*?)(?:(x*))', 1)`);
  });
});

describe('whether a regex can match the empty string', () => {
  it.each(['x*', '\\b', '', 'a|', '^', 'a{0,2}', '\\p{L}*', '(?P<x>a)?', '\\x{41}*', '\\Q\\E', '(?x) a *'])(
    '%s can',
    (regex) => {
      // Act / Assess
      expect(canMatchEmpty(regex)).toBe(true);
    },
  );

  it.each(['(\\d+)', '(?i)a', '\\\\b', '[a&&b]', '\\pL', '\\p{Greek}+', '[^a]', '.', '(a*)b', 'a\\b', '\\U00000041'])(
    '%s cannot',
    (regex) => {
      // Act / Assess
      expect(canMatchEmpty(regex)).toBe(false);
    },
  );
});
