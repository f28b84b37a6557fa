// Kusto's `\b` and `\B` are Unicode word boundaries (its regex syntax page: `\w` on one side, `\W`,
// `\A` or `\z` on the other, `\w` being Unicode's word characters); RE2's are ASCII, and RE2 has no
// lookaround to write a Unicode one. They differ only where exactly one side of the boundary is a
// non-ASCII word character (`é`, `٣`). This drops the boundaries whose truth the pattern itself
// decides, so that the answer is Kusto's for every text; the rest stay RE2's (docs/query-api.md).
//
// A boundary is dropped when:
// - it sits between two items that each match at least once, one only word characters and the
//   other only non-word ones (`\w+\b\s`, `\W\b\w`): it always holds; likewise `\B` between two
//   of the same kind;
// - it follows a greedy `\w+` that ends the pattern (`\w+\b`): the greedy run ends where the next
//   character is not a word character, or at the end, so it always holds there;
// - it starts the pattern before a greedy `\w+`, and the pattern ends in a greedy `\w+` or in an
//   item of non-word characters (`\b\w+\b`, `\b\w+@\w+`): the leftmost match of the rest starts
//   a run of word characters (else it could start one character earlier), and each later search
//   starts after a match that ended next to a non-word character, so the boundary holds there too.
// The analysis reads a pattern without alternation, quantified groups, verbose or ungreedy mode,
// or the u flag cleared; any other pattern keeps its boundaries.
import { classCodePoints, parseClass, WORD_JS } from './regex-classes';
import { codePointsOf, isDisjoint, isSubset, type CodePoints } from './regex-codepoints';

type Kind = 'word' | 'nonword' | 'other';

interface Token {
  readonly start: number;
  readonly end: number;
  /** A character item, a boundary (`\b`, `\B`), another assertion, or a group's bracket. */
  readonly role: 'item' | 'boundary' | 'assertion' | 'bracket';
  readonly kind: Kind;
  /** `\w` itself, for the greedy runs the rules read. */
  readonly perlWord: boolean;
  readonly min: number;
  readonly greedy: boolean;
  readonly unbounded: boolean;
  /** An item matching at least once and only non-ASCII word characters (`é`, `[é-ë]`). */
  readonly foreignWord: boolean;
  /** For an assertion: `^` or `\A` is '^', `$` or `\z` is '$'. */
  readonly edge?: '^' | '$';
}

/** The regex with the `\b` and `\B` whose truth the pattern decides removed (see the top of this file). */
export function exactBoundaries(regex: string): string {
  const verdicts = boundaryVerdicts(regex);
  if (!verdicts) return regex;
  let out = '';
  let from = 0;
  for (const t of verdicts.dropped) {
    out += regex.slice(from, t.start);
    from = t.end;
  }
  return out + regex.slice(from);
}

/**
 * A boundary RE2 would answer otherwise on every text, named: one kept next to an item of only
 * non-ASCII word characters (`\bété`, `\b[é-ë]`), which RE2's ASCII `\b` reads as a non-word item
 * (`extract(@"\bété", 0, "l'été")` would find nothing). Rare, so a 400 rather than a wrong answer.
 */
export function boundaryProblem(regex: string): string | undefined {
  const verdicts = boundaryVerdicts(regex);
  const foreign = verdicts?.kept.find((k) => verdicts.items[k - 1]?.foreignWord || verdicts.items[k + 1]?.foreignWord);
  return foreign === undefined
    ? undefined
    : 'invalid regular expression: a word boundary (\\b, \\B) next to a non-ASCII letter is not supported here: the engine reads \\b as ASCII only and would answer otherwise; match the neighbouring character instead, as (?:^|\\W)été(?:\\W|$)';
}

/** The pattern's items (brackets left out), the boundaries it decides, and the indexes of those it keeps. */
function boundaryVerdicts(regex: string): { items: Token[]; dropped: Token[]; kept: number[] } | undefined {
  if (!/\\[bB]/.test(regex) || /\(\?[a-zA-Z]*(x|U|-[a-zA-Z]*u)/.test(regex)) return undefined;
  const items = tokenize(regex)?.filter((t) => t.role !== 'bracket');
  if (!items) return undefined;
  const dropped: Token[] = [];
  const kept: number[] = [];
  items.forEach((t, k) => {
    if (t.role !== 'boundary') return;
    if (decided(t, items[k - 1], items[k + 1], items)) dropped.push(t);
    else kept.push(k);
  });
  return { items, dropped, kept };
}

function decided(
  boundary: Token,
  before: Token | undefined,
  after: Token | undefined,
  items: readonly Token[],
): boolean {
  const negated = boundary.kind === 'other'; // \B
  if (isItem(before) && isItem(after) && before.kind !== 'other' && after.kind !== 'other')
    return negated ? before.kind === after.kind : before.kind !== after.kind;
  if (negated) return false;
  if (isEdge(before, '^') && isItem(after) && after.kind === 'word') return true;
  if (isEdge(after, '$') && isItem(before) && before.kind === 'word') return true;
  if (after === undefined) return isGreedyWordRun(before);
  if (before === undefined && isGreedyWordRun(after)) {
    const last = items.at(-1)!;
    const end = last.role === 'boundary' ? items.at(-2) : last;
    return isGreedyWordRun(end) || (isItem(end) && end.kind === 'nonword');
  }
  return false;
}

/** `^` or `\A` (`edge` '^'), `$` or `\z` ('$'): the text's edge or, in multi-line mode, a line's, next to a newline. */
function isEdge(t: Token | undefined, edge: '^' | '$'): boolean {
  return t?.role === 'assertion' && t.edge === edge;
}

function isItem(t: Token | undefined): t is Token {
  return t?.role === 'item' && t.min >= 1;
}

function isGreedyWordRun(t: Token | undefined): boolean {
  return isItem(t) && t.perlWord && t.greedy && t.unbounded;
}

let wordSet: CodePoints | undefined;

/** Whether a set of code points holds only word characters, only non-word ones, or both. */
function kindOf(set: CodePoints): Kind {
  // ASCII alone is decided without the Unicode word set, whose first scan costs a compile dearly.
  if (isSubset(set, ASCII))
    return isSubset(set, ASCII_WORD) ? 'word' : isDisjoint(set, ASCII_WORD) ? 'nonword' : 'other';
  wordSet ??= codePointsOf(WORD_JS);
  if (isSubset(set, wordSet)) return 'word';
  return isDisjoint(set, wordSet) ? 'nonword' : 'other';
}

const ASCII: CodePoints = [0, 0x7f];
/** `[0-9A-Z_a-z]`: the word characters of ASCII, by the regex page's \w as by RE2's. */
const ASCII_WORD: CodePoints = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];

/** Whether a set holds only word characters, none of them ASCII. */
function isForeignWord(set: CodePoints): boolean {
  return kindOf(set) === 'word' && isDisjoint(set, [0, 0x7f]);
}

const ESCAPED_KINDS: Record<string, Kind> = {
  w: 'word',
  d: 'word',
  W: 'nonword',
  s: 'nonword',
  S: 'other',
  D: 'other',
};

/** The pattern's tokens, or undefined when it holds what the rules do not read (alternation, a quantified group). */
function tokenize(regex: string): Token[] | undefined {
  const tokens: Token[] = [];
  const mode = { verbose: false, ascii: false };
  for (let i = 0; i < regex.length;) {
    const c = regex[i]!;
    let role: Token['role'] = 'item';
    let kind: Kind = 'other';
    let end = i + 1;
    let edge: Token['edge'];
    let members: CodePoints | undefined;
    if (c === '|') return undefined;
    if (c === '(') {
      const group = /^\((?:\?(?:[a-zA-Z]*(?:-[a-zA-Z]*)?[:)]|P?<\w+>))?/.exec(regex.slice(i))![0];
      if (regex[i + 1] === '?' && group === '(') return undefined; // a lookaround: refused before this
      role = 'bracket';
      end = i + group.length;
    } else if (c === ')') {
      if (/^[*+?{]/.test(regex[i + 1] ?? '')) return undefined;
      role = 'bracket';
    } else if (c === '^' || c === '$') {
      role = 'assertion';
      edge = c;
    } else if (c === '[') {
      const parsed = parseClass(regex, i, mode);
      if (!parsed) return undefined;
      members = classCodePoints(parsed.node, mode, (set) => set);
      kind = kindOf(members);
      end = parsed.end;
    } else if (c === '\\') {
      const next = regex[i + 1] ?? '';
      end = i + 2;
      if (next === 'b' || next === 'B') {
        role = 'boundary';
        kind = next === 'b' ? 'word' : 'other';
      } else if (next === 'A' || next === 'z') {
        role = 'assertion';
        edge = next === 'A' ? '^' : '$';
      } else if (ESCAPED_KINDS[next]) kind = ESCAPED_KINDS[next];
      else if (/^[^0-9A-Za-z]$/.test(next)) kind = kindOf([next.codePointAt(0)!, next.codePointAt(0)!]);
      else if (/^[ntrfva]$/.test(next)) kind = 'nonword';
      else return undefined; // hex, octal, properties: not read here
    } else if (c !== '.') {
      const code = regex.codePointAt(i)!;
      end = i + String.fromCodePoint(code).length;
      members = [code, code];
      kind = kindOf(members);
    }
    const quantifier = role === 'item' ? /^(?:[*+?]|\{(\d*)(,?)(\d*)\})(\??)/.exec(regex.slice(end)) : null;
    const q = quantifier?.[0] ?? '';
    const min = !quantifier ? 1 : q.startsWith('+') ? 1 : q.startsWith('{') ? Number(quantifier[1] || 0) : 0;
    tokens.push({
      start: i,
      end: end + q.length,
      role,
      kind,
      perlWord: regex.slice(i, end) === '\\w',
      min,
      foreignWord: min >= 1 && members !== undefined && isForeignWord(members),
      greedy: quantifier?.[4] !== '?',
      unbounded: q.startsWith('+') || q.startsWith('*') || (quantifier?.[2] === ',' && quantifier[3] === ''),
      edge,
    });
    i = end + q.length;
  }
  return tokens;
}
