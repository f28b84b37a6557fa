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
    new RegExp(
      regex
        .replace(/\(\?[a-zA-Z]*(-[a-zA-Z]*)?\)/g, '')
        .replace(/\(\?[a-zA-Z]*(-[a-zA-Z]*)?:/g, '(?:')
        .replace(/\(\?P</g, '(?<'),
    );
    return undefined;
  } catch {
    return 'invalid regular expression';
  }
}

/**
 * A construct of Kusto's regex syntax page that RE2 would read otherwise, named: lookarounds, the
 * start/end-of-word assertions (`\<`, `\>`, `\b{start}`, ...: RE2 reads `\<` as `<` and `\b{start}`
 * as `\b` repeated) and the character class set operations (`[a-y&&xyz]`, `[0-9--4]`, `[a-g~~b-h]`,
 * nested `[x[^xyz]]`: RE2 reads their signs and brackets as members). Also for a fragment of a regex.
 */
export function notRe2(regex: string): string | undefined {
  for (const i of groupOpenings(regex)) {
    if (regex[i + 1] === '?' && /^(=|!|<=|<!)/.test(regex.slice(i + 2, i + 4)))
      return 'invalid regular expression: RE2 has no lookahead or lookbehind';
    // Verbose mode is read only as the pattern's first group (kustoRegexSpelling): set or cleared
    // later, the whitespace would be read otherwise than Kusto reads it.
    const flags = /^\(\?[a-zA-Z]*(-[a-zA-Z]*)?[:)]/.exec(regex.slice(i))?.[0];
    if (flags?.includes('x') && (i > 0 || flags.endsWith(':')))
      return 'invalid regular expression: the verbose flag x is supported only in a group that starts the pattern, as (?x)';
  }
  return classOrAssertionProblem(regex);
}

/** The start/end-of-word assertion or class set operation notRe2 names, scanning escapes and classes. */
function classOrAssertionProblem(regex: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') {
      const next = regex[i + 1] ?? '';
      if (next === '<' || next === '>' || (next === 'b' && regex[i + 2] === '{'))
        return 'invalid regular expression: the start/end-of-word assertions (\\<, \\>, \\b{start}, \\b{end}) are not supported here';
      i++;
    } else if (depth > 0 && c === '[' && regex[i + 1] === ':') {
      const end = regex.indexOf(':]', i + 2);
      i = end < 0 ? i : end + 1; // [:alpha:] is a member, not a nested class
    } else if (c === '[') {
      if (depth > 0) return SET_OPERATIONS;
      depth = 1;
      if (regex[i + 1] === '^') i++;
      if (regex[i + 1] === ']') i++; // a leading ] is a member
    } else if (depth > 0 && c === ']') depth = 0;
    else if (depth > 0 && (c === '&' || c === '~') && regex[i + 1] === c) return SET_OPERATIONS;
    else if (depth > 0 && c === '-' && regex[i + 1] === '-' && regex[i + 2] !== ']') return SET_OPERATIONS;
  }
  return undefined;
}

const SET_OPERATIONS =
  'invalid regular expression: nested character classes and their intersection (&&), difference (--) and symmetric difference (~~) are not supported here';

/** Unicode's White_Space (\s on Kusto's regex syntax page): RE2's \s is ASCII and has no \v. */
const SPACE = '\\t\\n\\x0B\\f\\r \\x{85}\\p{Z}';
/** Unicode's word characters (\w on the page: Alphabetic, marks, decimal digits, connectors, joiners); RE2's \w is ASCII. */
const WORD = '\\p{L}\\p{Nl}\\p{M}\\p{Nd}\\p{Pc}\\x{200C}\\x{200D}';

/**
 * Kusto's regex syntax (its regex syntax page, Rust's regex crate) in the spelling RE2 and Java
 * read: `\d`, `\w` and `\s` are Unicode classes there (`\d` is `\p{Nd}`, so `extract(@"\w+", 0,
 * "héllo")` is `héllo`), not ASCII ones as in RE2 (`\W`, `\S` inside a class stay ASCII: a negated
 * class inside a class has no spelling); `\u007F`, `\u{7F}`, `\U0000007F` and `\U{7F}` are `\x{7F}`;
 * verbose mode `(?x)` at the start drops whitespace and `#` comments (RE2 has no x flag); and the
 * `u` flag, on by default there, is dropped (RE2 has none): with `-u` anywhere the classes keep
 * their ASCII meaning.
 */
function kustoRegexSpelling(regex: string): string {
  const verbose = /^\(\?[a-zA-Z]*x[a-zA-Z]*(-[a-zA-Z]*)?\)/.test(regex);
  const ascii = /\(\?[a-zA-Z]*-[a-zA-Z]*u/.test(regex);
  let out = '';
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i]!;
    if (c === '\\') {
      const next = regex[i + 1] ?? '';
      const hex = unicodeEscape(regex.slice(i + 1));
      if (hex) {
        out += `\\x{${hex.digits}}`;
        i += hex.length;
        continue;
      }
      const property = /^[pP]\{([^}]*)\}/.exec(regex.slice(i + 1));
      if (property) {
        out += `\\${next}{${GENERAL_CATEGORIES.get(looseName(property[1]!)) ?? property[1]}}`;
        i += property[0].length;
        continue;
      }
      out += ascii ? c + next : (unicodeClass(next, inClass) ?? c + next);
      i++;
    } else if (verbose && /\s/.test(c)) continue;
    else if (verbose && !inClass && c === '#') {
      const end = regex.indexOf('\n', i);
      i = end < 0 ? regex.length : end;
    } else if (c === '(' && regex[i + 1] === '?' && !inClass) {
      const flags = /^\(\?([a-zA-Z]*)(-[a-zA-Z]*)?([:)])/.exec(regex.slice(i));
      if (!flags) out += c;
      else {
        const on = flags[1]!.replace(/[ux]/g, '');
        const off = (flags[2] ?? '').replace(/[ux]/g, '');
        const set = on + (off === '-' ? '' : off);
        out += set || flags[3] === ':' ? `(?${set}${flags[3]}` : '';
        i += flags[0].length - 1;
      }
    } else {
      if (c === '[' && !inClass) {
        inClass = true;
        out += c;
        if (regex[i + 1] === '^') out += regex[++i];
        if (regex[i + 1] === ']') out += regex[++i];
        continue;
      }
      const posix = inClass && c === '[' && regex[i + 1] === ':' ? regex.indexOf(':]', i + 2) : -1;
      if (posix >= 0) {
        out += regex.slice(i, posix + 2); // [:alpha:] is a member, its ] closes nothing
        i = posix + 1;
        continue;
      }
      if (c === ']') inClass = false;
      out += c;
    }
  }
  return out;
}

/**
 * Unicode's general categories by their long names (`\\p{Letter}` on Kusto's regex syntax page),
 * which RE2 reads only by their short ones (`\\p{L}`); scripts (`\\p{Greek}`) are the same in both.
 */
const GENERAL_CATEGORIES = new Map(
  Object.entries({
    L: 'Letter',
    Lu: 'Uppercase_Letter',
    Ll: 'Lowercase_Letter',
    Lt: 'Titlecase_Letter',
    Lm: 'Modifier_Letter',
    Lo: 'Other_Letter',
    M: 'Mark',
    Mn: 'Nonspacing_Mark',
    Mc: 'Spacing_Mark',
    Me: 'Enclosing_Mark',
    N: 'Number',
    Nd: 'Decimal_Number',
    Nl: 'Letter_Number',
    No: 'Other_Number',
    P: 'Punctuation',
    Pc: 'Connector_Punctuation',
    Pd: 'Dash_Punctuation',
    Ps: 'Open_Punctuation',
    Pe: 'Close_Punctuation',
    Pi: 'Initial_Punctuation',
    Pf: 'Final_Punctuation',
    Po: 'Other_Punctuation',
    S: 'Symbol',
    Sm: 'Math_Symbol',
    Sc: 'Currency_Symbol',
    Sk: 'Modifier_Symbol',
    So: 'Other_Symbol',
    Z: 'Separator',
    Zs: 'Space_Separator',
    Zl: 'Line_Separator',
    Zp: 'Paragraph_Separator',
    C: 'Other',
    Cc: 'Control',
    Cf: 'Format',
    Cs: 'Surrogate',
    Co: 'Private_Use',
  }).map(([short, long]) => [looseName(long), short]),
);

/** A property name as Unicode's loose matching compares it: case, spaces, `_` and `-` ignored. */
function looseName(name: string): string {
  return name.replace(/[\s_-]/g, '').toLowerCase();
}

/** `\\u007F`, `\\u{7F}`, `\\U0000007F` or `\\U{7F}` (after its backslash): its hex digits and length. */
function unicodeEscape(text: string): { digits: string; length: number } | undefined {
  const m = /^[uU]\{([0-9A-Fa-f]+)\}/.exec(text) ?? /^U([0-9A-Fa-f]{8})/.exec(text) ?? /^u([0-9A-Fa-f]{4})/.exec(text);
  return m ? { digits: m[1]!, length: m[0].length } : undefined;
}

/** The spelling of a Unicode \d, \D, \w, \W, \s or \S inside or outside a class, or undefined to keep it. */
function unicodeClass(letter: string, inClass: boolean): string | undefined {
  if (letter === 'd') return '\\p{Nd}';
  if (letter === 'D') return '\\P{Nd}';
  const members = letter.toLowerCase() === 'w' ? WORD : letter.toLowerCase() === 's' ? SPACE : undefined;
  if (members === undefined) return undefined;
  if (letter === letter.toLowerCase()) return inClass ? members : `[${members}]`;
  return inClass ? undefined : `[^${members}]`;
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
export function engineRegex(kustoRegex: string, engine: DialectName): string {
  const regex = kustoRegexSpelling(kustoRegex);
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
