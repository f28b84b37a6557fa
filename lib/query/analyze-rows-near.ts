// evaluate rows_near(Condition, NumRows [, RowsAfter]) (rows-near-plugin docs,
// https://learn.microsoft.com/en-us/kusto/query/rows-near-plugin): the rows of the serialized input
// within NumRows before or RowsAfter (default NumRows) after a row where Condition holds, in input
// order, with the input's columns only (as Kusto.Language types it).
// Written with one pass of window functions instead of a join of each match with its neighbours:
// c = the running count of matches; row r is kept when the matches in rows r-RowsAfter .. r+NumRows,
// c(r+NumRows) - c(r-RowsAfter-1), are more than none (past the last row c is the total).
// Throws QUERY_SEMANTIC at the argument for a Condition that is no bool and for counts that are not
// constant non-negative whole numbers.
import type { Expr, Operator } from './ast';
import { binary, call, long, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import type { Rel } from './ir';
import { runOver } from './plugin-rewrite';
import { foldConstant } from './range';
import { analyzeScalar } from './scalars';
import type { Span } from './tokens';

export function analyzeRowsNear(h: MvApplyHost, input: Rel, args: readonly Expr[], argsSpan: Span, span: Span): Rel {
  if (args.length < 2 || args.length > 3)
    throw h.errors.semantic(
      `rows_near() takes Condition, NumRows and optionally RowsAfter, got ${args.length} arguments`,
      argsSpan,
    );
  const [condition, numRows, rowsAfter] = args as [Expr, Expr, Expr | undefined];
  const env = h.env(input.columns);
  const type = analyzeScalar(condition, env).type;
  if (type !== 'bool')
    throw h.errors.semantic(`rows_near()'s Condition must be a bool expression, not ${type}`, condition.span);
  const count = (e: Expr, what: string): bigint => {
    const v = foldConstant(analyzeScalar(e, env));
    if (typeof v !== 'bigint' || v < 0n)
      throw h.errors.semantic(`rows_near()'s ${what} must be a constant non-negative whole number`, e.span);
    return v;
  };
  const before = count(numRows, 'NumRows');
  const after = rowsAfter === undefined ? before : count(rowsAfter, 'RowsAfter');

  const at = span;
  const prefix = `\u0000rows_near ${h.newRef()} `;
  const [running, total] = [`${prefix}c`, `${prefix}total`];
  const c = name(running, at);
  // The running count NumRows rows ahead (the total past the last row) and RowsAfter + 1 rows back (0 before the first).
  const ahead = before === 0n ? c : call('coalesce', [call('next', [c, long(before, at)], at), name(total, at)], at);
  const behind = call('coalesce', [call('prev', [c, long(after + 1n, at)], at), long(0n, at)], at);
  const matches: Expr = {
    kind: 'tabular',
    pipeline: {
      kind: 'pipeline',
      source: { kind: 'table', name: `${prefix}input`, span: at },
      operators: [
        { kind: 'summarize', aggregates: [{ expr: call('countif', [condition], at), span: at }], by: [], span: at },
      ],
      span: at,
    },
    span: at,
  };
  const visible = input.columns.filter((x) => !x.name.startsWith('\u0000')).map((x) => x.name);
  const ops: Operator[] = [
    {
      kind: 'serialize',
      items: [
        {
          name: running,
          expr: call('row_cumsum', [call('iff', [condition, long(1n, at), long(0n, at)], at)], at),
          span: at,
        },
      ],
      span: at,
    },
    ...(before === 0n
      ? []
      : [
          {
            kind: 'extend',
            items: [{ name: total, expr: call('toscalar', [matches], at), span: at }],
            span: at,
          } as Operator,
        ]),
    { kind: 'where', predicate: binary('>', binary('-', ahead, behind, at), long(0n, at), at), span: at },
    { kind: 'project', items: visible.map((n) => ({ name: n, expr: name(n, at), span: at })), span: at },
  ];
  return runOver(h, input, ops, at, `${prefix}input`);
}
