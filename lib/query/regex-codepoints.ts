// Sets of Unicode code points as sorted, disjoint, inclusive ranges, for the character classes RE2
// cannot spell itself: a negated Perl class inside a class (`[^\W\d_]`), the class set operations
// of Kusto's regex syntax page (`&&`, `--`, `~~`, nesting) and the binary properties RE2 lacks
// (`\p{Alphabetic}`). The members come from JavaScript's own Unicode property escapes, scanned once
// per property and cached for the process: never per query.

/** Inclusive ranges `[lo0, hi0, lo1, hi1, ...]`, sorted and disjoint, not touching. */
export type CodePoints = readonly number[];

import { once } from './once-per-process';

/** Unicode's word characters as the page defines `\w`: Alphabetic, marks, decimal digits, connectors, joiners. */
export const WORD_JS = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';
/** Unicode's White_Space, the page's `\s`. */
export const SPACE_JS = '\\p{White_Space}';

export const MAX_CODE_POINT = 0x10ffff;
export const NOTHING: CodePoints = [];
export const EVERYTHING: CodePoints = [0, MAX_CODE_POINT];

const scanned = new Map<string, CodePoints>();
/** The sets of ONCE_PER_PROCESS, scanned at most once per process. */
const fixedSets = new Map<string, CodePoints>();

/**
 * Caches keyed by query text (class spellings, folded sets, property names) are emptied when
 * they grow past this, so that no stream of distinct regexes grows the process without bound.
 */
const CACHE_LIMIT = 512;

/** `map.set(key, value)`, emptying the map first when it is full. */
export function cacheSet<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= CACHE_LIMIT) map.clear();
  map.set(key, value);
  return value;
}

/**
 * The code points a JavaScript class body (`\p{Alphabetic}\p{M}`, read with the `u` flag, or with
 * `v`, whose class set operations check this module's own) matches, scanned over all of Unicode the
 * first time it is asked for and cached. Throws a SyntaxError when JavaScript does not know the property.
 */
export function codePointsOf(jsClassBody: string, flags: 'u' | 'v' = 'u'): CodePoints {
  const key = `${flags}${jsClassBody}`;
  const known = fixedSets.get(key) ?? scanned.get(key);
  if (known) return known;
  const test = new RegExp(`^[${jsClassBody}]$`, flags);
  // The fixed sets every process needs are scanned outside the compile budget and kept for the
  // process (their own map, which cacheSet never empties); any other set counts in the budget of
  // the compile that asks for it.
  if (!ONCE_PER_PROCESS.has(key)) return cacheSet(scanned, key, scan(test));
  const set = once(() => scan(test));
  fixedSets.set(key, set);
  return set;
}

/** Every code point a one-character test matches, as ranges. */
function scan(test: RegExp): CodePoints {
  const out: number[] = [];
  let lo = -1;
  for (let c = 0; c <= MAX_CODE_POINT; c++) {
    const member = test.test(String.fromCodePoint(c));
    if (member && lo < 0) lo = c;
    else if (!member && lo >= 0) {
      out.push(lo, c - 1);
      lo = -1;
    }
  }
  if (lo >= 0) out.push(lo, MAX_CODE_POINT);
  return out;
}

/** The set of the ranges given as pairs in any order, overlapping or not. */
export function fromRanges(pairs: readonly (readonly [number, number])[]): CodePoints {
  const sorted = [...pairs].filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of sorted) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

function pairsOf(set: CodePoints): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < set.length; i += 2) out.push([set[i]!, set[i + 1]!]);
  return out;
}

/** Whether every member of `a` is in `b`, walking both once. */
export function isSubset(a: CodePoints, b: CodePoints): boolean {
  let j = 0;
  for (let i = 0; i < a.length; i += 2) {
    while (j < b.length && b[j + 1]! < a[i]!) j += 2;
    if (j >= b.length || b[j]! > a[i]! || b[j + 1]! < a[i + 1]!) return false;
  }
  return true;
}

/** Whether `a` and `b` share no member, walking both once. */
export function isDisjoint(a: CodePoints, b: CodePoints): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return false;
  }
  return true;
}

export function union(a: CodePoints, b: CodePoints): CodePoints {
  return fromRanges([...pairsOf(a), ...pairsOf(b)]);
}

export function complement(set: CodePoints): CodePoints {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i]! > next) out.push(next, set[i]! - 1);
    next = set[i + 1]! + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

export function intersection(a: CodePoints, b: CodePoints): CodePoints {
  return complement(union(complement(a), complement(b)));
}

export function difference(a: CodePoints, b: CodePoints): CodePoints {
  return intersection(a, complement(b));
}

export function symmetricDifference(a: CodePoints, b: CodePoints): CodePoints {
  return union(difference(a, b), difference(b, a));
}

/** One code point as RE2 reads it inside a class: letters and digits as they are, the rest by hex. */
function re2Char(c: number): string {
  return /[0-9A-Za-z]/.test(String.fromCodePoint(c)) ? String.fromCodePoint(c) : `\\x{${c.toString(16).toUpperCase()}}`;
}

/**
 * The members of a set as RE2 reads them inside brackets (`a-z\x{E9}`), without the brackets.
 * Surrogates (which no UTF-8 text holds) are left out, so no range names one.
 */
export function re2Members(set: CodePoints): string {
  let out = '';
  for (const [lo, hi] of pairsOf(difference(set, [0xd800, 0xdfff]))) {
    out += lo === hi ? re2Char(lo) : hi === lo + 1 ? re2Char(lo) + re2Char(hi) : `${re2Char(lo)}-${re2Char(hi)}`;
  }
  return out;
}

/**
 * The general categories a class is first written with, where they lie wholly inside it: most of
 * a Unicode class's members are letters, marks or digits, so `\p{L}\p{M}` and a few ranges are
 * a few hundred characters where the ranges alone are ten thousand.
 */
const COVERING_CATEGORIES = ['L', 'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'M', 'Nd', 'Nl'];

/**
 * The sets scanned once per process whatever the queries (the Perl classes' and the covering
 * categories'), kept out of the cache's clearing and out of the compile budget (once-per-process.ts).
 */
const ONCE_PER_PROCESS = new Set([
  ...COVERING_CATEGORIES.map((category) => `u\\p{${category}}`),
  `u${WORD_JS}`,
  `u${SPACE_JS}`,
]);

/** The set's members, as RE2 reads them inside brackets: categories it holds whole, then ranges. */
function coverMembers(set: CodePoints): string {
  let rest = set;
  let out = '';
  for (const category of COVERING_CATEGORIES) {
    const members = codePointsOf(`\\p{${category}}`);
    if (!isSubset(members, rest)) continue;
    out += `\\p{${category}}`;
    rest = difference(rest, members);
  }
  return out + re2Members(rest);
}

/**
 * A whole class matching exactly the set, written the shorter way: its members, or `^` and its
 * complement's members. The empty set is a class no character matches.
 */
export function re2Class(set: CodePoints): string {
  if (set.length === 0) return '[^\\x{0}-\\x{10FFFF}]';
  const rest = complement(set);
  // Every character (`[\s\S]`): `[^]` would be an empty class, which RE2 and Java refuse.
  if (difference(rest, [0xd800, 0xdfff]).length === 0) return '[\\x{0}-\\x{10FFFF}]';
  const members = coverMembers(set);
  const others = coverMembers(rest);
  return others.length < members.length ? `[^${others}]` : `[${members}]`;
}

/**
 * The set closed under simple case folding (`k` brings `K` and the Kelvin sign), as the i flag
 * makes Kusto's engine read every class item; JavaScript's `iu` matching folds the same way. Each
 * member with another case brings its case class (caseClasses), so the cost is that of the set's
 * cased members, not a scan of Unicode.
 */
export function caseFolded(set: CodePoints): CodePoints {
  const { points, classes } = (caseClasses ??= once(buildCaseClasses));
  const pairs = pairsOf(set);
  const partners: [number, number][] = [];
  for (const [lo, hi] of pairs) {
    for (let k = firstAtLeast(points, lo); k < points.length && points[k]! <= hi; k++)
      for (const m of classes.get(points[k]!)!) partners.push([m, m]);
  }
  return partners.length === 0 ? set : fromRanges([...pairs, ...partners]);
}

/** The index of the first element of a sorted array at least `value` (its length when none is). */
function firstAtLeast(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** No code point above this has another case: the cased scripts all lie in Unicode's first two planes (a test checks it). */
export const CASED_LIMIT = 0x1ffff;

/** The code points with another case, sorted, and each one's case class (itself included). */
interface CaseClasses {
  readonly points: readonly number[];
  readonly classes: ReadonlyMap<number, readonly number[]>;
}

let caseClasses: CaseClasses | undefined;

/**
 * Simple case folding's classes, built once per process: the code points whose case mapping or
 * folding changes them are joined to their single-character lower and upper case, and to those
 * sharing a longer mapping (`ΐ` U+0390 and U+1FD3 both upper-case to three characters), each join
 * checked by JavaScript's own case-insensitive comparison (a backreference under `iu`).
 */
function buildCaseClasses(): CaseClasses {
  const changes = /^[\p{Changes_When_Casemapped}\p{Changes_When_Casefolded}]$/u;
  const same = /^(.)\1$/iu;
  const root = new Map<number, number>();
  const find = (c: number): number => {
    let r = c;
    while (root.get(r)! !== r) r = root.get(r)!;
    root.set(c, r);
    return r;
  };
  const join = (a: number, b: number): void => {
    if (!root.has(b)) root.set(b, b);
    if (same.test(String.fromCodePoint(a, b))) root.set(find(a), find(b));
  };
  const byMapping = new Map<string, number[]>();
  for (let c = 0; c <= CASED_LIMIT; c++) {
    const text = String.fromCodePoint(c);
    if (!changes.test(text)) continue;
    if (!root.has(c)) root.set(c, c);
    for (const mapped of [text.toLowerCase(), text.toUpperCase()]) {
      const single = mapped.codePointAt(0)!;
      if (mapped === String.fromCodePoint(single)) {
        if (single !== c) join(c, single);
        continue;
      }
      const sharing = byMapping.get(mapped) ?? [];
      for (const other of sharing) join(other, c);
      byMapping.set(mapped, [...sharing, c]);
    }
  }
  const members = new Map<number, number[]>();
  for (const c of root.keys()) members.set(find(c), [...(members.get(find(c)) ?? []), c]);
  const classes = new Map<number, readonly number[]>();
  for (const list of members.values()) if (list.length > 1) for (const c of list) classes.set(c, list);
  return { points: [...classes.keys()].sort((a, b) => a - b), classes };
}
