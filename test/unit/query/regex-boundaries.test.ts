// Kusto's \b and \B are Unicode word boundaries, RE2's ASCII ones: the boundaries whose truth the
// pattern decides are dropped so the answer is Kusto's on every text (lib/query/regex-boundaries.ts);
// the others stay RE2's, which differs only next to a non-ASCII word character (docs/query-api.md).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { exactBoundaries } from '../../../lib/query/regex-boundaries';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';
import { rowsOf } from './duckdb-rows';

const duck = { ...baseOptions, dialect: 'duckdb' as const };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe('word boundaries the pattern decides', () => {
  it.each([
    ['\\b\\w+\\b', '\\w+'],
    ['\\b(\\w+)\\b', '(\\w+)'],
    ['(?i)\\b(?P<w>\\w+)\\b', '(?i)(?P<w>\\w+)'],
    ['\\b\\w{2,}\\b', '\\w{2,}'],
    ['\\b\\w+@\\w+\\b', '\\w+@\\w+'],
    ['\\s\\b\\w', '\\s\\w'],
    ['a\\b-', 'a-'],
    ['a\\Bb', 'ab'],
    ['[a-z]+\\b[,;]', '[a-z]+[,;]'],
    ['^\\b\\w+\\b', '^\\w+'],
    ['\\bfoo\\b$', '\\bfoo$'],
    // Through groups and alternation: every alternative's first or last item decides.
    ['(\\w+\\b|x)', '(\\w+|x)'],
    ['(,\\w+\\b)+', '(,\\w+)+'],
    ['(?:\\b\\w+\\b|-)', '(?:\\w+|-)'],
    ['\\b\\w+|-', '\\w+|-'],
    ['(\\s|-)\\b\\w', '(\\s|-)\\w'],
    ['\\w\\b(?:\\s|-)', '\\w(?:\\s|-)'],
    ['(a|b)\\B(c|d)', '(a|b)(c|d)'],
    ['^\\b(é|x)', '^(é|x)'],
    // Past an optional item: `\s` or `-` follows.
    ['a\\b\\s*-', 'a\\s*-'],
  ])('drops the boundaries of %s, always true there', (regex, exact) => {
    // Act / Assess
    expect(exactBoundaries(regex)).toBe(exact);
  });

  it.each([
    // A word's edges depend on the text around it.
    '\\bfoo\\b',
    '\\b\\d+\\b',
    // The match may end inside a run of word characters, so a later search may start inside one.
    '\\b\\w+@x',
    // Lazy, ungreedy, repeated or alternated: the greedy run's argument does not hold.
    '\\b\\w+?\\b',
    '(?U)\\b\\w+\\b',
    '(\\b\\w+\\b)+',
    '\\b\\w+|x',
    // One alternative a word character, the other not; a word character or the group again.
    '(a|-)\\b(c|d)',
    '(\\w+\\bx|,)',
    '\\b(?:\\w+|\\d+)\\b',
  ])('keeps the boundaries of %s', (regex) => {
    // Act / Assess
    expect(exactBoundaries(regex)).toBe(regex);
  });

  it('finds whole words of non-ASCII text as Kusto does', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"\\b\\w+\\b", 0, "éa"), b = extract_all(@"\\b(\\w+)\\b", "héllo wörld"), c = replace_regex("çava bien", @"\\b\\w+\\b", "X"),' +
        ' d = countof("ça et là", @"\\b\\w+\\b", "regex"), e = extract(@"^\\bé\\w*", 0, "été"), f = "x-é" matches regex @"-\\bé"',
    );

    // Assess: RE2's ASCII boundary would give a, [llo, rld], çX X, 1, "" and false.
    expect(rows).toEqual([['éa', ['héllo', 'wörld'], 'X X', 3, 'été', true]]);
  });

  it.each([
    ['\\bcat\\b', '(?:\\A|\\W)cat(?:\\W|\\z)'],
    ['\\b\\d+\\b', '(?:\\A|\\W)\\d+(?:\\W|\\z)'],
    ['\\b-', '\\w-'],
    ['-\\B', '-(?:\\W|\\z)'],
    ['\\b(?:cat|dog)s?', '(?:\\A|\\W)(?:cat|dog)s?'],
    // Inside the pattern, or next to items of both kinds: a match's ends would move the next search.
    ['a\\bcat', 'a\\bcat'],
    ['\\b(cat|-)', '\\b(cat|-)'],
  ])('writes %s, only tested for a match, as %s', (regex, exact) => {
    // Act / Assess
    expect(exactBoundaries(regex, true)).toBe(exact);
  });

  it('tests a literal word with matches regex as Kusto does, next to non-ASCII letters too', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = "écat" matches regex @"\\bcat\\b", b = "é cat." matches regex @"\\bcat\\b", c = "caté" matches regex @"\\bcat\\b",' +
        ' d = "x٣4" matches regex @"\\b\\d+\\b", e = "٣ 4" matches regex @"\\b\\d+\\b", f = "é-" matches regex @"\\b-"',
    );

    // Assess: RE2's ASCII boundary read é and ٣ as non-word characters: true, true, true, true, true, false.
    expect(rows).toEqual([[false, true, false, false, true, true]]);
  });

  it('keeps RE2 boundaries around a literal word, exact next to ASCII text', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract_all(@"\\b(cat)\\b", "cat cats cat, bobcat"), b = "the cat." matches regex @"\\bcat\\b", c = extract(@"\\bcat\\b", 0, "écat")',
    );

    // Assess: the known difference (docs/query-api.md): next to é, Kusto finds no boundary.
    expect(rows).toEqual([[['cat', 'cat'], true, 'cat']]);
  });

  it.each([
    ['print r = extract(@"\\bété", 0, "l\'été")', '1:19'],
    ['print r = "café" matches regex @"\\bcafé\\b"', '1:32'],
    ['print r = extract(@"\\b[é-ë]+", 0, " é")', '1:19'],
    // In an alternation: one alternative's first or last item is enough.
    ['print r = extract(@"\\b(été|hiver)\\b", 0, "l\'été")', '1:19'],
    ['print r = extract(@"(\\bété|x)", 0, "l\'été")', '1:19'],
    ['print r = extract(@"(?:hiver|été)\\b", 0, "été")', '1:19'],
    ['print r = extract(@"\\bé?x", 0, " éx")', '1:19'],
  ])('refuses %s: RE2 would read the non-ASCII letter as a non-word character', (query, position) => {
    // Act / Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message: 'next to a non-ASCII letter', position });
  });

  it('finds words through alternatives as Kusto does', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"(?:\\b\\w+\\b|-)", 0, "éa-"), b = extract_all(@"(\\w+\\b|,)", "héllo, wörld"), c = extract(@"(\\s|-)\\b\\w+", 0, "x-été")',
    );

    // Assess: RE2's ASCII boundary would give a, [llo, ",", rld] and "".
    expect(rows).toEqual([['éa', ['héllo', ',', 'wörld'], '-été']]);
  });

  it('runs a boundary next to a non-ASCII letter that the pattern decides', async () => {
    // Act
    const rows = await rowsOf(db, 'print a = extract(@"-\\bété", 0, "x-été"), b = extract(@"^\\bété", 0, "été")');

    // Assess
    expect(rows).toEqual([['-été', 'été']]);
  });
});
