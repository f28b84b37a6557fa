// parse-kv with (regex=Pattern) (parse-kv operator docs, "Regex": "A regular expression containing
// two capturing groups exactly. The first group represents the key name, and the second group
// represents the key value"), read as expressions over functions both engines have: replace_regex
// rewrites every match of the pattern as a record `RS key US value RS` (two control characters no
// text is expected to hold), then each listed key's value is extracted from the first record of
// that key (the docs' "first appearance of a key"), key and value without surrounding spaces.
// Throws QueryError QUERY_SYNTAX when the pattern is not a valid regex or does not hold exactly two
// capturing groups.
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';
import { re2Problem } from './regex-groups';
import type { Span } from './tokens';

/** Record and unit separators (ASCII RS, US) around each match's key and value. */
const RS = '\u001e';
const US = '\u001f';
/** A key as a regex matching it literally (the syntax characters escaped, valid in RE2, Java and JS). */
const literal = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, (c) => `\\${c}`);

/** The positions and lengths of the pattern's capturing groups' openings: `(`, `(?P<name>`, `(?<name>`. */
function capturingGroups(pattern: string): { at: number; length: number }[] {
  const out: { at: number; length: number }[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      // A ']' first in the class (after an optional '^') is a literal.
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (ch !== '(') continue;
    if (pattern[i + 1] !== '?') out.push({ at: i, length: 1 });
    else {
      const named = /^\(\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(pattern.slice(i));
      if (named) out.push({ at: i, length: named[0].length });
    }
  }
  return out;
}

/**
 * The extend values of the listed keys for `parse-kv Source as (...) with (regex=Pattern)`, each a
 * string expression ('' when the key has no match).
 * @throws QueryError QUERY_SYNTAX unless the pattern has exactly two capturing groups.
 */
export function regexKeyValues(
  errors: ErrorFactory,
  pattern: string,
  patternSpan: Span,
  source: Expr,
  keys: readonly { name: string; span: Span }[],
): Expr[] {
  // The check replace_regex makes (catalog/strings.ts), here at the pattern instead of at a key.
  const problem = re2Problem(pattern);
  if (problem !== undefined)
    throw errors.syntax(
      `the parse-kv regex is not a valid regular expression${problem.replace(/^invalid regular expression/, '')}`,
      patternSpan,
    );
  const groups = capturingGroups(pattern);
  if (groups.length !== 2)
    throw errors.syntax(
      `the parse-kv regex must hold exactly two capturing groups (the key, then the value); it holds ${groups.length}`,
      patternSpan,
    );
  return keys.map((k) => {
    const span = k.span;
    const str = (value: string): Expr => ({ kind: 'literal', type: 'string', value, span });
    const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'call', name, nameSpan: span, args, span });
    const records = call('replace_regex', source, str(pattern), str(`${RS}\\1${US}\\2${RS}`));
    const key = `\\x1e\\s*${literal(k.name)}\\s*\\x1f([^\\x1e]*)\\x1e`;
    return call(
      'trim',
      str('\\s'),
      call('extract', str(key), { kind: 'literal', type: 'long', value: 1n, span }, records),
    );
  });
}
