// Simple case folding of class items under the i flag (lib/query/regex-codepoints.ts caseFolded):
// read from case classes built once per process, where each fold was a scan of all of Unicode.
// Checked against JavaScript's own `iu` matching, which folds as Kusto's regex engine does.
import { describe, expect, it } from 'vitest';
import { CASED_LIMIT, caseFolded, fromRanges, type CodePoints } from '../../../lib/query/regex-codepoints';

/** The code points up to `last` that a one-character test matches, as ranges. */
function scanned(test: RegExp, first: number, last: number): CodePoints {
  const pairs: [number, number][] = [];
  for (let c = first; c <= last; c++) if (test.test(String.fromCodePoint(c))) pairs.push([c, c]);
  return fromRanges(pairs);
}

/** The code points up to CASED_LIMIT whose bit `bit` is set, as ranges. */
function withBit(bit: number): CodePoints {
  const pairs: [number, number][] = [];
  const size = 1 << bit;
  for (let lo = size; lo <= CASED_LIMIT; lo += 2 * size) pairs.push([lo, Math.min(lo + size - 1, CASED_LIMIT)]);
  return fromRanges(pairs);
}

describe('case folding under the i flag', () => {
  it('folds as JavaScript matches case-insensitively, for sets that split every pair of code points', () => {
    // Each two code points differ in a bit, so a case class the table split in two would show in
    // one of these sets: its scan brings the other part, the table would not.
    for (let bit = 0; bit <= 16; bit++) {
      // Prepare
      const set = withBit(bit);
      const body = set.map((c, i) => (i % 2 === 0 ? `\\u{${c.toString(16)}}` : `-\\u{${c.toString(16)}}`)).join('');

      // Act
      const folded = caseFolded(set);

      // Assess: the scan reads the set as a class of its ranges under `iu`.
      expect(folded).toEqual(scanned(new RegExp(`^[${body}]$`, 'iu'), 0, CASED_LIMIT));
    }
  });

  it('finds no code point with another case past CASED_LIMIT, where the table stops', () => {
    // Act
    const cased = scanned(/^[\p{Changes_When_Casemapped}\p{Changes_When_Casefolded}]$/u, CASED_LIMIT + 1, 0x10ffff);

    // Assess
    expect(cased).toEqual([]);
  });

  it('brings the Kelvin sign with k, the long s with s, and both Greek iota-dialytika-tonos', () => {
    // Act / Assess
    expect(caseFolded([0x6b, 0x6b])).toEqual([0x4b, 0x4b, 0x6b, 0x6b, 0x212a, 0x212a]);
    expect(caseFolded([0x73, 0x73])).toEqual([0x53, 0x53, 0x73, 0x73, 0x17f, 0x17f]);
    expect(caseFolded([0x390, 0x390])).toEqual([0x390, 0x390, 0x1fd3, 0x1fd3]);
  });
});
