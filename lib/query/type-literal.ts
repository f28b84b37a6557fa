// A trailing typeof(T) argument (percentile_tdigest(d, 50, typeof(long)) and
// percentiles_array_tdigest, per their docs) names a type, it is not a value: it is passed to the
// catalog entry as the constant string T, which the entry's signature reads for its result type.
// Throws QueryError QUERY_SEMANTIC for typeof() of something that is not a type name.
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';
import { typeNamed } from './types';

export function withTypeLiteral(errors: ErrorFactory, call: Expr & { kind: 'call' }): Expr & { kind: 'call' } {
  const last = call.args.at(-1);
  if (last?.kind !== 'call' || last.name !== 'typeof') return call;
  const named = last.args.length === 1 && last.args[0]!.kind === 'name' ? typeNamed(last.args[0]!.name) : undefined;
  if (!named) throw errors.semantic('typeof() needs one type name, e.g. typeof(long)', last.span);
  const literal: Expr = { kind: 'literal', type: 'string', value: named, span: last.span };
  return { ...call, args: [...call.args.slice(0, -1), literal] };
}
