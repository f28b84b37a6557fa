// row_rank_dense(Term [, Restart]) and row_rank_min(Term [, Restart]) (their Kusto docs), written
// with the window functions the compiler already has, so both engines run them: a run of rows starts
// where Term differs from the previous row's (or at the first row, or where Restart is true); the
// dense rank counts the runs since the last restart, the min rank is the row number (since the last
// restart) of the run's first row. Throws QueryError QUERY_SEMANTIC for a wrong argument count or
// input that is not serialized.
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';

export const RANK_FUNCTIONS: ReadonlySet<string> = new Set(['row_rank_dense', 'row_rank_min']);

/** The expression a rank call stands for, its nodes carrying the call's spans. */
export function rankExpansion(errors: ErrorFactory, e: Expr & { kind: 'call' }, serialized: boolean): Expr {
  if (e.args.length !== 1 && e.args.length !== 2)
    throw errors.semantic(`${e.name}() takes 1 or 2 arguments, not ${e.args.length}`, e.span);
  if (!serialized)
    throw errors.semantic(
      `${e.name}() needs serialized input (the row set must be serialized): add '| serialize' or '| order by ...' before this operator`,
      e.nameSpan,
    );
  const span = e.span;
  const at = { span, nameSpan: e.nameSpan };
  const call = (name: string, args: readonly Expr[]): Expr => ({ kind: 'call', name, args, ...at });
  const long = (v: bigint): Expr => ({ kind: 'literal', type: 'long', value: v, span });
  const bin = (op: string, left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right, opSpan: span, span });
  const term = e.args[0]!;
  const restart = e.args[1];
  const first = bin('==', call('row_number', []), long(1n));
  const changed = bin('or', first, bin('!=', term, call('prev', [term])));
  const starts = restart ? bin('or', changed, restart) : changed;
  const cumsum = (x: Expr): Expr => call('row_cumsum', restart ? [x, restart] : [x]);
  if (e.name === 'row_rank_dense') return cumsum(call('iff', [starts, long(1n), long(0n)]));
  // row_number() - (position in the run) + 1, the position counted by a sum restarting at each run.
  const position = call('row_cumsum', [long(1n), starts]);
  const rowNumber = call('row_number', restart ? [long(1n), restart] : []);
  return bin('+', bin('-', rowNumber, position), long(1n));
}
