// pack_all([ignore_null_empty]) and bag_pack_columns(c1, ...) (pack-all-function and
// bag-pack-columns-function docs) need the operator's input columns: resolved while the query
// compiles, like column_ifexists, into the catalog entry's arguments [key1, value1, ...]
// (pack_all's first argument is its ignore_null_empty flag).
// Throws QueryError QUERY_SEMANTIC for a flag that is not a constant bool or an argument of
// bag_pack_columns that is not a column name.
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';
import type { IrColumn, IrExpr } from './ir';
import { lit } from './types';

export function packColumns(
  errors: ErrorFactory,
  call: Expr & { kind: 'call' },
  inputColumns: readonly IrColumn[] | undefined,
  columnNames: readonly string[],
  analyze: (e: Expr) => IrExpr,
): IrExpr {
  const args: IrExpr[] = [];
  const pair = (name: string, value: Expr): void => {
    args.push(lit('string', name), analyze(value));
  };
  if (call.name === 'pack_all') {
    if (call.args.length > 1)
      throw errors.semantic(`pack_all() takes 0 to 1 arguments, got ${call.args.length}`, call.span);
    const flag = call.args[0];
    if (flag && (flag.kind !== 'literal' || flag.type !== 'bool'))
      throw errors.semantic('the ignore_null_empty argument of pack_all() must be a constant bool', flag.span);
    args.push(lit('bool', flag?.value === true));
    // The operator's input row, not the columns an extend defines before it (the docs' example);
    // hidden columns (names starting with NUL) are the compiler's own, not the user's.
    // A name held twice resolves to its first column, as names do.
    const seen = new Set<string>();
    const keep = (name: string): boolean => !name.startsWith('\u0000') && !seen.has(name) && !!seen.add(name);
    if (inputColumns) {
      for (const c of inputColumns)
        if (keep(c.name)) args.push(lit('string', c.name), { kind: 'col', ref: c.ref, type: c.type });
    } else {
      for (const name of columnNames) if (keep(name)) pair(name, { kind: 'name', name, span: call.nameSpan });
    }
  } else {
    if (call.args.length === 0) throw errors.semantic('bag_pack_columns() takes at least one column', call.span);
    for (const a of call.args) {
      if (a.kind !== 'name') throw errors.semantic('each argument of bag_pack_columns() must be a column name', a.span);
      pair(a.name, a);
    }
  }
  return { kind: 'call', fn: 'catalog', ref: { catalog: 'scalar', name: call.name }, args, type: 'dynamic' };
}
