// Kusto's case-insensitive string operators (=~, !~, in~, contains, startswith, endswith, has)
// fold ASCII letters only: "Case-insensitive operators are currently supported only for
// ASCII-text. For non-ASCII comparison, use the tolower() function" (the in~, startswith,
// endswith and hasprefix pages). The engines' lower() and RE2's (?i) fold every letter, so a
// constant holding a letter beyond ASCII is matched by a regex that folds its ASCII letters alone.

/** A letter or digit, written as is in a regex; anything else is written by its code point. */
const REGEX_META_FREE = /^[\p{L}\p{N}]$/u;
const ASCII_LETTER = /^[A-Za-z]$/;

/** True when the text holds a cased letter beyond ASCII (É, ß, Ж): lower() would fold it too. */
export function foldsBeyondAscii(text: string): boolean {
  for (const ch of text) if (ch.codePointAt(0)! > 127 && ch.toLowerCase() !== ch.toUpperCase()) return true;
  return false;
}

/**
 * The text as a regex matching itself; with asciiCaseless an ASCII letter matches either case
 * (`[aA]`), every other character only as written. `\x{...}` escapes read the same in RE2 (DuckDB)
 * and Java (Timestream).
 */
export function literalPattern(text: string, asciiCaseless: boolean): string {
  let pattern = '';
  for (const ch of text) {
    if (asciiCaseless && ASCII_LETTER.test(ch)) pattern += `[${ch.toLowerCase()}${ch.toUpperCase()}]`;
    else pattern += REGEX_META_FREE.test(ch) ? ch : `\\x{${ch.codePointAt(0)!.toString(16)}}`;
  }
  return pattern;
}

/** Where a caseless operator's constant must sit in the text. */
export type CaselessPlace = 'whole' | 'anywhere' | 'start' | 'end';

/**
 * The regex of a caseless operator whose constant is `text`, or of in~ whose constants are `text`
 * (one alternation: a regex per constant, OR-ed, made a long in~ list far slower). \A and \z:
 * Java's $ also matches before a final newline.
 */
export function caselessRegex(text: string | readonly string[], place: CaselessPlace): string {
  const texts = typeof text === 'string' ? [text] : text;
  const patterns = texts.map((t) => literalPattern(t, true));
  const body = patterns.length === 1 ? patterns[0]! : `(?:${patterns.join('|')})`;
  const start = place === 'whole' || place === 'start' ? '\\A' : '';
  const end = place === 'whole' || place === 'end' ? '\\z' : '';
  return `${start}${body}${end}`;
}
