// The capturing groups of a regular expression (RE2 syntax, as Kusto's): `(`, `(?P<name>` and
// `(?<name>`, not escaped and not inside a character class, in the order RE2 numbers them. Used
// where a query's own regex sits beside groups the compiler adds (parse kind=regex) or where its
// groups are chosen by number or name (extract_all's captureGroups). Kusto's regex syntax page lists
// both named forms; each engine is handed the one it reads (engineRegex).
import type { DialectName } from './sql/dialect';

/**
 * Where each group opens: every `(` that is not escaped and not inside a character class, in order.
 * The one scan of a regex's structure that naming, checking and rewriting groups share.
 */
function groupOpenings(regex: string): number[] {
  const at: number[] = [];
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') {
      inClass = true;
      if (regex[i + 1] === '^') i++;
      if (regex[i + 1] === ']') i++; // a leading ] is a member
    } else if (c === '(') at.push(i);
  }
  return at;
}

/** Each capturing group's name, or undefined for an unnamed one; its number is its index + 1. */
export function captureGroupNames(regex: string): (string | undefined)[] {
  const names: (string | undefined)[] = [];
  for (const i of groupOpenings(regex)) {
    if (regex[i + 1] !== '?') names.push(undefined);
    else {
      const named = /^\(\?P?<([A-Za-z_]\w*)>/.exec(regex.slice(i, i + 40));
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
    new RegExp(regex.replace(/\(\?[a-zA-Z]+\)/g, '').replace(/\(\?P</g, '(?<'));
    return undefined;
  } catch {
    return 'invalid regular expression';
  }
}

/** A group JavaScript reads but RE2 refuses (lookarounds), named; also for a fragment of a regex. */
export function notRe2(regex: string): string | undefined {
  for (const i of groupOpenings(regex)) {
    if (regex[i + 1] === '?' && /^(=|!|<=|<!)/.test(regex.slice(i + 2, i + 4)))
      return 'invalid regular expression: RE2 has no lookahead or lookbehind';
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
 * so the groups keep their numbers.
 */
export function engineRegex(regex: string, engine: DialectName): string {
  let out = '';
  let from = 0;
  for (const i of groupOpenings(regex)) {
    const named = /^\(\?P?<([A-Za-z_]\w*)>/.exec(regex.slice(i));
    if (!named) continue;
    out += regex.slice(from, i) + (engine === 'duckdb' ? `(?P<${named[1]}>` : '(');
    from = i + named[0].length;
  }
  return out + regex.slice(from);
}
