// evaluate new_activity_metrics(IdColumn, TimelineColumn, Start, End, Window [, Cohort] [, dim ...])
// (new_activity_metrics plugin docs, https://learn.microsoft.com/en-us/kusto/query/new-activity-metrics-plugin):
// for each cohort window `from` (the ids first seen in it, windows bin_at(Timeline, Window, Start)
// from Start to the one holding End) and each window `to` from `from` on, per dimension values:
// - dcount_new_values: ids of `to` not seen in any window up to `from` (for to == from: not seen
//   before it, the cohort itself; the page prints 4 for 11/1 to 11/1 and 2 for 11/2 to 11/2);
// - dcount_retained_values: ids of the cohort seen in `to`; dcount_churn_values: the others (a real,
//   as the page's schema table types it); retention_rate and churn_rate: both over the cohort's size
//   (NaN for an empty cohort, 0 / 0; the page filters those rows out of its printed example).
// Every (from, to) pair of windows is a row, also where `to` has no ids (the page's 11/6 rows).
// Written with operators the compiler has (joins of the input with itself and with ranges of window
// numbers), so both engines run it.
// Lookback (the last argument, a table with the IdColumn): ids seen before Start, so never new and in
// no cohort.
// Throws QueryError QUERY_SEMANTIC for missing or misplaced arguments and for more than
// MAX_WINDOWS windows between constant bounds, QUERY_UNSUPPORTED for a calendar Window.
import type { Expr, JoinKind, JoinSpec, NamedExpr, Operator, Pipeline } from './ast';
import { asc, binary, call, long, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import { clip } from './errors';
import type { Rel } from './ir';
import { foldConstant } from './range';
import { analyzeScalar } from './scalars';
import type { Span } from './tokens';
import { runOver } from './plugin-rewrite';
import type { KqlType } from './ir';
import { isNumeric } from './types';

/** Windows between constant bounds: the output has a row per pair of them (and per dimension values). */
export const MAX_WINDOWS = 1000;

export function analyzeNewActivityMetrics(
  h: MvApplyHost,
  input: Rel,
  args: readonly Expr[],
  argsSpan: Span,
  span: Span,
): Rel {
  const plugin = 'new_activity_metrics';
  if (args.length < 5) throw h.errors.semantic(`${plugin}() takes at least 5 arguments, got ${args.length}`, argsSpan);
  const isColumn = (e: Expr): boolean => e.kind === 'name' && input.columns.some((c) => c.name === e.name);
  const column = (e: Expr, what: string): string => {
    if (e.kind !== 'name') throw h.errors.semantic(`${plugin}() takes ${what} as a column name`, e.span);
    if (!isColumn(e)) {
      if (isTable(h, e.name, span))
        throw h.errors.semantic(`${plugin}()'s Lookback (a table of ids) is its last argument`, e.span);
      throw h.unknownColumn(e.name, input.columns, e.span);
    }
    return e.name;
  };
  const [id, timeline, start, end, window] = args as [Expr, Expr, Expr, Expr, Expr];
  const idName = column(id, 'the id');
  const time = column(timeline, 'the timeline');
  if (window.kind === 'literal' && window.type === 'string')
    throw h.errors.unsupported(
      `a Window of '${clip(String(window.value))}' (calendar periods) is not supported`,
      window.span,
    );
  // The last argument is the Lookback when it is a table; then the Cohort when the next one is not a
  // column (the syntax puts it before the dimensions).
  const last = args.length > 5 ? args[args.length - 1] : undefined;
  const lookback = last ? lookbackOf(h, last, isColumn(last), span) : undefined;
  const rest = args.slice(5, lookback ? -1 : undefined);
  const cohort = rest[0] !== undefined && !isColumn(rest[0]) ? rest[0] : undefined;
  if (cohort?.kind === 'name' && isTable(h, cohort.name, span))
    throw h.errors.semantic(`${plugin}()'s Lookback (a table of ids) is its last argument`, cohort.span);
  const dims = rest.slice(cohort ? 1 : 0).map((d) => column(d, 'each dimension'));
  checkTypes(h, input, timeline, { Start: start, End: end, ...(cohort ? { Cohort: cohort } : {}) }, window);
  checkWindows(h, input, start, end, window);

  const prefix = `\u0000${plugin} ${h.newRef()} `;
  const hide = (x: string): string => prefix + x;
  const [table, w, first, j, k, one, from, to, kept, fresh, size, rows] = [
    'input',
    'window',
    'first',
    'j',
    'k',
    'one',
    'from',
    'to',
    'retained',
    'new',
    'cohort',
    'rows',
  ].map(hide) as [string, string, string, string, string, string, string, string, string, string, string, string];
  const n = (x: string): Expr => name(x, span);
  const item = (x: string, expr: Expr): NamedExpr => ({ name: x, expr, span });
  const and = (a: Expr, b: Expr): Expr => binary('and', a, b, span);
  const eq = (a: Expr, b: Expr): Expr => binary('==', a, b, span);
  const windowAt = (index: string): Expr => binary('+', start, binary('*', n(index), window, span), span);
  const join = (kind: JoinKind, right: Pipeline, keys: readonly [string, string][]): Operator => {
    const on = keys.map(([left, r]) => ({ left, right: r, leftSpan: span, rightSpan: span, span }));
    const spec: JoinSpec = { lookup: false, joinKind: kind, kindSpan: span, right, on };
    return { kind: 'join', join: spec, span };
  };
  const pipeline = (operators: Operator[], source: Pipeline['source'] = { kind: 'table', name: table, span }) =>
    ({ kind: 'pipeline', source, operators, span }) as Pipeline;
  /** The input's rows between Start and End with their window. */
  const inWindows: Operator[] = [
    { kind: 'extend', items: [item(w, call('bin_at', [n(time), window, start], span))], span },
    { kind: 'where', predicate: and(binary('>=', n(w), start, span), binary('<=', n(w), end, span)), span },
  ];
  /** Window numbers 0 .. the one holding End, each with a constant key to join on. */
  const windowNumbers = (x: string): Pipeline =>
    pipeline([{ kind: 'extend', items: [item(one, long(1n, span))], span }], {
      kind: 'range',
      column: x,
      columnSpan: span,
      from: long(0n, span),
      to: call('tolong', [binary('/', binary('-', end, start, span), window, span)], span),
      step: long(1n, span),
      span,
    });
  const dimKeys = (side: (x: string) => string): [string, string][] => dims.map((d) => [d, side(d)]);
  const right = (x: string): string => hide(`right ${x}`);
  // One row per id, window and dimension values, with the id's first window (its cohort).
  const firstSeen = pipeline([
    ...inWindows,
    {
      kind: 'summarize',
      aggregates: [item(first, call('min', [n(w)], span))],
      by: [item(right(idName), n(idName)), ...dims.map((d) => item(right(d), n(d)))],
      span,
    },
    // The Lookback's ids were seen before Start: never new, in no cohort (the page: "all IDs that
    // don't appear in this set are New Users").
    ...(lookback
      ? [
          join(
            'leftanti',
            {
              ...lookback,
              operators: [
                ...lookback.operators,
                { kind: 'summarize', aggregates: [], by: [item(hide('seen'), name(idName, lookback.span))], span },
              ],
            } as Pipeline,
            [[right(idName), hide('seen')]],
          ),
        ]
      : []),
  ]);
  // Per (from, to = the id's window): the cohort's ids seen there, and the ids not seen up to from.
  const counts = pipeline([
    ...inWindows,
    {
      kind: 'summarize',
      aggregates: [],
      by: [item(idName, n(idName)), item(w, n(w)), ...dims.map((d) => item(d, n(d)))],
      span,
    },
    join('inner', firstSeen, [[idName, right(idName)], ...dimKeys(right)]),
    { kind: 'extend', items: [item(one, long(1n, span))], span },
    join('inner', windowNumbers(j), [[one, one]]),
    { kind: 'extend', items: [item(from, windowAt(j))], span },
    { kind: 'where', predicate: binary('<=', n(from), n(w), span), span },
    {
      kind: 'summarize',
      aggregates: [
        item(kept, call('countif', [eq(n(first), n(from))], span)),
        item(
          fresh,
          call('countif', [binary('or', binary('>', n(first), n(from), span), eq(n(first), n(w)), span)], span),
        ),
      ],
      by: [item(right(from), n(from)), item(right(to), n(w)), ...dims.map((d) => item(right(d), n(d)))],
      span,
    },
  ]);
  const zero = (x: string): Expr => call('coalesce', [n(x), long(0n, span)], span);
  const cohortSize = n(size);
  const retained = zero(kept);
  /** True where the rows sorted by dimensions and from move to another cohort. */
  const newCohort = [...dims, from]
    .map((x) => binary('!=', n(x), call('prev', [n(x)], span), span))
    .reduce((a, b) => binary('or', a, b, span));
  const out = (x: string, expr: Expr): NamedExpr => item(x, expr);
  const ops: Operator[] = [
    ...inWindows,
    { kind: 'summarize', aggregates: [item(rows, call('count', [], span))], by: dims.map((d) => item(d, n(d))), span },
    { kind: 'where', predicate: binary('>', n(rows), long(0n, span), span), span },
    { kind: 'extend', items: [item(one, long(1n, span))], span },
    join('inner', windowNumbers(j), [[one, one]]),
    join('inner', windowNumbers(k), [[one, one]]),
    { kind: 'where', predicate: binary('<=', n(j), n(k), span), span },
    { kind: 'extend', items: [item(from, windowAt(j)), item(to, windowAt(k))], span },
    ...(cohort
      ? [{ kind: 'where', predicate: eq(n(from), call('bin_at', [cohort, window, start], span)), span } as Operator]
      : []),
    join('leftouter', counts, [[from, right(from)], [to, right(to)], ...dimKeys(right)]),
    // The cohort's size is its ids seen in its own window, the first row of its (from, to) pairs.
    { kind: 'sort', keys: [...dims.map((d) => asc(n(d))), asc(n(from)), asc(n(to))], span },
    {
      kind: 'extend',
      items: [
        item(
          size,
          call('row_cumsum', [call('iff', [eq(n(from), n(to)), retained, long(0n, span)], span), newCohort], span),
        ),
      ],
      span,
    },
    {
      kind: 'project',
      items: [
        out(`from_${time}`, n(from)),
        out(`to_${time}`, n(to)),
        out('dcount_new_values', zero(fresh)),
        out('dcount_retained_values', retained),
        out('dcount_churn_values', call('todouble', [binary('-', cohortSize, retained, span)], span)),
        out('retention_rate', binary('/', call('todouble', [retained], span), cohortSize, span)),
        out(
          'churn_rate',
          binary('/', call('todouble', [binary('-', cohortSize, retained, span)], span), cohortSize, span),
        ),
        ...dims.map((d) => out(d, n(d))),
      ],
      span,
    },
    { kind: 'sort', keys: [asc(n(`from_${time}`)), asc(n(`to_${time}`)), ...dims.map((d) => asc(n(d)))], span },
  ];
  return runOver(h, input, ops, span, table);
}

/** The Lookback argument: a tabular expression, or the name of a table that is not an input column. */
function lookbackOf(h: MvApplyHost, e: Expr, column: boolean, span: Span): Pipeline | undefined {
  if (e.kind === 'tabular') return e.pipeline;
  if (e.kind !== 'name' || column || !isTable(h, e.name, span)) return undefined;
  return { kind: 'pipeline', source: { kind: 'table', name: e.name, span: e.span }, operators: [], span: e.span };
}

/** True when `x` names a table (a tabular let, a view or one of ours): Lookback's argument. */
function isTable(h: MvApplyHost, x: string, span: Span): boolean {
  try {
    h.subquery({ kind: 'pipeline', source: { kind: 'table', name: x, span }, operators: [], span });
    return true;
  } catch {
    return false;
  }
}

/**
 * The windows are bin_at(Timeline, Window, Start): the timeline a datetime, a timespan or a number
 * ("summable", as Kusto.Language says), Start, End and Cohort of its kind, Window a timespan (a
 * number for a numeric timeline). Checked here so that a wrong one is refused at the argument, not
 * at `evaluate` by the bin_at() of the rewrite.
 * @throws QueryError QUERY_SEMANTIC for an argument of another type.
 */
function checkTypes(h: MvApplyHost, input: Rel, timeline: Expr, bounds: Record<string, Expr>, window: Expr): void {
  const kind = (t: KqlType): string | undefined =>
    t === 'datetime' || t === 'timespan' ? t : isNumeric(t) ? 'number' : undefined;
  const env = h.env(input.columns);
  const typeOf = (e: Expr): KqlType => analyzeScalar(e, env).type;
  const plugin = 'new_activity_metrics()';
  const [time, timeType] = [(timeline as { name: string }).name, typeOf(timeline)];
  const timeKind = kind(timeType);
  if (timeKind === undefined)
    throw h.errors.semantic(
      `${plugin}: the timeline column ${time} must be a datetime, a timespan or a number, got ${timeType}`,
      timeline.span,
    );
  for (const [what, e] of Object.entries(bounds)) {
    const t = typeOf(e);
    if (kind(t) !== timeKind)
      throw h.errors.semantic(
        `${plugin}: ${what} must be a ${timeKind} like the timeline column ${time}, got ${t}`,
        e.span,
      );
  }
  const w = typeOf(window);
  const windowKind = timeKind === 'number' ? 'number' : 'timespan';
  if (kind(w) !== windowKind)
    throw h.errors.semantic(
      `${plugin}: Window must be a ${windowKind} for the timeline column ${time}, got ${w}`,
      window.span,
    );
}

/**
 * @throws QueryError QUERY_SEMANTIC for a Window that is not positive or, between constant bounds,
 * more than MAX_WINDOWS windows (the output holds a row per pair of them).
 */
function checkWindows(h: MvApplyHost, input: Rel, start: Expr, end: Expr, window: Expr): void {
  const env = h.env(input.columns);
  const [a, b, step] = [start, end, window].map((e) => foldConstant(analyzeScalar(e, env)));
  if (step === undefined) return;
  if (Number(step) <= 0) throw h.errors.semantic('new_activity_metrics() takes a positive Window', window.span);
  if (a === undefined || b === undefined) return;
  const count = Math.floor((Number(b) - Number(a)) / Number(step)) + 1;
  if (count > MAX_WINDOWS)
    throw h.errors.semantic(
      `new_activity_metrics() would compare ${count} windows pairwise; the limit is ${MAX_WINDOWS}`,
      window.span,
    );
}
