// What the ninth docs sweep fixed (docs/query-api.md, "The docs' examples"). The pages' printed
// examples are conformance cases (test/conformance/cases/fn-sweep9-*.json); these pin the rules
// around them.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { openFixtureDb } from '../../golden/fixture-db';
import { baseOptions, expectRefusedAt } from './compile-failure';
import { rowsOf } from './duckdb-rows';

const ts = { ...baseOptions, dialect: 'timestream' as const };
const duck = { ...baseOptions, dialect: 'duckdb' as const };

let db: DuckDBConnection;
beforeAll(async () => {
  db = await openFixtureDb();
});

describe('reverse() of a datetime', () => {
  it('reverses its text with 7 fractional digits, as the reverse page prints it', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = reverse(datetime(2017-10-15 12:00)), b = reverse(datetime(2020-01-02 03:04:05.25)), c = reverse(datetime(null))',
    );

    // Assess: not tostring's 2017-10-15T12:00:00Z; a null datetime is "" as tostring gives.
    expect(rows).toEqual([['Z0000000.00:00:21T51-01-7102', 'Z0000052.50:40:30T20-10-0202', '']]);
  });

  it('keeps tostring text for the other types', async () => {
    // Act
    const rows = await rowsOf(db, 'print a = reverse(12345), b = reverse(123.45), c = reverse(3h), d = reverse("abc")');

    // Assess
    expect(rows).toEqual([['54321', '54.321', '00:00:30', 'cba']]);
  });

  it('writes the same 7-digit text on Timestream', () => {
    // Act
    const { sql } = compile('print r = reverse(datetime(2017-10-15 12:00))', ts);

    // Assess: date_format's %f (microseconds) and one more zero, as the hash functions hash.
    expect(sql).toContain('date_format(');
    expect(sql).toContain("'0Z'");
  });
});

describe("regexes in the syntax of Kusto's regex syntax page", () => {
  it('reads \\w, \\d and \\s as Unicode classes, also inside a class', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"\\w+", 0, "héllo wörld"), b = extract(@"[\\w-]+", 0, "été-là x"), c = extract(@"\\d+", 0, "x٣٤5"),' +
        ' d = strlen(extract(@"\\s+", 0, "a\u00a0\u2003b")), e = extract(@"\\W+", 0, "héllo, wörld"), f = extract(@"[[:alpha:]\\w]+", 0, "$ab_é$")',
    );

    // Assess: RE2's own \\w, \\d and \\s are ASCII (h, 5, no match).
    expect(rows).toEqual([['héllo', 'été-là', '٣٤5', 2, ', ', 'ab_é']]);
  });

  it("runs the page's hex escapes, verbose mode and the u flag off", async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"\\x{41}\\u0042\\x43\\u{44}\\U00000045\\U{46}", 0, "ABCDEF"), b = extract(@"(?x) a \\ b # comment", 0, "a b"),' +
        ' c = extract(@"(?-u:\\b).+(?-u:\\b)", 0, "$$abc$$"), d = extract(@"(?i-u)A+", 0, "xaAa"), e = extract(@"(?-u:\\w+)", 0, "héllo")',
    );

    // Assess: the page's own examples (`$$abc$$`), and with the u flag off \\w is ASCII again.
    expect(rows).toEqual([['ABCDEF', 'a b', 'abc', 'aAa', 'h']]);
  });

  it('reads general categories by their long names, as the page writes \\p{Letter}', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = extract(@"\\p{Letter}+", 0, "12abé3"), b = extract(@"\\P{letter}+", 0, "ab12c"),' +
        ' c = extract(@"[\\p{Decimal_Number}x]+", 0, "ax٣2b"), d = extract(@"\\p{Greek}+", 0, "xαβ"), e = extract(@"\\pL+", 0, "1ab")',
    );

    // Assess: RE2 knows only the short names (L, Nd) and the scripts.
    expect(rows).toEqual([['abé', '12', 'x٣2', 'αβ', 'ab']]);
  });

  it('hands Timestream the same Unicode classes', () => {
    // Act
    const { sql } = compile('print r = extract(@"(\\d+)", 1, "x")', ts);

    // Assess
    expect(sql).toContain('(\\p{Nd}+)');
  });

  it.each([
    ['print r = extract(@"\\<(\\w+)", 1, "  hello")', '1:19', 'start/end-of-word assertions'],
    ['print r = extract(@"\\b{start}\\w+", 0, "  hello")', '1:19', 'start/end-of-word assertions'],
    // Verbose mode is read only as the pattern's first group; later (or scoped) its whitespace would differ.
    ['print r = extract(@"(?i)(?x)a b", 0, "xA B")', '1:19', 'verbose flag x'],
    ['print r = extract(@"(?x:a b)c", 0, "abc")', '1:19', 'verbose flag x'],
    ['print r = extract(@"(?x)a(?-x) b", 0, "a b")', '1:19', 'verbose flag x'],
    // (The class set operations run: regex-classes.test.ts.)
  ])('refuses %s, which RE2 would read otherwise', (query, position, message) => {
    // Act / Assess
    expectRefusedAt(query, duck, { code: 'QUERY_SEMANTIC', message, position });
  });

  it('keeps a range ending in - and a POSIX class inside a class', async () => {
    // Act
    const rows = await rowsOf(
      db,
      'print a = replace_regex("a-b+c", @"[+--]", "_"), b = extract(@"[[:digit:]x]+", 0, "ax12b")',
    );

    // Assess
    expect(rows).toEqual([['a_b_c', 'x12']]);
  });
});
