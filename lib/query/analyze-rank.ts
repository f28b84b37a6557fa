// row_rank_dense(Term) and row_rank_min(Term) (their Kusto docs), written with the window functions
// the compiler already has, so both engines run them: a run of rows starts where Term differs from
// the previous row's (or at the first row); the dense rank counts the runs so far, the min rank is
// the row number of the run's first row. Throws QueryError QUERY_SEMANTIC for a wrong argument
// count or input that is not serialized.
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';

export const RANK_FUNCTIONS: ReadonlySet<string> = new Set(['row_rank_dense', 'row_rank_min']);

/** The expression a rank call stands for, its nodes carrying the call's spans. */
export function rankExpansion(errors: ErrorFactory, e: Expr & { kind: 'call' }, serialized: boolean): Expr {
  if (e.args.length !== 1) throw errors.semantic(`${e.name}() takes 1 argument, not ${e.args.length}`, e.span);
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
  const first = bin('==', call('row_number', []), long(1n));
  const starts = bin('or', first, bin('!=', term, call('prev', [term])));
  if (e.name === 'row_rank_dense') return call('row_cumsum', [call('iff', [starts, long(1n), long(0n)])]);
  // row_number() - (position in the run) + 1, the position counted by a sum restarting at each run.
  const position = call('row_cumsum', [long(1n), starts]);
  return bin('+', bin('-', call('row_number', []), position), long(1n));
}
