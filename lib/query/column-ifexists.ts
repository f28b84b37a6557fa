// column_ifexists(columnName, defaultValue) (column-ifexists function docs), resolved while the
// query compiles: the column when the operator's input has one of that name, else the default.
// The column name is a literal, or a let (a user function's parameter included) holding one, as
// Kusto.Language reads `let c = "a"; T | extend column_ifexists(c, 0)`.
// Throws QueryError QUERY_SEMANTIC for a wrong argument count or a name that is not a constant string.
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';
import type { IrExpr } from './ir';

export function columnIfExists(
  errors: ErrorFactory,
  call: Expr & { kind: 'call' },
  hasColumn: (name: string) => boolean,
  letValue: (name: Expr & { kind: 'name' }) => IrExpr | undefined = () => undefined,
): Expr {
  if (call.args.length !== 2)
    throw errors.semantic(`column_ifexists() takes 2 arguments, got ${call.args.length}`, call.span);
  const [name, fallback] = call.args as [Expr, Expr];
  const held = name.kind === 'name' && !hasColumn(name.name) ? letValue(name) : undefined;
  const text =
    name.kind === 'literal' && name.type === 'string'
      ? name.value
      : held?.kind === 'lit' && held.type === 'string'
        ? held.value
        : undefined;
  if (typeof text !== 'string')
    throw errors.semantic('the column name of column_ifexists() must be a constant string', name.span);
  return hasColumn(text) ? { kind: 'name', name: text, span: name.span } : fallback;
}

/**
 * The expression a column_ifexists(...) column is named after: the column when it exists, else the
 * default (its page: `project column_ifexists("Capital", State)` gives a column State). Any other
 * expression, or a call columnIfExists would refuse, is returned as it is (the analysis reports it).
 */
export function namedAs(expr: Expr, hasColumn: (name: string) => boolean): Expr {
  if (expr.kind !== 'call' || expr.name !== 'column_ifexists' || expr.args.length !== 2) return expr;
  const name = expr.args[0]!;
  if (name.kind !== 'literal' || typeof name.value !== 'string') return expr;
  return hasColumn(name.value) ? { kind: 'name', name: name.value, span: name.span } : expr.args[1]!;
}
