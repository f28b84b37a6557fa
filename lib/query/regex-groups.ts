// The capturing groups of a regular expression (RE2 syntax, as Kusto's): `(`, `(?P<name>` and
// `(?<name>`, not escaped and not inside a character class, in the order RE2 numbers them. Used
// where a query's own regex sits beside groups the compiler adds (parse kind=regex) or where its
// groups are chosen by number or name (extract_all's captureGroups). Kusto's regex syntax page lists
// both named forms; each engine is handed the one it reads (engineRegex).
import { propertyEscape } from './regex-properties';
import { boundaryProblem, exactBoundaries } from './regex-boundaries';
import { parseClass } from './regex-classes';
import { cacheSet } from './regex-codepoints';
import { classMode, kustoRegexSpelling } from './regex-spelling';
import type { DialectName } from './sql/dialect';

/**
 * Where each group opens: every `(` that is not escaped and not inside a character class, in order.
 * The one scan of a regex's structure that naming, checking and rewriting groups share.
 */
function groupOpenings(regex: string): number[] {
  const at: number[] = [];
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(regex, i) - 1;
    else if (c === '(') at.push(i);
  }
  return at;
}

/**
 * The index just past the class opening at `start` (a `[`), or the regex's length when it is not
 * closed: nested classes (`[x[^xyz]]`, the page's syntax) and POSIX classes (`[[:alpha:]]`) inside,
 * escapes skipped, a leading `]` a member.
 */
export function classEnd(regex: string, start: number): number {
  let i = start + 1;
  if (regex[i] === '^') i++;
  if (regex[i] === ']') i++; // a leading ] is a member
  for (; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') i++;
    else if (c === ']') return i + 1;
    else if (c === '[' && regex[i + 1] === ':' && regex.indexOf(':]', i + 2) >= 0) i = regex.indexOf(':]', i + 2) + 1;
    else if (c === '[') i = classEnd(regex, i) - 1;
  }
  return regex.length;
}

/**
 * A named group's opening and its name, as the regex syntax page allows names: an `_` or an
 * alphabetic code point, then alphanumeric ones, dots, underscores and square brackets.
 */
const NAMED_GROUP = /^\(\?P?<([\p{Alphabetic}_][\p{Alphabetic}\p{Nd}\p{Nl}\p{No}_.[\]]*)>/u;

/** Each capturing group's name, or undefined for an unnamed one; its number is its index + 1. */
export function captureGroupNames(regex: string): (string | undefined)[] {
  const names: (string | undefined)[] = [];
  for (const i of groupOpenings(regex)) {
    if (regex[i + 1] !== '?') names.push(undefined);
    else {
      const named = NAMED_GROUP.exec(regex.slice(i));
      if (named) names.push(named[1]);
    }
  }
  return names;
}

/**
 * What keeps a constant regex from running as RE2 (DuckDB's regex library), or undefined when it
 * runs: first the constructs JavaScript reads but RE2 refuses (lookarounds), then JavaScript's
 * reading of the rest (inline flag groups dropped, `(?P<name>` written `(?<name>`, and no `u` flag,
 * which refused RE2's own `\A`, `\z`, `\pN` and `[[:alpha:]]`), which catches unbalanced groups and
 * the like before an engine reports them unpositioned. `(?<name>` passes: engineRegex rewrites it.
 */
export function re2Problem(regex: string): string | undefined {
  const construct = notRe2(regex);
  if (construct !== undefined) return construct;
  try {
    new RegExp(jsReading(readClasses(regex)));
    return undefined;
  } catch {
    return 'invalid regular expression';
  }
}

/** The regex, its classes read (readClasses), as JavaScript reads it: flag groups dropped, names JavaScript's. */
function jsReading(classesRead: string): string {
  return classesRead
    .replace(/\(\?[a-zA-Z]*(-[a-zA-Z]*)?\)/g, '')
    .replace(/\(\?[a-zA-Z]*(-[a-zA-Z]*)?:/g, '(?:')
    .replace(/\(\?P</g, '(?<')
    .replace(/\(\?<[^>=!]*[.[\]][^>]*>/g, '(');
}

/**
 * Whether the regex may match the empty string somewhere in a text (`x*`, `\b`, `^`, `a|`): read as
 * JavaScript reads it (re2Problem's reading) with its assertions taken out, which can only let it
 * match more, so that a regex found not to is one that never does.
 */
export function canMatchEmpty(regex: string): boolean {
  const known = nullable.get(regex);
  if (known !== undefined) return known;
  let empty = true;
  // Verbose mode's spaces and comments are not read here: assumed to match it.
  if (!classMode(regex).verbose)
    try {
      empty = new RegExp(`^(?:${jsReading(withoutAssertions(readClasses(regex)))})$`).test('');
    } catch {
      // Not read: assumed to match it.
    }
  return cacheSet(nullable, regex, empty);
}

/**
 * The regex (its classes and hex escapes read: no `^` left inside a class) with `^`, `$`, `\A`,
 * `\z`, `\b` and `\B` as empty groups and each property escape as one character, which JavaScript
 * without the `u` flag would read as several (`\p{L}*` as `p{L` and a repeated `}`). Quoted text (`\Q..\E`) is not
 * read: the regex is assumed to match the empty string.
 */
function withoutAssertions(classesRead: string): string {
  if (classesRead.includes('\\Q')) return '';
  let out = '';
  for (let i = 0; i < classesRead.length; i++) {
    const c = classesRead[i]!;
    if (c !== '\\') out += c === '^' || c === '$' ? '(?:)' : c;
    else {
      const escape = propertyEscape(classesRead.slice(i))?.text;
      const next = classesRead[i + 1] ?? '';
      out += escape ? 'x' : /^[bBAz]$/.test(next) ? '(?:)' : c + next;
      i += escape ? escape.length - 1 : 1;
    }
  }
  return out;
}

/** A hex escape the page lists with braces or eight digits (`\x{41}`, `\u{41}`, `\U{41}`, `\U00000041`), from its backslash. */
const HEX_ESCAPE = /^\\(?:[xuU]\{[0-9A-Fa-f]+\}|U[0-9A-Fa-f]{8})/;

/** canMatchEmpty's answers by regex text. */
const nullable = new Map<string, boolean>();

/**
 * The regex with each class the page's syntax reads (set operations, nesting: what JavaScript
 * would misread, `[\pL--\p{Greek}]` as a range out of order) written as a plain `[x]`, and each
 * hex escape with braces as `x` (JavaScript without the `u` flag reads `\x{41}+` as `x` repeated
 * 41 times, then a `+` with nothing to repeat).
 */
function readClasses(regex: string): string {
  const mode = classMode(regex);
  let out = '';
  for (let i = 0; i < regex.length; i++) {
    const parsed = regex[i] === '[' ? parseClass(regex, i, mode) : undefined;
    const hex = regex[i] === '\\' ? HEX_ESCAPE.exec(regex.slice(i, i + 24))?.[0] : undefined;
    if (parsed) {
      out += '[x]';
      i = parsed.end - 1;
    } else if (hex) {
      out += 'x';
      i += hex.length - 1;
    } else {
      out += regex[i]! + (regex[i] === '\\' ? (regex[i + 1] ?? '') : '');
      if (regex[i] === '\\') i++;
    }
  }
  return out;
}

/**
 * A construct of Kusto's regex syntax page that RE2 cannot run, named: lookarounds, the
 * start/end-of-word assertions (`\<`, `\>`, `\b{start}`, ...: RE2 reads `\<` as `<` and `\b{start}`
 * as `\b` repeated), the verbose flag anywhere but the start, and a Unicode class name that names
 * nothing (`\p{IsGreek}`). Class set operations and nesting run (regex-classes.ts). Also for a
 * fragment of a regex.
 */
export function notRe2(regex: string): string | undefined {
  return problems.has(regex) ? problems.get(regex) : cacheSet(problems, regex, constructProblem(regex));
}

/** notRe2's answers by regex text. */
const problems = new Map<string, string | undefined>();

function constructProblem(regex: string): string | undefined {
  for (const i of groupOpenings(regex)) {
    if (regex[i + 1] === '?' && /^(=|!|<=|<!)/.test(regex.slice(i + 2, i + 4)))
      return 'invalid regular expression: RE2 has no lookahead or lookbehind';
    // Verbose mode is read only as the pattern's first group (kustoRegexSpelling): set or cleared
    // later, the whitespace would be read otherwise than Kusto reads it.
    const flags = /^\(\?[a-zA-Z]*(-[a-zA-Z]*)?[:)]/.exec(regex.slice(i))?.[0];
    if (flags?.includes('x') && (i > 0 || flags.endsWith(':')))
      return 'invalid regular expression: the verbose flag x is supported only in a group that starts the pattern, as (?x)';
  }
  return flagOrRepetitionProblem(regex) ?? assertionOrPropertyProblem(regex) ?? boundaryProblem(regex);
}

/**
 * CRLF mode with multi-line mode (`(?mR)`: `^` and `$` at `\r\n` too), which RE2 has no spelling
 * for (without `m` the R flag changes nothing and is dropped), and `x{,n}`, which Kusto's engine
 * refuses (the page lists `{n,m}`, `{n,}`, `{n}`) and RE2 reads as the text `{,n}`.
 */
function flagOrRepetitionProblem(regex: string): string | undefined {
  const flags = [...regex.matchAll(/\(\?([a-zA-Z]*)(?:-[a-zA-Z]*)?[:)]/g)].map((m) => m[1]!).join('');
  if (flags.includes('R') && flags.includes('m'))
    return 'invalid regular expression: CRLF mode (the R flag) with multi-line mode (m) is not supported here';
  for (let i = 0; i < regex.length; i++) {
    if (regex[i] === '\\') i++;
    else if (regex[i] === '[') i = classEnd(regex, i) - 1;
    else if (/^\{,\d+\}/.test(regex.slice(i, i + 12)))
      return 'invalid regular expression: a repetition needs its minimum: write x{0,n}, not x{,n}';
  }
  return repetitionProduct(regex) > MAX_REPETITION
    ? `invalid regular expression: a repetition count past ${MAX_REPETITION} (x{1001}, or counts of nested repetitions whose product passes ${MAX_REPETITION}, (x{2}){600}) is not supported here`
    : undefined;
}

/** RE2's largest repetition count, and largest product of nested ones (Kusto's engine has no such limit; RE2 refuses the regex). */
const MAX_REPETITION = 1000;

/**
 * The largest product of the counts of nested counted repetitions (`{n}`, `{n,}`, `{n,m}`: the
 * largest count written), as RE2 checks them; `*`, `+` and `?` count for nothing.
 */
function repetitionProduct(regex: string): number {
  const inside: number[] = [1]; // per open group, the largest product within it so far
  let last = 1; // the product of the atom just read: a group's, or 1
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i]!;
    const counted = c === '{' ? /^\{(\d+)(?:,(\d*))?\}/.exec(regex.slice(i)) : null;
    if (counted) {
      const count = Number(counted[2] || counted[1]);
      const product = last * Math.max(count, 1);
      inside[inside.length - 1] = Math.max(inside.at(-1)!, product);
      i += counted[0].length - 1;
      last = 1;
      continue;
    }
    if (c === '(') inside.push(1);
    else if (c === ')' && inside.length > 1) {
      last = inside.pop()!;
      inside[inside.length - 1] = Math.max(inside.at(-1)!, last);
      continue;
    } else if (c === '\\') {
      // A hex or property escape's braces (`\x{1001}`, `\p{Greek}`) are no count.
      i = /^[xuUpP]\{/.test(regex.slice(i + 1, i + 3)) ? regex.indexOf('}', i) : i + 1;
      if (i < 0) break;
    } else if (c === '[') i = classEnd(regex, i) - 1;
    last = 1;
  }
  return inside[0]!;
}

/** The start/end-of-word assertion, code point past Unicode or unknown Unicode class notRe2 names, scanning escapes. */
function assertionOrPropertyProblem(regex: string): string | undefined {
  for (let i = 0; i < regex.length; i++) {
    if (regex[i] !== '\\') continue;
    const next = regex[i + 1] ?? '';
    if (next === '<' || next === '>' || (next === 'b' && regex[i + 2] === '{'))
      return 'invalid regular expression: the start/end-of-word assertions (\\<, \\>, \\b{start}, \\b{end}) are not supported here';
    const hex = /^\\[xuU]\{([0-9A-Fa-f]+)\}|^\\U([0-9A-Fa-f]{8})/.exec(regex.slice(i, i + 16));
    if (hex && parseInt(hex[1] ?? hex[2]!, 16) > 0x10ffff)
      return `invalid regular expression: ${hex[0]} is past the last Unicode code point, \\x{10FFFF}`;
    const property = propertyEscape(regex.slice(i));
    if (property && !property.property)
      return `invalid regular expression: unknown Unicode class ${property.text} (a general category, a script or a binary property: \\p{L}, \\p{Letter}, \\p{Greek}, \\p{Script=Greek}, \\p{Alphabetic})`;
    i++;
  }
  return undefined;
}

/**
 * The regex with its named groups as the engine reads them: `(?P<name>` for DuckDB's RE2, which
 * refuses `(?<name>` ("invalid perl operator"); for Timestream, whose regexes are Java's (its regular
 * expression functions page), a plain `(`: Java has no `(?P<` and its group names are letters and
 * digits only (`(?<my_name>` is a syntax error there), and no SQL of ours reads a group by name on
 * Timestream (its functions take group numbers). Only group openings change: not escaped ones, not
 * inside a character class, not the lookbehinds `(?<=` and `(?<!` (refused before this by notRe2),
 * so the groups keep their numbers. A name RE2 would refuse (the page's `(?<a.b[0]>`, a non-ASCII
 * letter) is dropped on DuckDB too: every SQL of ours reads groups by number. `tested`: the regex is
 * only tested for a match (`matches regex`), where more word boundaries are written exactly
 * (exactBoundaries).
 */
export function engineRegex(kustoRegex: string, engine: DialectName, tested = false): string {
  const key = `${engine}${tested ? '?' : ''}:${kustoRegex}`;
  return spelled.get(key) ?? cacheSet(spelled, key, spellForEngine(kustoRegex, engine, tested));
}

/** Regexes as handed to each engine, by engine and text: a query's regex is read once per process. */
const spelled = new Map<string, string>();

function spellForEngine(kustoRegex: string, engine: DialectName, tested: boolean): string {
  const regex = kustoRegexSpelling(exactBoundaries(kustoRegex, tested), engine);
  let out = '';
  let from = 0;
  for (const i of groupOpenings(regex)) {
    const named = NAMED_GROUP.exec(regex.slice(i));
    if (!named) continue;
    const re2Name = engine === 'duckdb' && /^[A-Za-z_]\w*$/.test(named[1]!);
    out += regex.slice(from, i) + (re2Name ? `(?P<${named[1]}>` : '(');
    from = i + named[0].length;
  }
  return out + regex.slice(from);
}
