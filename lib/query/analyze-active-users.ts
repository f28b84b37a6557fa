// evaluate active_users_count(IdColumn, TimelineColumn, Start, End, LookbackWindow, Period,
// ActivePeriodsCount, Bin [, dim ...]) (active_users_count plugin docs,
// https://learn.microsoft.com/en-us/kusto/query/active-users-count-plugin): an appearance between
// Start and End is active when the id appears in at least ActivePeriodsCount distinct periods
// (bin(Timeline, Period)) of the lookback window ending with it; per Bin (aligned on Start) the
// distinct ids with an active appearance. The window excludes its start instant: the page names B
// on 7/4 and not B on 7/8 (8 days after 6/30) as active, and prints no 7/8 row. The count column is
// `dcount`, as the page's printed output (its schema table says dcount_values).
// Written as a join of the appearances with the same id's appearances, so both engines run it.
// Throws QueryError QUERY_SEMANTIC for missing or misplaced arguments, QUERY_UNSUPPORTED for a
// calendar Bin.
import type { Expr, NamedExpr, Operator, Pipeline } from './ast';
import { binary, call, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import { clip } from './errors';
import type { Rel } from './ir';
import type { Span } from './tokens';
import { runOver } from './plugin-rewrite';

export function analyzeActiveUsers(h: MvApplyHost, input: Rel, args: readonly Expr[], argsSpan: Span, span: Span): Rel {
  if (args.length < 8)
    throw h.errors.semantic(`active_users_count() takes at least 8 arguments, got ${args.length}`, argsSpan);
  const column = (e: Expr, what: string): string => {
    if (e.kind !== 'name') throw h.errors.semantic(`active_users_count() takes ${what} as a column name`, e.span);
    if (!input.columns.some((c) => c.name === e.name)) throw h.unknownColumn(e.name, input.columns, e.span);
    return e.name;
  };
  const [id, timeline, start, end, lookback, period, periods, step] = args as [
    Expr,
    Expr,
    Expr,
    Expr,
    Expr,
    Expr,
    Expr,
    Expr,
  ];
  const idName = column(id, 'the id');
  const time = column(timeline, 'the timeline');
  const dims = args.slice(8).map((d) => column(d, 'each dimension'));
  if (step.kind === 'literal' && step.type === 'string')
    throw h.errors.unsupported(`a Bin of '${clip(String(step.value))}' (calendar periods) is not supported`, step.span);

  const prefix = `\u0000active_users_count ${h.newRef()} `;
  const hidden = (x: string): string => `${prefix}${x}`;
  const [table, count] = [hidden('input'), hidden('periods')];
  const n = (x: string): Expr => name(x, span);
  const item = (x: string, expr: Expr): NamedExpr => ({ name: x, expr, span });
  const and = (a: Expr, b: Expr): Expr => binary('and', a, b, span);
  const keys = [idName, ...dims];
  const earlier: Pipeline = {
    kind: 'pipeline',
    source: { kind: 'table', name: table, span },
    operators: [{ kind: 'project', items: [time, ...keys].map((x) => item(hidden(x), n(x))), span }],
    span,
  };
  const on = keys.map((x) => ({ left: x, right: hidden(x), leftSpan: span, rightSpan: span, span }));
  const other = n(hidden(time));
  const ops: Operator[] = [
    { kind: 'where', predicate: and(binary('>=', n(time), start, span), binary('<=', n(time), end, span)), span },
    { kind: 'join', join: { lookup: false, joinKind: 'inner', kindSpan: span, right: earlier, on }, span },
    {
      kind: 'where',
      predicate: and(
        binary('>', other, binary('-', n(time), lookback, span), span),
        binary('<=', other, n(time), span),
      ),
      span,
    },
    {
      kind: 'summarize',
      aggregates: [item(count, call('dcount', [call('bin', [other, period], span)], span))],
      by: [item(time, n(time)), ...keys.map((x) => item(x, n(x)))],
      span,
    },
    { kind: 'where', predicate: binary('>=', n(count), periods, span), span },
    {
      kind: 'summarize',
      aggregates: [item('dcount', call('dcount', [n(idName)], span))],
      by: [item(time, call('bin_at', [n(time), step, start], span)), ...dims.map((x) => item(x, n(x)))],
      span,
    },
  ];
  return runOver(h, input, ops, span, table);
}
