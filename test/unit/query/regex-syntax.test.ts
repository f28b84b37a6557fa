// The rest of Kusto's regex syntax page checked against what RE2 (DuckDB) reads: flags, group
// names, repetitions, escapes and empty matches (lib/query/regex-groups.ts, regex-spelling.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { engineRegex } from '../../../lib/query/regex-groups';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';
import { rowsOf } from './duckdb-rows';

const duck = { ...baseOptions, dialect: 'duckdb' as const };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe("the regex syntax page's flags, groups, repetitions and escapes", () => {
  it('runs the flags as the page defines them, R dropped where multi-line mode is off', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"(?i)a+(?-i)b+", 0, "AaAbbB"), b = extract(@"a.b", 0, "a\\nb"), c = extract(@"(?s)a.b", 0, "a\\nb"),' +
        ' d = extract(@"(?m)^b$", 0, "a\\nb\\nc"), e = extract(@"^b$", 0, "a\\nb"), f = extract(@"(?U)a+", 0, "aaa"), g = extract(@"(?U)a+?", 0, "aaa"),' +
        ' h = extract(@"(?Ri)B", 0, "b")',
    );

    // Assess: the page's own example (a+ either case, b+ only b), . without s stops at a new line.
    expect(rows).toEqual([['AaAbb', '', 'a\nb', 'b', '', 'a', 'aaa', 'b']]);
  });

  it('runs repetitions, lazy quantifiers, octal and hex escapes and ASCII classes', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"a{2}?", 0, "aaa"), b = extract(@"a+?", 0, "aaa"), c = extract(@"a{1,}?", 0, "aaa"), d = extract(@"\\101\\x41\\x{41}", 0, "AAA"),' +
        ' e = extract(@"\\pN+", 0, "a1²"), f = extract(@"[[:^alpha:]]+", 0, "ab12c"), g = extract(@"[[:word:]]+", 0, "é_a1"), h = extract(@"\\a\\v", 0, "x\\a\\vy"),' +
        ' i = extract(@"\\Q\\w[a]\\E", 0, @"x\\w[a]")',
    );

    // Assess: RE2's quoted text (\\Q...\\E) keeps its \\w and class as text.
    expect(rows).toEqual([['aa', 'a', 'a', 'AAA', '1²', '12', '_a1', '\u0007\u000b', '\\w[a]']]);
  });

  it("reads group names with the page's characters, by number on the engine", async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"(?<n.a[0]>x)(?<név>y)(?P<ok>z)", 3, "xyz"), b = extract_all(@"(?<a.b>\\w)=(?<c>\\d)", dynamic(["a.b"]), "a=1 b=2")',
    );

    // Assess
    expect(rows).toEqual([['z', ['a', 'b']]]);
    expect(engineRegex('(?<a.b>x)(?<ok>y)', 'duckdb')).toBe('(x)(?P<ok>y)');
  });

  it('gives an empty match at each position (regex-matches.test.ts: where a match ended, none)', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = replace_regex("abc", @"x*", "-"), b = extract_all(@"(x*)", "abc"), c = countof("abc", "x*", "regex")',
    );

    // Assess
    expect(rows).toEqual([['-a-b-c-', ['', '', '', ''], 4]]);
  });

  it.each([
    ['print r = extract(@"a{,2}", 0, "aaa")', '1:19', 'write x{0,n}, not x{,n}'],
    ['print r = extract(@"[\\x{FFFFFF}a]", 0, "a")', '1:19', '\\x{FFFFFF} is past the last Unicode code point'],
    ['print r = extract(@"(?mR)^b$", 0, "a\\r\\nb")', '1:19', 'CRLF mode (the R flag) with multi-line mode'],
    ['print r = extract(@"(?R)x(?m:^b)", 0, "a")', '1:19', 'CRLF mode (the R flag) with multi-line mode'],
    // RE2 refuses counts past 1000, nested ones by their product: an engine error at run time before.
    ['print r = extract(@"a{1001}", 0, "a")', '1:19', 'a repetition count past 1000'],
    ['print r = extract(@"x(a{2}){600}", 0, "a")', '1:19', 'a repetition count past 1000'],
    ['print r = extract(@"(?:a{3}|b){334}", 0, "a")', '1:19', 'a repetition count past 1000'],
  ])('refuses %s, which RE2 would read otherwise', (query, position, message) => {
    // Act / Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });
});

describe('hex escapes with braces and counted repetitions', () => {
  it('runs a quantified hex escape, which the check read as a repetition of x and refused', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"\\x{41}+", 0, "xAAb"), b = extract(@"\\u{41}*b", 0, "AAb"), c = extract(@"\\x{1001}{2}", 0, "ခခ"),' +
        ' d = extract(@"(a{2}){500}", 0, "a"), e = extract(@"\\p{Greek}{3}", 0, "αβγ")',
    );

    // Assess: \x{1001} is a character, not a count; (a{2}){500} is within RE2's 1000.
    expect(rows).toEqual([['AA', 'AAb', 'ခခ', '', 'αβγ']]);
  });
});

describe('classes of every character, negated items under (?i), script codes (review findings)', () => {
  it('runs a class of every character ([\\s\\S], [\\w\\W]), which was written as an empty class the engine refused', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"[\\s\\S]+", 0, "a\\nb"), b = extract(@"(?i)[\\S\\s]+", 0, "é\\n"), c = extract(@"[\\w\\W]+", 0, "x y")',
    );
    // Assess
    expect(rows).toEqual([['a\nb', 'é\n', 'x y']]);
  });

  it('folds a negated item before negating it under (?i), as the page engine reads it', async () => {
    // Act: (?i)[\P{Ll}\W] took every letter back by folding the complement.
    const rows = await rowsOf(
      db,
      'print a = extract(@"(?i)[\\P{Ll}\\W]+", 0, "abc"), b = extract(@"(?i)[[:^alpha:]\\W]+", 0, "ks!"), c = extract(@"[\\P{Ll}]+", 0, "abCD")',
    );
    // Assess
    expect(rows).toEqual([['', '!', 'CD']]);
  });

  it('reads a script by its four-letter code (Grek, Latn), which RE2 does not know, from the Unicode tables', async () => {
    // Act: they were handed to the engine as written, an engine error.
    const rows = await rowsOf(
      db,
      'print a = extract(@"\\p{Grek}+", 0, "abαβγ"), b = extract(@"\\p{sc=Latn}+", 0, "αβabc"), c = extract(@"[\\p{Hira}]+", 0, "xひらがな")',
    );
    // Assess
    expect(rows).toEqual([['αβγ', 'abc', 'ひらがな']]);
  });
});

describe("Timestream's Java regexes (review B finding 7; checked as text: Timestream does not run here)", () => {
  it('computes POSIX classes, writes \\v as the vertical tab and folds Unicode under i', () => {
    // Act
    const spelled = ['[[:alpha:]]+', '[[:^digit:]x]', 'a\\vb', '(?i)é', '(?i:é)x'].map((r) =>
      engineRegex(r, 'timestream'),
    );
    // Assess: Java read [[:alpha:]] as the characters of ":alph", \v as any vertical space, (?i) as ASCII-only.
    expect(spelled).toEqual(['[A-Za-z]+', '[^0-9]', 'a\\x0Bb', '(?iu)é', '(?iu:é)x']);
  });

  it.each([
    ['a.c', 'a[^\\n]c'],
    ['(?s)a.c', '(?s)a.c'],
    ['^a$', '^a\\z'],
    ['(?m)^a$', '(?m)(?:\\A|(?<=\\n))a(?=\\n|\\z)'],
    ['(?U)a.+$', 'a[^\\n]+?\\z'],
    ['[.$^]\\.\\$', '[.$^]\\.\\$'],
  ])('writes %s with the new line as the only line end, as the page reads ., ^ and $: %s', (regex, java) => {
    // Java also ends lines at \r, \x85, \u2028 and \u2029 (. stops there, $ matches before a last one).
    // Act / Assess
    expect(engineRegex(regex, 'timestream')).toBe(java);
    expect(engineRegex(regex, 'duckdb')).toBe(regex);
  });

  it('trims a regex at the end of the text, not before a last line end as Java reads $', () => {
    // Act
    const sql = compile('print t = trim_end("x", "ax")', { ...baseOptions, dialect: 'timestream' }).sql;

    // Assess
    expect(sql).toContain(`'(?:x)+\\z'`);
  });

  it.each([
    ['(?U)a+', 'a+?'],
    ['(?U)a+?b{2,3}c??', 'a+b{2,3}?c?'],
    ['x(?U:a*)b*', 'x(?:a*?)b*'],
    ['(?U)a*(?-U)b*', 'a*?b*'],
    ['(?iU)[+*]a{2}\\*', '(?iu)[+*]a{2}?\\*'],
  ])(
    'writes the ungreedy flag %s with its quantifiers swapped: Java has none, and its U is Unicode classes',
    (regex, java) => {
      // Act / Assess
      expect(engineRegex(regex, 'timestream')).toBe(java);
      expect(engineRegex(regex, 'duckdb')).toBe(regex);
    },
  );
});
