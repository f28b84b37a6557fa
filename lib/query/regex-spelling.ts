// Kusto's regex syntax (its regex syntax page: Rust's regex crate) in the spelling RE2 (DuckDB) and
// Java (Timestream) read. What differs, and how each difference is written here:
// - `\d`, `\w`, `\s` are Unicode classes there (`\d` is `\p{Nd}`; `extract(@"\w+", 0, "héllo")` is
//   `héllo`), ASCII ones in RE2: written as unions of `\p{..}` and ranges;
// - a class RE2 cannot read as written (a negated Unicode class inside it, `[^\W\d_]`; nesting and
//   the set operations `&&`, `--`, `~~`; a binary property such as `\p{Alphabetic}`) is computed
//   as a set of code points and written as explicit ranges (regex-classes.ts);
// - property names are matched loosely and written as RE2 names them (`\p{Letter}`, `\p{Script=Greek}`);
// - `\u007F`, `\u{7F}`, `\U0000007F` and `\U{7F}` are `\x{7F}`;
// - verbose mode `(?x)` at the start drops whitespace and `#` comments (RE2 has no x flag);
// - the `u` flag, on by default there, is dropped (RE2 has none): with `-u` anywhere the Perl
//   classes keep their ASCII meaning; so is `R` (CRLF mode), which without `m` changes nothing.
import { cacheSet, caseFolded, type CodePoints } from './regex-codepoints';
import { computedClass, needsComputing, parseClass, propertyClass, type ClassMode } from './regex-classes';
import { propertyEscape } from './regex-properties';
import type { DialectName } from './sql/dialect';

/** Unicode's White_Space (\s on Kusto's regex syntax page): RE2's \s is ASCII and has no \v. */
const SPACE = '\\t\\n\\x0B\\f\\r \\x{85}\\p{Z}';
/**
 * Unicode's word characters (\w on the page: Alphabetic, marks, decimal digits, connectors,
 * joiners); RE2's \w is ASCII. Alphabetic is the letters, letter numbers and some marks, and
 * also the circled and squared Latin letters (`Ⓐ`, `🄰`), which are symbols (So).
 */
export const WORD =
  '\\p{L}\\p{Nl}\\p{M}\\p{Nd}\\p{Pc}\\x{200C}\\x{200D}\\x{24B6}-\\x{24E9}\\x{1F130}-\\x{1F149}\\x{1F150}-\\x{1F169}\\x{1F170}-\\x{1F189}';

/**
 * The regex in RE2's spelling (see the top of this file), or Java's for Timestream, which differs
 * only in naming a script `\p{IsGreek}`.
 */
export function kustoRegexSpelling(regex: string, engine: DialectName): string {
  return new Speller(regex, engine).spell();
}

/** How the regex's classes are read: verbose mode set by its first group, the u flag cleared anywhere. */
export function classMode(regex: string): ClassMode {
  return {
    verbose: /^\(\?[a-zA-Z]*x[a-zA-Z]*(-[a-zA-Z]*)?\)/.test(regex),
    ascii: /\(\?[a-zA-Z]*-[a-zA-Z]*u/.test(regex),
  };
}

/** The flags a group's scope has on. */
interface Scope {
  readonly caseless: boolean;
  readonly ungreedy: boolean;
  readonly multiline: boolean;
  readonly dotAll: boolean;
}

/**
 * `.`, `^` and `$` as the page reads them, for Java, whose line terminators are also `\r`, `\x85`,
 * `\u2028` and `\u2029`: `.` stops at each of them, `$` matches before a last one, and `^` in
 * multi-line mode not after a new line ending the text. The page's `.` stops at a new line alone,
 * `$` is the text's end, and multi-line `^` and `$` are at a new line (`^` even at the end).
 */
function javaLineSyntax(c: string, scope: Scope): string {
  if (c === '.' && !scope.dotAll) return '[^\\n]';
  if (c === '$') return scope.multiline ? '(?=\\n|\\z)' : '\\z';
  if (c === '^' && scope.multiline) return '(?:\\A|(?<=\\n))';
  return c;
}

/** Computed classes by their text and mode: the set arithmetic runs once per class, not per query. */
const computedClasses = new Map<string, string>();

const unfolded = (set: CodePoints): CodePoints => set;

class Speller {
  private readonly mode: ClassMode;
  /** Whether the i, U, m and s flags are on, per open group (the innermost last), as flag groups set and clear them. */
  private readonly scopes: Scope[] = [{ caseless: false, ungreedy: false, multiline: false, dotAll: false }];
  private out = '';

  constructor(
    private readonly regex: string,
    private readonly engine: DialectName,
  ) {
    this.mode = classMode(regex);
  }

  spell(): string {
    const regex = this.regex;
    for (let i = 0; i < regex.length; i++) {
      const c = regex[i]!;
      if (c === '\\') i = this.escape(i, false);
      else if (this.mode.verbose && /\s/.test(c)) continue;
      else if (this.mode.verbose && c === '#') {
        const end = regex.indexOf('\n', i);
        i = end < 0 ? regex.length : end;
      } else if (c === '(') i = this.group(i);
      else if (c === ')') {
        if (this.scopes.length > 1) this.scopes.pop();
        this.out += c;
      } else if (c === '[') i = this.bracketClass(i) - 1;
      else if (this.engine === 'timestream') i = this.javaCharacter(i);
      else this.out += c;
    }
    return this.out;
  }

  /**
   * A group's opening at `i`: flag groups lose the flags RE2 lacks (u, x, and R, which without m
   * changes nothing: notRe2 refuses both) and set the i and U flags' scope. Java has no ungreedy
   * flag (its U is Unicode classes): for Timestream, U is dropped and the quantifiers in its scope
   * are written swapped (swappedQuantifier).
   */
  private group(i: number): number {
    const flags = /^\(\?([a-zA-Z]*)(-[a-zA-Z]*)?([:)])/.exec(this.regex.slice(i));
    const outer = this.scopes.at(-1)!;
    if (!flags) {
      this.scopes.push(outer);
      this.out += '(';
      return i;
    }
    const scoped = flags[3] === ':';
    const flag = (letter: string, was: boolean): boolean =>
      (flags[2] ?? '').includes(letter) ? false : flags[1]!.includes(letter) || was;
    const scope = {
      caseless: flag('i', outer.caseless),
      ungreedy: flag('U', outer.ungreedy),
      multiline: flag('m', outer.multiline),
      dotAll: flag('s', outer.dotAll),
    };
    if (scoped) this.scopes.push(scope);
    else this.scopes[this.scopes.length - 1] = scope;
    // Java folds ASCII alone under i unless u is set too; the page's engine folds all of Unicode.
    const dropped = this.engine === 'timestream' ? /[uxRU]/g : /[uxR]/g;
    const on =
      flags[1]!.replace(dropped, '') + (this.engine === 'timestream' && scope.caseless && !outer.caseless ? 'u' : '');
    const off = (flags[2] ?? '').replace(dropped, '');
    const set = on + (off === '-' ? '' : off);
    this.out += set || scoped ? `(?${set}${flags[3]}` : '';
    return i + flags[0].length - 1;
  }

  /**
   * A class at `i`: computed as ranges where RE2 cannot read it as written, else written item by
   * item. Returns the index just past it.
   */
  private bracketClass(i: number): number {
    const parsed = parseClass(this.regex, i, this.mode);
    // Java reads no POSIX class (`[[:alpha:]]` would be the characters of `:alph`): computed for it.
    const javaPosix = this.engine === 'timestream' && /\[:\^?[a-z]+:\]/.test(this.regex.slice(i, parsed?.end));
    if (parsed && (needsComputing(parsed.node, this.mode) || javaPosix)) {
      const caseless = this.scopes.at(-1)!.caseless;
      const key = `${this.mode.verbose ? 'x' : ''}${this.mode.ascii ? 'a' : ''}${caseless ? 'i' : ''}:${this.regex.slice(i, parsed.end)}`;
      this.out +=
        computedClasses.get(key) ??
        cacheSet(computedClasses, key, computedClass(parsed.node, this.mode, caseless ? caseFolded : unfolded));
      return parsed.end;
    }
    const regex = this.regex;
    this.out += '[';
    let j = i + 1;
    if (regex[j] === '^') this.out += regex[j++];
    if (regex[j] === ']') this.out += regex[j++];
    for (; j < regex.length; j++) {
      const c = regex[j]!;
      if (c === ']') {
        this.out += c;
        return j + 1;
      }
      if (c === '\\') j = this.escape(j, true);
      else if (this.mode.verbose && /\s/.test(c)) continue;
      else if (c === '[' && regex[j + 1] === ':') {
        const posix = regex.indexOf(':]', j + 2);
        const end = posix < 0 ? j : posix + 1; // [:alpha:] is a member, its ] closes nothing
        this.out += regex.slice(j, end + 1);
        j = end;
      } else this.out += c;
    }
    return j;
  }

  /**
   * The character at `i` (not an escape, a group or a class) for Java: `.`, `^` and `$` as
   * javaLineSyntax writes them; under the U flag a quantifier (`*`, `+`, `?`, `{n,m}`) written lazy
   * where it is greedy and greedy where it is lazy, as the flag swaps them on the page. Returns the
   * index of the last character read.
   */
  private javaCharacter(i: number): number {
    const scope = this.scopes.at(-1)!;
    const quantifier = scope.ungreedy ? /^(?:[*+?]|\{\d+(?:,\d*)?\})/.exec(this.regex.slice(i))?.[0] : undefined;
    if (!quantifier) {
      this.out += javaLineSyntax(this.regex[i]!, scope);
      return i;
    }
    let next = i + quantifier.length;
    while (this.mode.verbose && /\s/.test(this.regex[next] ?? '')) next++;
    const lazy = this.regex[next] === '?';
    this.out += lazy ? quantifier : `${quantifier}?`;
    return lazy ? next : i + quantifier.length - 1;
  }

  /** The escape at `i` (its backslash), inside a class or not; returns the index of its last character. */
  private escape(i: number, inClass: boolean): number {
    const regex = this.regex;
    const next = regex[i + 1] ?? '';
    if (next === 'Q') {
      // RE2's quoted text (not on the page): copied as it is, its classes and escapes unread.
      const end = regex.indexOf('\\E', i + 2);
      const last = end < 0 ? regex.length - 1 : end + 1;
      this.out += regex.slice(i, last + 1);
      return last;
    }
    const hex = unicodeEscape(regex.slice(i + 1));
    if (hex) {
      this.out += `\\x{${hex.digits}}`;
      return i + hex.length;
    }
    const property = propertyEscape(regex.slice(i));
    if (property) {
      const { negated, property: found } = property;
      if (!found)
        this.out += property.text; // an unknown name: re2Problem refuses it first
      else if (found.re2 !== undefined) {
        const name = found.script && this.engine === 'timestream' ? `Is${found.re2}` : found.re2;
        this.out += `\\${negated ? 'P' : 'p'}{${name}}`;
      } else this.out += propertyClass(found, negated); // only outside a class (needsComputing)
      return i + property.text.length - 1;
    }
    // \v is the vertical tab alone on the page; Java's \v is every vertical whitespace.
    if (next === 'v' && this.engine === 'timestream') this.out += '\\x0B';
    else this.out += this.mode.ascii ? `\\${next}` : (unicodeClass(next, inClass) ?? `\\${next}`);
    return i + 1;
  }
}

/** `\\u007F`, `\\u{7F}`, `\\U0000007F` or `\\U{7F}` (after its backslash): its hex digits and length. */
function unicodeEscape(text: string): { digits: string; length: number } | undefined {
  const m = /^[uU]\{([0-9A-Fa-f]+)\}/.exec(text) ?? /^U([0-9A-Fa-f]{8})/.exec(text) ?? /^u([0-9A-Fa-f]{4})/.exec(text);
  return m ? { digits: m[1]!, length: m[0].length } : undefined;
}

/**
 * The spelling of a Unicode \d, \D, \w, \W, \s or \S inside or outside a class, or undefined to
 * keep it. (`\W` and `\S` inside a class never come here: the class is computed.)
 */
function unicodeClass(letter: string, inClass: boolean): string | undefined {
  if (letter === 'd') return '\\p{Nd}';
  if (letter === 'D') return '\\P{Nd}';
  const members = letter.toLowerCase() === 'w' ? WORD : letter.toLowerCase() === 's' ? SPACE : undefined;
  if (members === undefined) return undefined;
  if (letter === letter.toLowerCase()) return inClass ? members : `[${members}]`;
  return inClass ? undefined : `[^${members}]`;
}
