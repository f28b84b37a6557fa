// Kusto's default column names: derived from the expression where Kusto derives one, ColumnN otherwise,
// numeric suffixes for duplicates (avg_Value1, Timestamp1).
import type { Expr } from './ast';

/**
 * How a function call names its column (Kusto.Language's ResultNameKind per function, which mirrors the
 * engine): `first` takes its first argument's name (tostring(x) -> x), `only` likewise but only with
 * one argument, `prefixed` puts a prefix before it (strlen(x) -> strlen_x, gettype(x) -> type_x),
 * `suffixed` a suffix after it (array_sort_asc(x) -> x_sorted), `fixed` is a constant name. A function
 * not listed names nothing: ColumnN, or `sum_` inside sum().
 */
type ResultName =
  | { readonly kind: 'first' | 'only' }
  | { readonly kind: 'prefixed'; readonly prefix: string }
  | { readonly kind: 'suffixed'; readonly suffix: string }
  | { readonly kind: 'fixed'; readonly name: string };

const FIRST: ResultName = { kind: 'first' };
const RESULT_NAMES: ReadonlyMap<string, ResultName> = new Map<string, ResultName>([
  ...[
    // conversions and parsing
    'tostring',
    'todouble',
    'toreal',
    'toint',
    'tolong',
    'tobool',
    'toboolean',
    'todatetime',
    'totimespan',
    'totime',
    'todynamic',
    'toobject',
    'todecimal',
    'toguid',
    'tohex',
    'parse_json',
    'parsejson',
    'parse_csv',
    'parse_xml',
    'split',
    // rounding and dates
    'bin',
    'floor',
    'bin_at',
    'bin_auto',
    'startofday',
    'format_datetime',
    'format_timespan',
    'datetime_to_locale_string',
    'number_to_locale_string',
    // math
    'round',
    'ceiling',
    'pow',
    'sqrt',
    'log',
    'log2',
    'log10',
    'exp',
    'exp2',
    'exp10',
    'cos',
    'sin',
    'tan',
    'acos',
    'asin',
    'atan',
    'atan2',
    'abs',
    'rand',
    'gamma',
    'loggamma',
    // bits and series
    'binary_and',
    'binary_or',
    'binary_xor',
    'binary_not',
    'binary_shift_left',
    'binary_shift_right',
    'bitset_count_ones',
    'series_fir',
    'series_iir',
    'series_outliers',
    'series_fill_backward',
    'series_fill_forward',
    'series_fill_const',
    'series_fill_linear',
  ].map((name) => [name, FIRST] as const),
  ['make_datetime', { kind: 'only' }],
  ['make_timespan', { kind: 'only' }],
  ['strlen', { kind: 'prefixed', prefix: 'strlen' }],
  ['string_size', { kind: 'prefixed', prefix: 'string_size' }],
  ['percentile_tdigest', { kind: 'prefixed', prefix: 'percentile_tdigest' }],
  ['percentiles_array_tdigest', { kind: 'prefixed', prefix: 'percentile_tdigest' }],
  ['dcount_hll', { kind: 'prefixed', prefix: 'dcount_hll' }],
  ['gettype', { kind: 'prefixed', prefix: 'type' }],
  ['treepath', { kind: 'prefixed', prefix: 'tree' }],
  ['repeat', { kind: 'prefixed', prefix: 'repeat' }],
  ['tdigest_merge', { kind: 'fixed', name: 'tdigests_merge_result' }],
  ['merge_tdigests', { kind: 'fixed', name: 'tdigests_merge_result' }],
  ['hll_merge', { kind: 'fixed', name: 'hll_merged_result' }],
  // The array_sort pages print array1_sorted ("names generated automatically, based on the arguments").
  ['array_sort_asc', { kind: 'suffixed', suffix: 'sorted' }],
  ['array_sort_desc', { kind: 'suffixed', suffix: 'sorted' }],
]);

/** The argument whose name a call passes on (first, or only with one argument), or undefined. */
function namingArgument(rule: ResultName, args: readonly Expr[]): Expr | undefined {
  if (rule.kind === 'only') return args.length === 1 ? args[0] : undefined;
  return rule.kind === 'fixed' ? undefined : args[0];
}

/**
 * The name a column gets in project/extend/summarize-by when none is given, or undefined (then ColumnN).
 * `nested`: expr is inside another expression, where a `suffixed` call names nothing (Kusto.Language:
 * tostring(array_sort_asc(x)) is Column1, the suffix names only the function's own output column).
 * A prefixed call whose argument names nothing is still named (strlen("ab") is strlen_).
 */
export function derivedName(expr: Expr, nested = false): string | undefined {
  switch (expr.kind) {
    case 'name':
      return expr.name;
    case 'member': {
      const base = derivedName(expr.target, true);
      return base === undefined ? undefined : `${base}_${expr.name}`;
    }
    case 'index': {
      const base = derivedName(expr.target, true);
      const idx = expr.index;
      if (base === undefined) return undefined;
      // A computed index names nothing after the underscore (Kusto.Language: x[i] and x[-1] are x_).
      return `${base}_${idx.kind === 'literal' && idx.value !== null ? String(idx.value) : ''}`;
    }
    case 'call': {
      const rule = RESULT_NAMES.get(expr.name);
      if (rule === undefined) return undefined;
      if (rule.kind === 'fixed') return rule.name;
      if (rule.kind === 'suffixed' && nested) return undefined;
      const arg = namingArgument(rule, expr.args);
      const inner = arg === undefined ? undefined : derivedName(arg, true);
      if (rule.kind === 'prefixed') return `${rule.prefix}_${inner ?? ''}`;
      // An array that names nothing is array0 (Kusto.Language: array_sort_asc(dynamic([2, 1])) is array0_sorted).
      if (rule.kind === 'suffixed') return `${inner ?? 'array0'}_${rule.suffix}`;
      return inner;
    }
    default:
      return undefined;
  }
}

/** The argument part of an aggregate's default name: avg(todouble(Value.temp)) -> Value_temp, sum(x + 1) -> ''. */
export function aggregateArgumentName(expr: Expr | undefined): string {
  if (expr === undefined) return '';
  if (expr.kind === 'call') {
    const rule = RESULT_NAMES.get(expr.name);
    if (rule === undefined) return '';
    if (rule.kind === 'fixed') return rule.name;
    if (rule.kind === 'suffixed') return '';
    const inner = aggregateArgumentName(namingArgument(rule, expr.args));
    return rule.kind === 'prefixed' ? `${rule.prefix}_${inner}` : inner;
  }
  return derivedName(expr) ?? '';
}

/** base, or base1, base2 ... the first that is not taken. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  return new NameAllocator(taken).unique(base);
}

/** Column1, Column2 ... the first that is not taken. */
export function columnN(taken: ReadonlySet<string>): string {
  return new NameAllocator(taken).columnN();
}

/** Hands out the numbers of unnamed columns: 1, 2 ... from where the numbering stands. */
export interface ColumnNumbers {
  next(): number;
}

const ownNumbers = (): ColumnNumbers => {
  let n = 0;
  return { next: () => ++n };
};

/**
 * Kusto.Language numbers the unnamed columns of a query (Column1, Column2 ...) across the whole
 * query, not per operator: `extend 1 | project a, 2` gives Column1, then Column2, and `project 1 |
 * project 2` gives Column2, whatever the columns in between. Each operator asks with a position
 * of its own (the start of its span): an operator analyzed again (a let's body, a sub-query per
 * partition) gets the numbers it got the first time, so that its columns keep their names.
 */
export class ColumnNumbering {
  private last = 0;
  private readonly starts = new Map<number, number>();

  /** The numbers for the operator at `at`: after the query's last one, or as the first time. */
  at(at: number): ColumnNumbers {
    const start = this.starts.get(at) ?? this.last;
    this.starts.set(at, start);
    let n = start;
    return {
      next: () => {
        n++;
        this.last = Math.max(this.last, n);
        return n;
      },
    };
  }
}

/**
 * The names taken in one operator's output, handing out free ones (base1, base2 ..., ColumnN).
 * Names are only ever added, so each search resumes where the last one for the same base stopped:
 * n unnamed columns cost O(n), not O(n^2).
 */
export class NameAllocator {
  private readonly taken: Set<string>;
  private readonly next = new Map<string, number>();

  constructor(taken: Iterable<string> = []) {
    this.taken = new Set(taken);
  }

  has(name: string): boolean {
    return this.taken.has(name);
  }

  add(name: string): void {
    this.taken.add(name);
  }

  /** base if free, else the first free base1, base2 ... (not added: the caller adds what it uses). */
  unique(base: string): string {
    if (!this.taken.has(base)) return base;
    return this.numbered(base, base);
  }

  /** The first free Column1, Column2 ... (not added). */
  columnN(): string {
    return this.numbered('\u0000Column', 'Column');
  }

  /** The derived name made unique, or ColumnN when there is none. */
  derivedOrColumnN(derived: string | undefined): string {
    return derived === undefined ? this.columnN() : this.unique(derived);
  }

  /**
   * The next Column{k} of the query's numbering that is not taken (not added): each number tried
   * is used up, as Kusto.Language counts (`extend Column1 = 1 | extend 2 | project 3` gives Column2,
   * then Column3).
   */
  nextColumnN(numbers: ColumnNumbers): string {
    let name: string;
    do name = `Column${numbers.next()}`;
    while (this.taken.has(name));
    return name;
  }

  private numbered(key: string, base: string): string {
    let i = this.next.get(key) ?? 1;
    while (this.taken.has(`${base}${i}`)) i++;
    this.next.set(key, i);
    return `${base}${i}`;
  }
}

/**
 * The names of one summarize's, project's or make-series' output as Kusto.Language gives them. A
 * written name (`Name =`, a bare column) that another written one already has is refused by the caller; one meeting a generated
 * name is made unique (`sum(v), sum_v = max(k)` gives sum_v and sum_v1, the second the max). The k-th
 * unnamed column is Column{k} made unique (`Column1 = count(), sum(v) * 2` gives Column1, Column11).
 */
export class OutputNames extends NameAllocator {
  private readonly declared = new Set<string>();

  /** numbers: the query's numbering of unnamed columns (ColumnNumbering), or this output's own. */
  constructor(private readonly numbers: ColumnNumbers = ownNumbers()) {
    super();
  }

  /** Whether a written name is already another written column's. */
  isDeclared(name: string): boolean {
    return this.declared.has(name);
  }

  /** A written name made unique, taken and declared (callers check isDeclared first). */
  written(name: string): string {
    const unique = this.unique(name);
    this.add(unique);
    this.declared.add(unique);
    return unique;
  }

  /** A generated name made unique and taken: the derived one, or Column{k} for the next number. */
  generated(derived: string | undefined): string {
    const name = this.unique(derived ?? `Column${this.numbers.next()}`);
    this.add(name);
    return name;
  }
}

/** Hints are offered for names up to this length: longer ones are not typos a hint can fix. */
export const HINT_MAX_NAME_LENGTH = 32;
/** At most this many candidates get an edit distance computed. */
export const HINT_MAX_CANDIDATES = 100;

/**
 * Closest candidate by edit distance (case-insensitive), for "did you mean" hints: within
 * max(2, length / 3) edits, the first of the nearest. Bounded whatever the input: no hint for a
 * name longer than HINT_MAX_NAME_LENGTH, candidates of a too different length skipped without a
 * computation, at most HINT_MAX_CANDIDATES distances, each banded and stopped past the threshold.
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > HINT_MAX_NAME_LENGTH) return undefined;
  const threshold = Math.max(2, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  const rows = new EditRows(name.length + threshold + 1);
  let best: string | undefined;
  let bestDistance = threshold + 1;
  let computed = 0;
  for (const c of candidates) {
    if (Math.abs(c.length - name.length) >= bestDistance) continue;
    if (computed++ === HINT_MAX_CANDIDATES) break;
    const d = rows.distance(lower, c.toLowerCase(), bestDistance - 1);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
      if (d === 0) break;
    }
  }
  return best;
}

/** Levenshtein distance of a and b when it is at most `max`, else max + 1. */
export function boundedEditDistance(a: string, b: string, max: number): number {
  return new EditRows(b.length + 1).distance(a, b, max);
}

/**
 * Two reusable rows of the edit-distance table. Only the diagonal band |i - j| <= max is computed,
 * and the computation stops once a whole row exceeds max: O(min(|a|, |b|) * max) time, no
 * allocation per row.
 */
class EditRows {
  private prev: Int32Array;
  private cur: Int32Array;

  constructor(width: number) {
    this.prev = new Int32Array(width);
    this.cur = new Int32Array(width);
  }

  distance(a: string, b: string, max: number): number {
    const over = max + 1;
    if (Math.abs(a.length - b.length) > max) return over;
    if (this.prev.length < b.length + 1) {
      this.prev = new Int32Array(b.length + 1);
      this.cur = new Int32Array(b.length + 1);
    }
    let prev = this.prev;
    let cur = this.cur;
    for (let j = 0; j <= b.length; j++) prev[j] = j <= max ? j : over;
    for (let i = 1; i <= a.length; i++) {
      const from = Math.max(1, i - max);
      const to = Math.min(b.length, i + max);
      cur[0] = i <= max ? i : over;
      if (from > 1) cur[from - 1] = over;
      let rowMin = from === 1 ? cur[0]! : over;
      const ai = a.charCodeAt(i - 1);
      for (let j = from; j <= to; j++) {
        const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ai === b.charCodeAt(j - 1) ? 0 : 1), over);
        cur[j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (to < b.length) cur[to + 1] = over;
      if (rowMin > max) return over;
      [prev, cur] = [cur, prev];
    }
    return Math.min(prev[b.length]!, over);
  }
}

/**
 * Whether `name` matches a project-away pattern (`a*`, `*Id`, `*x*`): `*` matches any run of
 * characters, everything else itself. Two pointers with one backtrack point, not a regular
 * expression: a pattern of many stars cannot make it backtrack exponentially.
 */
export function matchesWildcard(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
