// Bracketed character classes as Kusto's regex syntax page defines them, read into a tree so that
// what RE2 cannot spell itself (a negated Perl class inside a class, `[^\W\d_]`; nesting and the
// set operations `&&`, `--`, `~~`; binary properties such as `\p{Alphabetic}`) is computed as a set
// of code points and handed to RE2 as explicit ranges. Precedence as the page gives it: ranges,
// then union, then the set operations left to right, then negation.
import {
  codePointsOf,
  complement,
  difference,
  fromRanges,
  intersection,
  MAX_CODE_POINT,
  NOTHING,
  re2Class,
  SPACE_JS,
  symmetricDifference,
  union,
  WORD_JS,
  type CodePoints,
} from './regex-codepoints';
import { propertyCodePoints, propertyEscape, type UnicodeProperty } from './regex-properties';

type Item =
  | { readonly kind: 'range'; readonly lo: number; readonly hi: number }
  | { readonly kind: 'perl'; readonly letter: string }
  | { readonly kind: 'property'; readonly negated: boolean; readonly property: UnicodeProperty }
  | { readonly kind: 'posix'; readonly negated: boolean; readonly name: string }
  | { readonly kind: 'class'; readonly node: ClassNode };

type Operator = '&&' | '--' | '~~';

/** `[^a-z&&b]`: operands (each a union of items) joined left to right by operators, then negated. */
interface ClassNode {
  readonly negated: boolean;
  readonly operands: readonly (readonly Item[])[];
  readonly operators: readonly Operator[];
}

/** How a class is read: verbose mode drops its whitespace, `-u` keeps the Perl classes ASCII. */
export interface ClassMode {
  readonly verbose: boolean;
  readonly ascii: boolean;
}

export { SPACE_JS, WORD_JS } from './regex-codepoints';

/** The page's ASCII classes (`[[:alpha:]]`), as its table defines them. */
const POSIX: Record<string, readonly (readonly [number, number])[]> = {
  alnum: [
    [48, 57],
    [65, 90],
    [97, 122],
  ],
  alpha: [
    [65, 90],
    [97, 122],
  ],
  ascii: [[0, 127]],
  blank: [
    [9, 9],
    [32, 32],
  ],
  cntrl: [
    [0, 31],
    [127, 127],
  ],
  digit: [[48, 57]],
  graph: [[33, 126]],
  lower: [[97, 122]],
  print: [[32, 126]],
  punct: [
    [33, 47],
    [58, 64],
    [91, 96],
    [123, 126],
  ],
  space: [
    [9, 13],
    [32, 32],
  ],
  upper: [[65, 90]],
  word: [
    [48, 57],
    [65, 90],
    [95, 95],
    [97, 122],
  ],
  xdigit: [
    [48, 57],
    [65, 70],
    [97, 102],
  ],
};

const ASCII_PERL: Record<string, readonly (readonly [number, number])[]> = {
  d: POSIX.digit!,
  w: POSIX.word!,
  s: POSIX.space!,
};

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };

/** A class read from `[` at `start`: its tree and the index just past its `]`. */
export interface ParsedClass {
  readonly node: ClassNode;
  readonly end: number;
}

/**
 * The class opening at `start` (a `[`), or undefined when it is not one the page's syntax reads
 * (unclosed, an unknown escape, a range out of order): the caller then leaves it to RE2, whose
 * error the regex check reports.
 */
export function parseClass(regex: string, start: number, mode: ClassMode): ParsedClass | undefined {
  return new ClassReader(regex, mode).parse(start);
}

class ClassReader {
  constructor(
    private readonly text: string,
    private readonly mode: ClassMode,
  ) {}

  parse(start: number): ParsedClass | undefined {
    let i = start + 1;
    const negated = this.text[i] === '^';
    if (negated) i++;
    const operands: Item[][] = [[]];
    const operators: Operator[] = [];
    let first = true;
    for (;;) {
      i = this.skipSpace(i);
      const c = this.text[i];
      if (c === undefined) return undefined;
      if (c === ']' && !first) return { node: { negated, operands, operators }, end: i + 1 };
      first = false;
      const op = this.text.slice(i, i + 2);
      if ((op === '&&' || op === '--' || op === '~~') && this.text[i + 2] !== ']') {
        operators.push(op);
        operands.push([]);
        i += 2;
        continue;
      }
      const item = this.item(i);
      if (!item) return undefined;
      operands[operands.length - 1]!.push(item.item);
      i = item.end;
    }
  }

  private skipSpace(i: number): number {
    while (this.mode.verbose && i < this.text.length && /\s/.test(this.text[i]!)) i++;
    return i;
  }

  /** One item at `i`: a nested class, a POSIX class, an escape, or a character or range. */
  private item(i: number): { item: Item; end: number } | undefined {
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.text.slice(i, i + 12));
    if (posix) {
      if (!POSIX[posix[2]!]) return undefined;
      return { item: { kind: 'posix', negated: posix[1] === '^', name: posix[2]! }, end: i + posix[0].length };
    }
    if (this.text[i] === '[') {
      const nested = this.parse(i);
      return nested && { item: { kind: 'class', node: nested.node }, end: nested.end };
    }
    if (this.text[i] === '\\') {
      const letter = this.text[i + 1] ?? '';
      if (/^[dDwWsS]$/.test(letter)) return { item: { kind: 'perl', letter }, end: i + 2 };
      const property = propertyEscape(this.text.slice(i));
      if (property) {
        const { negated, property: found } = property;
        return found && { item: { kind: 'property', negated, property: found }, end: i + property.text.length };
      }
    }
    const lo = this.char(i);
    if (!lo) return undefined;
    const dash = this.skipSpace(lo.end);
    if (this.text[dash] === '-' && this.text[dash + 1] !== ']' && this.text[dash + 1] !== '-') {
      const hi = this.char(this.skipSpace(dash + 1));
      if (!hi || hi.code < lo.code) return undefined;
      return { item: { kind: 'range', lo: lo.code, hi: hi.code }, end: hi.end };
    }
    return { item: { kind: 'range', lo: lo.code, hi: lo.code }, end: lo.end };
  }

  /** One character at `i`, written as itself or as an escape; undefined for an escape of a class or unknown letter. */
  private char(i: number): { code: number; end: number } | undefined {
    const c = this.text.codePointAt(i);
    if (c === undefined) return undefined;
    if (c !== 0x5c) return { code: c, end: i + String.fromCodePoint(c).length };
    const rest = this.text.slice(i + 1, i + 12);
    const hex = /^(?:[xuU]\{([0-9A-Fa-f]{1,6})\}|x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))/.exec(rest);
    if (hex) {
      const code = parseInt(hex[1] ?? hex[2] ?? hex[3] ?? hex[4]!, 16);
      return code > MAX_CODE_POINT ? undefined : { code, end: i + 1 + hex[0].length };
    }
    const octal = /^[0-7]{1,3}/.exec(rest);
    if (octal) return { code: parseInt(octal[0], 8), end: i + 1 + octal[0].length };
    const next = rest.codePointAt(0);
    if (next === undefined) return undefined;
    const letter = String.fromCodePoint(next);
    if (SIMPLE_ESCAPES[letter] !== undefined) return { code: SIMPLE_ESCAPES[letter], end: i + 2 };
    return /[0-9A-Za-z]/.test(letter) ? undefined : { code: next, end: i + 1 + letter.length };
  }
}

/**
 * Whether RE2 could not read the class as written, so that it must be computed: nesting, a set
 * operation, a negated Unicode `\W` or `\S` (RE2's are ASCII, and a negation of a union has no
 * spelling inside a class), or a property RE2 does not know (`\p{Alphabetic}`, `\p{scx=Greek}`).
 */
export function needsComputing(node: ClassNode, mode: ClassMode): boolean {
  return (
    node.operators.length > 0 ||
    node.operands.some((items) =>
      items.some(
        (item) =>
          item.kind === 'class' ||
          (item.kind === 'perl' && !mode.ascii && (item.letter === 'W' || item.letter === 'S')) ||
          (item.kind === 'property' && item.property.re2 === undefined),
      ),
    )
  );
}

/** The code points a class matches; `fold` gives each item's simple case folding (the i flag, as the page's engine folds). */
export function classCodePoints(node: ClassNode, mode: ClassMode, fold: (set: CodePoints) => CodePoints): CodePoints {
  const operands = node.operands.map((items) =>
    fold(items.reduce<CodePoints>((set, item) => union(set, itemCodePoints(item, mode, fold)), NOTHING)),
  );
  let set = operands[0]!;
  node.operators.forEach((op, k) => {
    const right = operands[k + 1]!;
    set =
      op === '&&' ? intersection(set, right) : op === '--' ? difference(set, right) : symmetricDifference(set, right);
  });
  return node.negated ? complement(fold(set)) : set;
}

function itemCodePoints(item: Item, mode: ClassMode, fold: (set: CodePoints) => CodePoints): CodePoints {
  switch (item.kind) {
    case 'range':
      return [item.lo, item.hi];
    // A negated item is folded first, then negated, as the page's engine reads `(?i)[\P{Ll}]`: the
    // complement of the folded set (no cased letter), where folding the complement would take every letter back.
    case 'posix': {
      const set = fromRanges(POSIX[item.name]!);
      return item.negated ? complement(fold(set)) : set;
    }
    case 'property': {
      const set = propertyCodePoints(item.property);
      return item.negated ? complement(fold(set)) : set;
    }
    case 'class':
      return classCodePoints(item.node, mode, fold);
    case 'perl': {
      const set = perlCodePoints(item.letter.toLowerCase(), mode);
      return item.letter === item.letter.toLowerCase() ? set : complement(fold(set));
    }
  }
}

function perlCodePoints(letter: string, mode: ClassMode): CodePoints {
  if (mode.ascii) return fromRanges(ASCII_PERL[letter]!);
  return codePointsOf(letter === 'd' ? '\\p{Nd}' : letter === 'w' ? WORD_JS : SPACE_JS);
}

/** A property RE2 does not know, outside a class, as a class of its code points (`\P`: their complement). */
export function propertyClass(property: UnicodeProperty, negated: boolean): string {
  const set = propertyCodePoints(property);
  return re2Class(negated ? complement(set) : set);
}

/** The class as a whole RE2 class of explicit ranges. */
export function computedClass(node: ClassNode, mode: ClassMode, fold: (set: CodePoints) => CodePoints): string {
  return re2Class(classCodePoints(node, mode, fold));
}
