// The sliding-window plugins, written with operators the compiler already has (so both engines run
// them): each input row is repeated once per window it falls in (a join with a `range` of window
// offsets), then one summarize per window end.
// - sliding_window_counts(IdColumn, TimelineColumn, Start, End, LookbackWindow, Bin [, dim ...])
//   (sliding_window_counts plugin docs, https://learn.microsoft.com/en-us/kusto/query/sliding-window-counts-plugin):
//   per bin from Start to End (bins aligned on Start, End inclusive, as the page's output shows)
//   the Count and Dcount of the ids in the LookbackWindow ending with that bin; Bin as 'week',
//   'month' or 'year' is refused.
// - rolling_percentile(ValueColumn, Percentile, IndexColumn, BinSize, BinsPerWindow [, dim ...])
//   (rolling_percentile plugin docs, .../rolling-percentile-plugin): per bin (bin(Index, BinSize))
//   the percentile of the values of the BinsPerWindow bins ending with it, named
//   rolling_<BinsPerWindow>_percentile_<ValueColumn>_<Percentile>; windows end at the input's last bin.
// - activity_engagement(IdColumn, TimelineColumn, Start, End, InnerActivityWindow, OuterActivityWindow
//   [, dim ...]) (activity_engagement plugin docs, .../activity-engagement-plugin): per inner window
//   (as sliding_window_counts' Bin) the distinct ids in it, in the outer window ending with it
//   (as its LookbackWindow) and their ratio, the dimensions last; the form without Start and End
//   is refused.
// Dcount and percentile are exact here (Kusto estimates them; on small sets the same).
// Throws QueryError QUERY_SEMANTIC for missing or misplaced arguments, QUERY_UNSUPPORTED for a
// calendar Bin.
import type { EvaluateSpec, Expr, NamedExpr, Operator, Pipeline } from './ast';
import { binary, call, long, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import { clip } from './errors';
import type { Rel } from './ir';
import { foldConstant } from './range';
import { analyzeScalar } from './scalars';
import type { Span } from './tokens';
import { runOver } from './plugin-rewrite';

export type WindowSpec = Extract<EvaluateSpec, { args: readonly Expr[] }> & {
  readonly plugin: 'sliding_window_counts' | 'rolling_percentile' | 'activity_engagement';
};

export function analyzeWindowPlugin(h: MvApplyHost, input: Rel, spec: WindowSpec, span: Span): Rel {
  const { args } = spec;
  const fixed = spec.plugin === 'rolling_percentile' ? 5 : 6;
  const isColumn = (e: Expr | undefined): boolean => e?.kind === 'name' && input.columns.some((c) => c.name === e.name);
  if (spec.plugin === 'activity_engagement' && (args.length < 6 || isColumn(args[4]) || isColumn(args[5])))
    throw h.errors.unsupported(
      'activity_engagement() without Start and End is not supported; write them',
      args[2]?.span ?? spec.argsSpan,
    );
  if (args.length < fixed)
    throw h.errors.semantic(`${spec.plugin}() takes at least ${fixed} arguments, got ${args.length}`, spec.argsSpan);
  const prefix = `\u0000${spec.plugin} ${h.newRef()} `;
  const [inner, outer] = ['dcount_activities_inner', 'dcount_activities_outer'];
  const [one, bin, k, end, table] = ['one', 'bin', 'k', 'end', 'input'].map((n) => prefix + n) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const column = (e: Expr, what: string): string => {
    if (e.kind !== 'name') throw h.errors.semantic(`${spec.plugin}() takes ${what} as a column name`, e.span);
    if (!input.columns.some((c) => c.name === e.name)) throw h.unknownColumn(e.name, input.columns, e.span);
    return e.name;
  };
  const dims: NamedExpr[] = args
    .slice(fixed)
    .map((d) => ({ name: column(d, 'each dimension'), expr: d, span: d.span }));
  const extend = (n: string, expr: Expr): Operator => ({ kind: 'extend', items: [{ name: n, expr, span }], span });
  /** Each row once per window offset 0..last: a join on a constant with `range k from 0 to last`. */
  const perWindow = (last: Expr): Operator => {
    const offsets: Pipeline = {
      kind: 'pipeline',
      source: {
        kind: 'range',
        column: k,
        columnSpan: span,
        from: long(0n, span),
        to: last,
        step: long(1n, span),
        span,
      },
      operators: [extend(one, long(1n, span))],
      span,
    };
    const on = [{ left: one, right: one, leftSpan: span, rightSpan: span, span }];
    return { kind: 'join', join: { lookup: false, joinKind: 'inner', kindSpan: span, right: offsets, on }, span };
  };

  let ops: Operator[];
  if (spec.plugin !== 'rolling_percentile') {
    // activity_engagement's inner window is the step, its outer window the lookback.
    const engagement = spec.plugin === 'activity_engagement';
    const [id, timeline, start, stop, a, b] = args as [Expr, Expr, Expr, Expr, Expr, Expr];
    const [lookback, step] = engagement ? [b, a] : [a, b];
    const idName = column(id, 'the id');
    const time = column(timeline, 'the timeline');
    if (step.kind === 'literal' && step.type === 'string')
      throw h.errors.unsupported(
        `a Bin of '${clip(String(step.value))}' (calendar periods) is not supported`,
        step.span,
      );
    const windowEnd = binary('+', name(bin, span), binary('*', name(k, span), step, span), span);
    ops = [
      extend(bin, call('bin_at', [name(time, span), step, start], span)),
      extend(one, long(1n, span)),
      perWindow(call('tolong', [binary('/', binary('-', lookback, step, span), step, span)], span)),
      extend(end, windowEnd),
      {
        kind: 'where',
        predicate: binary(
          'and',
          binary('>=', name(end, span), start, span),
          binary('<=', name(end, span), stop, span),
          span,
        ),
        span,
      },
      {
        kind: 'summarize',
        aggregates: engagement
          ? [
              {
                name: inner,
                expr: call('dcountif', [name(idName, span), binary('==', name(k, span), long(0n, span), span)], span),
                span,
              },
              { name: outer, expr: call('dcount', [name(idName, span)], span), span },
            ]
          : [
              { name: 'Count', expr: call('count', [], span), span },
              { name: 'Dcount', expr: call('dcount', [name(idName, span)], span), span },
            ],
        by: [{ name: time, expr: name(end, span), span }, ...dims],
        span,
      },
    ];
    if (engagement) {
      const ratio = binary('/', call('todouble', [name(inner, span)], span), name(outer, span), span);
      const out = [time, inner, outer, 'activity_ratio', ...dims.map((d) => d.name!)];
      ops.push(extend('activity_ratio', ratio), {
        kind: 'project',
        items: out.map((x) => ({ name: x, expr: name(x, span), span })),
        span,
      });
    }
  } else {
    const [value, percent, index, size, bins] = args as [Expr, Expr, Expr, Expr, Expr];
    const valueName = column(value, 'the value');
    const indexName = column(index, 'the index');
    const env = h.env(input.columns);
    const constant = (e: Expr, what: string): string => {
      const v = foldConstant(analyzeScalar(e, env));
      if (v === undefined)
        throw h.errors.semantic(`the ${what} of rolling_percentile() must be a constant number`, e.span);
      return String(v);
    };
    const pct = constant(percent, 'percentile');
    const count = constant(bins, 'BinsPerWindow');
    const binOf = call('bin', [name(indexName, span), size], span);
    const lastBin: Expr = {
      kind: 'call',
      name: 'toscalar',
      nameSpan: span,
      args: [
        {
          kind: 'tabular',
          pipeline: {
            kind: 'pipeline',
            source: { kind: 'table', name: table, span },
            operators: [{ kind: 'summarize', aggregates: [{ expr: call('max', [binOf], span), span }], by: [], span }],
            span,
          },
          span,
        },
      ],
      span,
    };
    ops = [
      extend(bin, binOf),
      extend(one, long(1n, span)),
      perWindow(binary('-', bins, long(1n, span), span)),
      extend(end, binary('+', name(bin, span), binary('*', name(k, span), size, span), span)),
      { kind: 'where', predicate: binary('<=', name(end, span), lastBin, span), span },
      {
        kind: 'summarize',
        aggregates: [
          {
            name: `rolling_${count}_percentile_${valueName}_${pct}`,
            expr: call('percentile', [name(valueName, span), percent], span),
            span,
          },
        ],
        by: [{ name: indexName, expr: name(end, span), span }, ...dims],
        span,
      },
    ];
  }
  return runOver(h, input, ops, span, table);
}
