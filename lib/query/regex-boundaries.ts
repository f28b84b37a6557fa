// Kusto's `\b` and `\B` are Unicode word boundaries (its regex syntax page: `\w` on one side, `\W`,
// `\A` or `\z` on the other, `\w` being Unicode's word characters); RE2's are ASCII, and RE2 has no
// lookaround to write a Unicode one. They differ only where exactly one side of the boundary is a
// non-ASCII word character (`é`, `٣`). This drops the boundaries whose truth the pattern itself
// decides, so that the answer is Kusto's for every text; the rest stay RE2's (docs/query-api.md).
//
// A boundary's neighbours are the items that may match the character just before it and just after
// it: through groups and alternation (`\b(été|hiver)`: `é` or `h`), past optional items (`a\b\s*-`:
// `\s` or `-`), and around repeated groups; or the pattern's own start or end. A boundary is dropped when:
// - every neighbour on one side matches only word characters and every one on the other side only
//   non-word ones, `^`/`\A` counting as non-word before it and `$`/`\z` after it (`\w+\b\s`,
//   `\W\b\w`, `(\w|x)\b-`): it always holds; likewise `\B` between neighbours all of one kind;
// - it follows a greedy `\w+` and ends the pattern or precedes non-word items (`\w+\b`,
//   `(x|\w+\b)`, `(,\w+\b)+`): the greedy run ends where the next character is not a word
//   character, or at the end, so it always holds there;
// - it starts the pattern before a greedy `\w+`, and the pattern ends in a greedy `\w+` or in an
//   item of non-word characters (`\b\w+\b`, `\b\w+@\w+`): the leftmost match of the rest starts
//   a run of word characters (else it could start one character earlier), and each later search
//   starts after a match that ended next to a non-word character, so the boundary holds there too.
// The analysis reads no pattern in verbose or ungreedy mode or with the u flag cleared; such a
// pattern, or one holding what it does not read (a backreference-like escape), keeps its boundaries.
import { classCodePoints, parseClass, WORD_JS } from './regex-classes';
import { codePointsOf, isDisjoint, isSubset, type CodePoints } from './regex-codepoints';
import { propertyCodePoints, propertyEscape } from './regex-properties';

type Kind = 'word' | 'nonword' | 'other';

interface Token {
  readonly start: number;
  readonly end: number;
  /**
   * A character item, a boundary (`\b`, `\B`), another assertion, a group's opening or closing
   * bracket, or an alternation's bar.
   */
  readonly role: 'item' | 'boundary' | 'assertion' | 'open' | 'close' | 'bar';
  readonly kind: Kind;
  /** `\w` itself, for the greedy runs the rules read. */
  readonly perlWord: boolean;
  /** The least number of times it matches (a closing bracket: its group's). */
  readonly min: number;
  readonly greedy: boolean;
  /** Unbounded (an item's `+`, `*`, `{n,}`); for a closing bracket, a group that may repeat. */
  readonly unbounded: boolean;
  /** An item matching only non-ASCII word characters (`é`, `[é-ë]`). */
  readonly foreignWord: boolean;
  /** For an assertion: `^` or `\A` is '^', `$` or `\z` is '$'. */
  readonly edge?: '^' | '$';
}

/** What may sit next to a boundary: an item or an assertion, or the pattern's own start or end. */
type Neighbour = Token | 'start' | 'end';

/**
 * The regex with the `\b` and `\B` whose truth the pattern decides removed (see the top of this
 * file). With `tested` (a regex only tested for a match, as `matches regex` does), a boundary kept at
 * the pattern's start or end next to items all of one kind is also written exactly, as the
 * character it asks for on its other side: `\bcat\b` as `(?:\A|\W)cat(?:\W|\z)`. That moves the
 * match's ends but not whether there is one.
 */
export function exactBoundaries(regex: string, tested = false): string {
  const verdicts = boundaryVerdicts(regex);
  if (!verdicts) return regex;
  const rewritten = [
    ...verdicts.dropped.map((t) => ({ t, text: '' })),
    ...(tested ? verdicts.edges.map(({ t, text }) => ({ t, text })) : []),
  ].sort((x, y) => x.t.start - y.t.start);
  let out = '';
  let from = 0;
  for (const { t, text } of rewritten) {
    out += regex.slice(from, t.start) + text;
    from = t.end;
  }
  return out + regex.slice(from);
}

/** What a boundary at the pattern's start asks of the character before the match, or at its end of the one after. */
function edgeCondition(boundary: Token, neighbours: 'word' | 'nonword', edge: 'start' | 'end'): string {
  const wordOutside = (boundary.kind === 'word') === (neighbours === 'nonword'); // \b flips the kind, \B keeps it
  if (wordOutside) return '\\w';
  return edge === 'start' ? '(?:\\A|\\W)' : '(?:\\W|\\z)';
}

/**
 * A boundary RE2 would answer otherwise on every text, named: one kept next to an item of only
 * non-ASCII word characters (`\bété`, `\b[é-ë]`, `\b(été|hiver)`), which RE2's ASCII `\b` reads as
 * a non-word item (`extract(@"\bété", 0, "l'été")` would find nothing). Rare, so a 400 rather than
 * a wrong answer.
 */
export function boundaryProblem(regex: string): string | undefined {
  return boundaryVerdicts(regex)?.foreign
    ? 'invalid regular expression: a word boundary (\\b, \\B) next to a non-ASCII letter is not supported here: the engine reads \\b as ASCII only and would answer otherwise; match the neighbouring character instead, as (?:^|\\W)été(?:\\W|$)'
    : undefined;
}

/** The boundaries the pattern decides, and whether a kept one sits next to an item of only non-ASCII word characters. */
function boundaryVerdicts(
  regex: string,
): { dropped: Token[]; edges: { t: Token; text: string }[]; foreign: boolean } | undefined {
  if (!/\\[bB]/.test(regex) || /\(\?[a-zA-Z]*(x|U|-[a-zA-Z]*u)/.test(regex)) return undefined;
  const tokens = tokenize(regex);
  if (!tokens) return undefined;
  const pattern = new Structure(tokens);
  const dropped: Token[] = [];
  const edges: { t: Token; text: string }[] = [];
  let foreign = false;
  tokens.forEach((t, k) => {
    if (t.role !== 'boundary') return;
    const before = pattern.before(k);
    const after = pattern.after(k);
    if (before && after && decided(t, before, after, pattern)) {
      dropped.push(t);
      return;
    }
    const edge = before && after && edgeOf(t, before, after);
    if (edge) edges.push({ t, text: edge });
    foreign ||= [...(before ?? []), ...(after ?? [])].some((n) => n !== 'start' && n !== 'end' && n.foreignWord);
  });
  return { dropped, edges, foreign };
}

/** A kept boundary's exact condition where it starts or ends the pattern next to items all of one kind, else undefined. */
function edgeOf(boundary: Token, before: readonly Neighbour[], after: readonly Neighbour[]): string | undefined {
  const right = sideKind(after, '$');
  const left = sideKind(before, '^');
  if (before.every((n) => n === 'start') && right) return edgeCondition(boundary, right, 'start');
  if (after.every((n) => n === 'end') && left) return edgeCondition(boundary, left, 'end');
  return undefined;
}

function decided(
  boundary: Token,
  before: readonly Neighbour[],
  after: readonly Neighbour[],
  pattern: Structure,
): boolean {
  if (before.length === 0 || after.length === 0) return false;
  const negated = boundary.kind === 'other'; // \B
  const left = sideKind(before, '^');
  const right = sideKind(after, '$');
  if (left !== undefined && right !== undefined) return negated ? left === right : left !== right;
  if (negated) return false;
  if (after.every((n) => n === 'end' || sideKind([n], '$') === 'nonword')) return before.every(isGreedyWordRun);
  if (before.every((n) => n === 'start') && after.every(isGreedyWordRun)) {
    const ends = pattern.before(pattern.length, true);
    return (
      ends !== undefined && ends.every((n) => isGreedyWordRun(n) || (isItem(n) && n.min >= 1 && n.kind === 'nonword'))
    );
  }
  return false;
}

/**
 * The one kind of character every neighbour on a side matches: an item's own, the side's edge
 * assertion (`^` before the boundary, `$` after it) a non-word one; undefined when they differ or
 * one is of both kinds, another assertion, or the pattern's start or end (any text lies there).
 */
function sideKind(neighbours: readonly Neighbour[], edge: '^' | '$'): 'word' | 'nonword' | undefined {
  const kinds = new Set(
    neighbours.map((n) =>
      n === 'start' || n === 'end' ? 'other' : n.role === 'item' ? n.kind : n.edge === edge ? 'nonword' : 'other',
    ),
  );
  const [kind] = kinds;
  return kinds.size === 1 && kind !== 'other' ? kind : undefined;
}

function isItem(t: Neighbour | undefined): t is Token {
  return t !== undefined && t !== 'start' && t !== 'end' && t.role === 'item';
}

function isGreedyWordRun(t: Neighbour | undefined): boolean {
  return isItem(t) && t.min >= 1 && t.perlWord && t.greedy && t.unbounded;
}

/**
 * The pattern's groups and alternatives, for the neighbours of a position: the items that may
 * match the character before it or after it (`before`, `after`).
 */
class Structure {
  /** For each bracket or bar, the index of its group's opening and closing brackets (-1 and length: the whole pattern). */
  private readonly groupOf = new Map<number, { open: number; close: number; bars: number[] }>();

  constructor(private readonly tokens: readonly Token[]) {
    const stack: { open: number; bars: number[] }[] = [{ open: -1, bars: [] }];
    tokens.forEach((t, k) => {
      if (t.role === 'open') stack.push({ open: k, bars: [] });
      else if (t.role === 'bar') stack.at(-1)!.bars.push(k);
      else if (t.role === 'close') this.record(stack.pop()!, k); // balanced: tokenize checked
    });
    this.record(stack[0]!, tokens.length);
  }

  get length(): number {
    return this.tokens.length;
  }

  private record(group: { open: number; bars: number[] }, close: number): void {
    const entry = { ...group, close };
    for (const k of [group.open, ...group.bars, close]) this.groupOf.set(k, entry);
  }

  /**
   * The neighbours that may match the character after the boundary at `k`, or undefined when one
   * is a boundary (whose own truth is open). `through` is the positions already walked (a repeated group).
   */
  after(k: number, through = new Set<number>()): Neighbour[] | undefined {
    const at = k + 1;
    if (through.has(at)) return [];
    through.add(at);
    const t = this.tokens[at];
    if (t === undefined) return ['end'];
    if (t.role === 'boundary') return undefined;
    if (t.role === 'item') return t.min >= 1 ? [t] : this.join([t], this.after(at, through));
    if (t.role === 'assertion') return [t];
    const group = this.groupOf.get(at)!;
    if (t.role === 'open') {
      const branches = [at, ...group.bars].map((b) => this.after(b, through));
      const closing = this.tokens[group.close];
      return closing?.min === 0 ? this.join(...branches, this.after(group.close, through)) : this.join(...branches);
    }
    // The end of a branch: what follows its group, or the group again when it repeats.
    if (group.close === this.tokens.length) return ['end'];
    const closing = this.tokens[group.close]!;
    const next = this.after(group.close, through);
    return closing.unbounded || closing.min > 1 ? this.join(next, this.after(group.open - 1, through)) : next;
  }

  /**
   * The neighbours that may match the character before position `k` (the token at `k` or the
   * pattern's end), or undefined when one is a boundary; `skipBoundaries` steps over them instead.
   */
  before(k: number, skipBoundaries = false, through = new Set<number>()): Neighbour[] | undefined {
    const at = k - 1;
    if (through.has(at)) return [];
    through.add(at);
    const t = this.tokens[at];
    if (t === undefined) return ['start'];
    if (t.role === 'boundary') return skipBoundaries ? this.before(at, true, through) : undefined;
    if (t.role === 'item') return t.min >= 1 ? [t] : this.join([t], this.before(at, skipBoundaries, through));
    if (t.role === 'assertion') return [t];
    const group = this.groupOf.get(at)!;
    const ends = (): (Neighbour[] | undefined)[] =>
      [...group.bars, group.close].map((b) => this.before(b, skipBoundaries, through));
    if (t.role === 'close') {
      const preceding = t.min === 0 ? [this.before(group.open, skipBoundaries, through)] : [];
      return this.join(...ends(), ...preceding);
    }
    // The start of a branch: what precedes its group, or the group's ends when it repeats.
    if (group.open === -1) return ['start'];
    const closing = this.tokens[group.close];
    const preceding = this.before(group.open, skipBoundaries, through);
    return closing && (closing.unbounded || closing.min > 1) ? this.join(preceding, ...ends()) : preceding;
  }

  private join(...lists: (Neighbour[] | undefined)[]): Neighbour[] | undefined {
    return lists.some((l) => l === undefined) ? undefined : lists.flatMap((l) => l!);
  }
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
  return kindOf(set) === 'word' && isDisjoint(set, ASCII);
}

const ESCAPED_KINDS: Record<string, Kind> = {
  w: 'word',
  d: 'word',
  W: 'nonword',
  s: 'nonword',
  S: 'other',
  D: 'other',
};

/** A hex escape's code point (`\x41`, `\x{E9}`, `\u00E9`, `\u{E9}`, `\U000000E9`, `\U{E9}`), after its backslash. */
const HEX_ESCAPE = /^(?:[xuU]\{([0-9A-Fa-f]{1,6})\}|x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))/;

/** The members and length (after the backslash) of an escape the analysis reads as a set, or undefined. */
function escapedSet(regex: string, i: number): { members: CodePoints; length: number } | undefined {
  const hex = HEX_ESCAPE.exec(regex.slice(i + 1, i + 12));
  if (hex) {
    const code = parseInt(hex[1] ?? hex[2] ?? hex[3] ?? hex[4]!, 16);
    return { members: [code, code], length: hex[0].length };
  }
  const property = propertyEscape(regex.slice(i));
  if (!property?.property || property.negated) return undefined;
  return { members: propertyCodePoints(property.property), length: property.text.length - 1 };
}

/** The pattern's tokens, or undefined when it holds what the rules do not read (a lookaround, an unknown escape). */
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
    if (c === '(') {
      const group = /^\((?:\?(?:[a-zA-Z]*(?:-[a-zA-Z]*)?[:)]|P?<[^>]+>))?/.exec(regex.slice(i))![0];
      if (regex[i + 1] === '?' && group === '(') return undefined; // a lookaround: refused before this
      if (group.endsWith(')')) {
        i += group.length; // a flag group sets flags and matches nothing
        continue;
      }
      role = 'open';
      end = i + group.length;
    } else if (c === ')') role = 'close';
    else if (c === '|') role = 'bar';
    else if (c === '^' || c === '$') {
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
      const escaped = /^[xuUpP]$/.test(next) ? escapedSet(regex, i) : undefined;
      if (next === 'b' || next === 'B') {
        role = 'boundary';
        kind = next === 'b' ? 'word' : 'other';
      } else if (next === 'A' || next === 'z') {
        role = 'assertion';
        edge = next === 'A' ? '^' : '$';
      } else if (escaped) {
        members = escaped.members;
        kind = kindOf(members);
        end = i + 1 + escaped.length;
      } else if (ESCAPED_KINDS[next]) kind = ESCAPED_KINDS[next];
      else if (/^[^0-9A-Za-z]$/.test(next)) kind = kindOf([next.codePointAt(0)!, next.codePointAt(0)!]);
      else if (/^[ntrfva]$/.test(next)) kind = 'nonword';
      else return undefined; // octal, a negated property: not read here
    } else if (c !== '.') {
      const code = regex.codePointAt(i)!;
      end = i + String.fromCodePoint(code).length;
      members = [code, code];
      kind = kindOf(members);
    }
    const quantified = role === 'item' || role === 'close';
    const quantifier = quantified ? /^(?:[*+?]|\{(\d*)(,?)(\d*)\})(\??)/.exec(regex.slice(end)) : null;
    const q = quantifier?.[0] ?? '';
    const min = !quantifier ? 1 : q.startsWith('+') ? 1 : q.startsWith('{') ? Number(quantifier[1] || 0) : 0;
    tokens.push({
      start: i,
      end: end + q.length,
      role,
      kind,
      perlWord: regex.slice(i, end) === '\\w',
      min,
      foreignWord: members !== undefined && isForeignWord(members),
      greedy: quantifier?.[4] !== '?',
      unbounded:
        q.startsWith('+') ||
        q.startsWith('*') ||
        (quantifier?.[2] === ',' && quantifier[3] === '') ||
        (role === 'close' && Number(quantifier?.[3] || quantifier?.[1] || 0) > 1),
      edge,
    });
    i = end + q.length;
  }
  return balanced(tokens) ? tokens : undefined;
}

/** Whether every group closes once it opened (else the regex check refuses the regex, not this analysis). */
function balanced(tokens: readonly Token[]): boolean {
  let depth = 0;
  for (const t of tokens) {
    depth += t.role === 'open' ? 1 : t.role === 'close' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}
