// row_window_session(Expr, MaxDistanceFromFirst, MaxDistanceBetweenNeighbors [, Restart])
// (https://learn.microsoft.com/en-us/kusto/query/row-window-session-function): the datetime at the
// start of each row's session in the serialized order. A session restarts at the first row, after a
// null, where Expr is at least MaxDistanceFromFirst past the session's start or at least
// MaxDistanceBetweenNeighbors past the previous row's Expr, or where Restart is true. Throws
// QueryError QUERY_SEMANTIC for wrong arity or types, QUERY_UNSUPPORTED for distances that are not
// constants (each row would otherwise carry its own limit, which the SQL does not model).
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';
import type { IrColumn, IrExpr, SessionIr } from './ir';
import { analyzeScalar, type ScalarEnv } from './scalars';
import { isConstant } from './types';

export function sessionCall(
  errors: ErrorFactory,
  e: Expr & { kind: 'call' },
  env: ScalarEnv,
  column: IrColumn,
): SessionIr {
  const args = e.args;
  if (args.length < 3 || args.length > 4)
    throw errors.semantic(`row_window_session() takes 3 to 4 arguments, not ${args.length}`, e.span);
  const value = analyzeScalar(args[0]!, env, 1);
  if (value.type !== 'datetime')
    throw errors.semantic(
      `the first argument of row_window_session() must be a datetime, got ${value.type}`,
      args[0]!.span,
    );
  const distance = (i: number, what: string): IrExpr => {
    const node = args[i]!;
    const d = analyzeScalar(node, env, 1);
    if (d.type !== 'timespan')
      throw errors.semantic(`${what} of row_window_session() must be a timespan, got ${d.type}`, node.span);
    if (!isConstant(d))
      throw errors.unsupported(`${what} of row_window_session() must be a constant timespan`, node.span);
    return d;
  };
  const maxFromFirst = distance(1, 'the maximum distance from the first value');
  const maxBetweenNeighbors = distance(2, 'the maximum distance between neighbors');
  const session: SessionIr = { column: { ...column, type: 'datetime' }, value, maxFromFirst, maxBetweenNeighbors };
  if (args[3] === undefined) return session;
  const restart = analyzeScalar(args[3], env, 1);
  if (restart.type !== 'bool')
    throw errors.semantic(
      `the restart argument of row_window_session() must be a bool, got ${restart.type}`,
      args[3].span,
    );
  return { ...session, restart };
}
