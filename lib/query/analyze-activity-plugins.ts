// evaluate activity_counts_metrics(IdColumn, TimelineColumn, Start, End, Step [, dim ...])
// (activity_counts_metrics plugin docs, https://learn.microsoft.com/en-us/kusto/query/activity-counts-metrics-plugin):
// per time window (bin_at(Timeline, Step, Start), windows from Start up to the one holding End, as
// the page's output includes End's day) and dimension values: `count` (records), `dcount` (distinct
// ids), `new_dcount` (ids not seen in an earlier window of the same dimension values) and
// `aggregated_dcount` (distinct ids from the first window to this one). Written with operators the
// compiler has, so both engines run it: one row per id and window, each id's first window marked
// with row_number over the sorted rows, one summarize per window, then a running sum.
// evaluate activity_metrics(IdColumn, TimelineColumn, Start, End, Step [, dim ...]) (activity_metrics
// plugin docs, .../activity-metrics-plugin): per window and dimension values, compared with the
// window just before it: `dcount_values`, `dcount_newvalues` (ids not in the previous window),
// `retention_rate` (ids also in the previous window / the previous window's ids) and `churn_rate`
// ((previous ids - returned ids) / previous ids; both NaN without a previous window, as the page's first row), the dimensions last.
// Throws QueryError QUERY_SEMANTIC for missing or misplaced arguments, QUERY_UNSUPPORTED for a
// calendar Step ('week', 'month', 'year') and activity_metrics without Start and End.
import type { Expr, NamedExpr, Operator, SortKey } from './ast';
import { asc, binary, call, long, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import { clip } from './errors';
import type { Rel } from './ir';
import { versusPrevious } from './analyze-activity-metrics';
import type { Span } from './tokens';
import { runOver } from './plugin-rewrite';

export function analyzeActivityPlugin(
  h: MvApplyHost,
  input: Rel,
  plugin: 'activity_counts_metrics' | 'activity_metrics',
  args: readonly Expr[],
  argsSpan: Span,
  span: Span,
): Rel {
  const isColumn = (e: Expr | undefined): boolean => e?.kind === 'name' && input.columns.some((c) => c.name === e.name);
  if (plugin === 'activity_metrics' && args.length >= 3 && (isColumn(args[2]) || args.length < 5 || isColumn(args[3])))
    throw h.errors.unsupported('activity_metrics() without Start and End is not supported; write them', args[2]!.span);
  if (args.length < 5) throw h.errors.semantic(`${plugin}() takes at least 5 arguments, got ${args.length}`, argsSpan);
  const column = (e: Expr, what: string): string => {
    if (e.kind !== 'name') throw h.errors.semantic(`${plugin}() takes ${what} as a column name`, e.span);
    if (!input.columns.some((c) => c.name === e.name)) throw h.unknownColumn(e.name, input.columns, e.span);
    return e.name;
  };
  const [id, timeline, start, end, step] = args as [Expr, Expr, Expr, Expr, Expr];
  const idName = column(id, 'the id');
  const time = column(timeline, 'the timeline');
  const dims = args.slice(5).map((d) => column(d, 'each dimension'));
  if (step.kind === 'literal' && step.type === 'string')
    throw h.errors.unsupported(
      `a Step of '${clip(String(step.value))}' (calendar periods) is not supported`,
      step.span,
    );

  const prefix = `\u0000${plugin} ${h.newRef()} `;
  const [window, key, records, first, table] = ['window', 'id', 'records', 'first', 'input'].map((n) => prefix + n) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const n = (x: string): Expr => name(x, span);
  const item = (x: string, expr: Expr): NamedExpr => ({ name: x, expr, span });
  const dimItems = dims.map((d) => item(d, n(d)));
  const dimKeys: SortKey[] = dims.map((d) => asc(n(d)));
  /** True where the sorted rows move to other values of `names` (a restart of the numbering). */
  const changes = (names: readonly string[]): Expr =>
    names
      .map((x) => binary('!=', n(x), call('prev', [n(x)], span), span))
      .reduce((a, b) => binary('or', a, b, span), binary('==', long(0n, span), long(1n, span), span));
  const perIdAndWindow: Operator[] = [
    { kind: 'extend', items: [item(window, call('bin_at', [n(time), step, start], span))], span },
    {
      kind: 'where',
      predicate: binary('and', binary('>=', n(window), start, span), binary('<=', n(window), end, span), span),
      span,
    },
    {
      kind: 'summarize',
      aggregates: [item(records, call('count', [], span))],
      by: [item(key, n(idName)), item(window, n(window)), ...dimItems],
      span,
    },
    { kind: 'sort', keys: [...dimKeys, asc(n(key)), asc(n(window))], span },
  ];
  const ops: Operator[] =
    plugin === 'activity_metrics'
      ? [
          ...perIdAndWindow,
          ...versusPrevious({ n, item, changes, dims, dimKeys, key, window, time, step, prefix, span }),
        ]
      : [
          ...perIdAndWindow,
          {
            kind: 'extend',
            items: [
              item(
                first,
                binary('==', call('row_number', [long(1n, span), changes([...dims, key])], span), long(1n, span), span),
              ),
            ],
            span,
          },
          {
            kind: 'summarize',
            aggregates: [
              item('count', call('sum', [n(records)], span)),
              item('dcount', call('count', [], span)),
              item('new_dcount', call('countif', [n(first)], span)),
            ],
            by: [item(time, n(window)), ...dimItems],
            span,
          },
          { kind: 'sort', keys: [...dimKeys, asc(n(time))], span },
          {
            kind: 'extend',
            items: [item('aggregated_dcount', call('row_cumsum', [n('new_dcount'), changes(dims)], span))],
            span,
          },
        ];
  return runOver(h, input, ops, span, table);
}
