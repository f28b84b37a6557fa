// bin_auto(value) (bin_auto function docs): bin_at(value, query_bin_auto_size, query_bin_auto_at),
// the size and fixed point given by the query's set statements; without a fixed point, the page's
// default 0, which is bin(value, size) (bin's origin is 0 for numbers and timespans, 0001-01-01 for
// datetimes). The call is rewritten to that and analyzed as written, so its types, its checks and
// its output column's name are bin_at's and bin's; an error about the size or fixed point is
// reported at the set statement that gave it.
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';

/** query_bin_auto_size and query_bin_auto_at, as their set statements wrote them. */
export interface BinAuto {
  readonly size: Expr;
  readonly at?: Expr;
}

/** @throws QueryError QUERY_SEMANTIC for another argument count or without query_bin_auto_size. */
export function binAutoCall(
  errors: ErrorFactory,
  expr: Expr & { kind: 'call' },
  binAuto: BinAuto | undefined,
): Expr & { kind: 'call' } {
  if (expr.args.length !== 1) throw errors.semantic(`bin_auto() takes 1 argument, got ${expr.args.length}`, expr.span);
  if (binAuto === undefined)
    throw errors.semantic(
      'bin_auto() bins by the request property query_bin_auto_size: write `set query_bin_auto_size = 1h;` (and optionally query_bin_auto_at) before the query',
      expr.nameSpan,
    );
  const value = expr.args[0]!;
  return binAuto.at === undefined
    ? { ...expr, name: 'bin', args: [value, binAuto.size] }
    : { ...expr, name: 'bin_at', args: [value, binAuto.size, binAuto.at] };
}
