// Character classes and Unicode properties as Kusto's regex syntax page defines them, where RE2
// (DuckDB) reads them otherwise or not at all: negated Unicode Perl classes inside a class, the
// class set operations and nesting, loose and long property names, binary properties
// (lib/query/regex-classes.ts, regex-properties.ts, regex-spelling.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { codePointsOf } from '../../../lib/query/regex-codepoints';
import { classCodePoints, parseClass, WORD_JS } from '../../../lib/query/regex-classes';
import { engineRegex } from '../../../lib/query/regex-groups';
import { WORD } from '../../../lib/query/regex-spelling';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';
import { rowsOf } from './duckdb-rows';

const duck = { ...baseOptions, dialect: 'duckdb' as const };
const ts = { ...baseOptions, dialect: 'timestream' as const };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe('negated Unicode Perl classes inside a class', () => {
  it('reads \\W, \\S and \\D inside a class as the complements of the Unicode classes', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"[^\\W\\d_]+", 0, "héllo2"), b = strlen(extract(@"[^\\S\\n]+", 0, "a \u00a0\u2003\\nb")),' +
        ' c = extract(@"[\\W\\d]+", 0, "é٣-x"), d = extract(@"[\\Da]+", 0, "٣xé٣"), e = extract(@"[^\\W]+", 0, "-ⓐé_1-")',
    );

    // Assess: RE2's ASCII \\W would give h, 0 (no match: its \\S takes U+00A0), -, xé, é... as non-word.
    expect(rows).toEqual([['héllo', 3, '٣-', 'xé', 'ⓐé_1']]);
  });

  it('follows the i flag where it is on, folding each item before the negation', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"(?i)[^\\Wa]+", 0, "AbC"), b = extract(@"[^\\Wa]+", 0, "AbCa"), c = extract(@"(?i:[^\\Wk]+)", 0, "xK\u212Ay"),' +
        ' d = extract(@"(?i:x)[^\\Wa]+", 0, "xAb")',
    );

    // Assess: with i, a excludes A too (and k the Kelvin sign); outside the flag's group it does not.
    expect(rows).toEqual([['bC', 'AbC', 'x', 'xAb']]);
  });

  it('spells \\w outside a class as the Unicode word characters, Alphabetic symbols included', () => {
    // Prepare: WORD in JavaScript's spelling, scanned as the page's \\w (JavaScript's own properties) is.
    const js = WORD.replace(/\\x\{([0-9A-F]+)\}/g, '\\u{$1}');

    // Act / Assess
    expect(codePointsOf(js)).toEqual(codePointsOf(WORD_JS));
  });
});

describe('class set operations and nesting', () => {
  it("matches what the regex syntax page's class table defines", async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"[x[^xyz]]+", 0, "yzxab"), b = extract(@"[a-y&&xyz]+", 0, "zxya"), c = extract(@"[0-9&&[^4]]+", 0, "41235"),' +
        ' d = extract(@"[0-9--4]+", 0, "41235"), e = extract(@"[a-g~~b-h]+", 0, "bcahg"), f = extract(@"[\\[\\]]+", 0, "a[]b"),' +
        ' g = "ab" matches regex @"[a&&b]", h = extract(@"[\\p{Greek}[:digit:]]+", 0, "xα1β٣"), i = extract(@"[\\p{Greek}&&\\pL]+", 0, "x;αβ;"),' +
        ' j = extract(@"[\\pL--\\p{Greek}&&\\p{Uppercase}]+", 0, "aΑBCd"), k = extract(@"[^a-z&&b]+", 0, "bac")',
    );

    // Assess
    expect(rows).toEqual([['xab', 'xy', '1235', '1235', 'ah', '[]', false, 'α1β', 'αβ', 'BC', 'ac']]);
  });

  it.each([
    ['[^\\W\\d_]', '[^[^\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]\\p{Nd}_]'],
    ['[\\pL--\\p{Greek}&&\\p{Uppercase}]', '[[\\p{L}--\\p{Script=Greek}]&&\\p{Uppercase}]'],
    ['[^a-z&&b]', '[^[a-z]&&[b]]'],
    ['[^\\S\\n]', '[^[^\\p{White_Space}]\\n]'],
  ])("computes %s as JavaScript's v-flag class set arithmetic does", (kusto, js) => {
    // Prepare
    const mode = { verbose: false, ascii: false };
    const parsed = parseClass(kusto, 0, mode)!;

    // Act
    const ours = classCodePoints(parsed.node, mode, (set) => set);

    // Assess: the same class written in JavaScript's unicodeSets syntax, scanned over all of Unicode.
    expect(ours).toEqual(codePointsOf(js.slice(1, -1), 'v'));
  });

  it('keeps group numbers past a nested class', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"[(x[^)]]+(\\d)", 1, "(a1"), b = extract_all(@"([a-c--b])([[:digit:]&&[^1]])", "a1a2c3")',
    );

    // Assess
    expect(rows).toEqual([
      [
        '1',
        [
          ['a', '2'],
          ['c', '3'],
        ],
      ],
    ]);
  });

  it('hands Timestream the same ranges (Java reads \\x{..})', () => {
    // Act
    const { sql } = compile('print r = extract(@"[a-y&&xyz]", 0, "x")', ts);

    // Assess
    expect(sql).toContain("'[xy]'");
  });

  it('writes a computed class with the categories it holds whole, then ranges', () => {
    // Act
    const letters = engineRegex('[^\\W\\d_]', 'duckdb');
    const others = engineRegex('[\\W\\d]', 'duckdb');

    // Assess: letters, marks and letter numbers whole; the connectors but _, joiners and circled
    // letters as ranges; the complement written negated; no surrogates; a few hundred characters.
    expect(letters).toMatch(/^\[\\p\{L\}\\p\{M\}\\p\{Nl\}\\x\{200C\}/);
    expect(others).toMatch(/^\[\^\\p\{L\}\\p\{M\}\\p\{Nl\}\\x\{5F\}/);
    expect(letters).not.toContain('D800');
    expect(letters.length).toBeLessThan(400);
  });
});

describe('Unicode property names', () => {
  it('reads scripts, categories and binary properties by any of their names', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"\\p{Script=Greek}+", 0, "aαβ"), b = extract(@"\\p{sc:greek}+", 0, "aαβ"), c = extract(@"\\p{gc=Uppercase Letter}+", 0, "aBC"),' +
        ' d = extract(@"\\p{Alphabetic}+", 0, "1ⓐb2"), e = extract(@"\\P{alpha}+", 0, "ab12c"), f = extract(@"[\\w&&\\p{ascii}]+", 0, "éab"),' +
        ' g = strlen(extract(@"\\p{White_Space}+", 0, "a \u2003b")), h = extract(@"\\p{^Greek}+", 0, "αab"), i = extract(@"\\p{lu}+", 0, "aBC")',
    );

    // Assess
    expect(rows).toEqual([['αβ', 'αβ', 'BC', 'ⓐb', '12', 'ab', 2, 'ab', 'BC']]);
  });

  it('names a script as Java does on Timestream (IsGreek), as RE2 does on DuckDB', () => {
    // Act
    const java = engineRegex('\\p{Script=Greek}[\\P{greek}\\p{Lu}]', 'timestream');
    const re2 = engineRegex('\\p{Script=Greek}[\\P{greek}\\p{Lu}]', 'duckdb');

    // Assess
    expect(java).toBe('\\p{IsGreek}[\\P{IsGreek}\\p{Lu}]');
    expect(re2).toBe('\\p{Greek}[\\P{Greek}\\p{Lu}]');
  });

  it.each([
    ['print r = extract(@"\\p{IsGreek}+", 0, "α")', '1:19', 'unknown Unicode class \\p{IsGreek}'],
    ['print r = "a" matches regex @"[\\p{Klingon}a]"', '1:29', 'unknown Unicode class \\p{Klingon}'],
  ])('refuses %s at the regex', (query, position, message) => {
    // Act / Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });
});
