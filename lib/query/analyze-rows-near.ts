// evaluate rows_near(Condition, NumRows [, RowsAfter]) (rows-near-plugin docs,
// https://learn.microsoft.com/en-us/kusto/query/rows-near-plugin): the rows of the serialized input
// within NumRows before or RowsAfter (default NumRows) after a row where Condition holds, in input
// order, with the input's columns only (as Kusto.Language types it).
// Written with window functions instead of a join of each match with its neighbours, and without
// reading the input twice (a second read of an input with sample or rand() could differ): c counts
// the matches up to each row, d (over the rows sorted back to front) those from each row on; row r
// is kept when the matches in rows r-RowsAfter .. r+NumRows, (c(r) - c(r-RowsAfter-1)) +
// (d(r) - d(r+NumRows+1)) - m(r), are more than none; then the rows are sorted back by number.
// Throws QUERY_SEMANTIC at the argument for a Condition that is no bool and for counts that are not
// constant non-negative whole numbers; counts beyond any input's length are clamped.
import type { Expr, Operator } from './ast';
import { binary, call, long, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import type { Rel } from './ir';
import { runOver } from './plugin-rewrite';
import { foldConstant } from './range';
import { analyzeScalar } from './scalars';
import type { Span } from './tokens';

/** The largest long less one: no input has that many rows, and one more still fits a long. */
const LONGEST_WINDOW = 2n ** 63n - 2n;

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
    // A window of the largest long rows reaches past any input just as one a row shorter does; the
    // SQL takes the count plus one as lag()'s offset, which must itself stay a long (the largest
    // long plus one was a DuckDB Conversion Error quoting our SQL).
    return v < LONGEST_WINDOW ? v : LONGEST_WINDOW;
  };
  const before = count(numRows, 'NumRows');
  const after = rowsAfter === undefined ? before : count(rowsAfter, 'RowsAfter');

  const at = span;
  const prefix = `\u0000rows_near ${h.newRef()} `;
  const [rn, m, c, d, behind, ahead] = ['rn', 'm', 'c', 'd', 'behind', 'ahead'].map((n) => name(prefix + n, at)) as [
    Expr,
    Expr,
    Expr,
    Expr,
    Expr,
    Expr,
  ];
  const nameOf = (e: Expr): string => (e.kind === 'name' ? e.name : '');
  const item = (target: Expr, expr: Expr) => ({ name: nameOf(target), expr, span: at });
  /** The running count `counted` is `back` rows back in the current order, 0 before the first row. */
  const back = (counted: Expr, rows: bigint): Expr =>
    call('coalesce', [call('prev', [counted, long(rows, at)], at), long(0n, at)], at);
  const sort = (direction: 'asc' | 'desc'): Operator => ({
    kind: 'sort',
    keys: [{ expr: rn, direction, span: at }],
    span: at,
  });
  const kept = binary('-', binary('+', binary('-', c, behind, at), binary('-', d, ahead, at), at), m, at);
  const visible = input.columns.filter((x) => !x.name.startsWith('\u0000')).map((x) => x.name);
  const ops: Operator[] = [
    {
      kind: 'serialize',
      items: [item(rn, call('row_number', [], at)), item(m, call('iff', [condition, long(1n, at), long(0n, at)], at))],
      span: at,
    },
    { kind: 'serialize', items: [item(c, call('row_cumsum', [m], at))], span: at },
    { kind: 'extend', items: [item(behind, back(c, after + 1n))], span: at },
    sort('desc'),
    { kind: 'serialize', items: [item(d, call('row_cumsum', [m], at))], span: at },
    { kind: 'extend', items: [item(ahead, back(d, before + 1n))], span: at },
    { kind: 'where', predicate: binary('>', kept, long(0n, at), at), span: at },
    sort('asc'),
    { kind: 'project', items: visible.map((n) => ({ name: n, expr: name(n, at), span: at })), span: at },
  ];
  return runOver(h, input, ops, at);
}
