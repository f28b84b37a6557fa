// The statements around a query's `let`s, given their meaning before analysis: the declared query
// parameters become `let`s of literals (statements-declare.ts), the set statements become the
// query's properties (statements-set.ts), and query_take_max_records a last `take`.
import type { Operator, Program, SetStatement } from './ast';
import type { ErrorFactory } from './errors';
import { parameterLets } from './statements-declare';
import { queryProperties, type QueryProperties } from './statements-set';

export { REQUEST_PROPERTIES, type QueryProperties, type ResultLimits } from './statements-set';

const NO_PROPERTIES: QueryProperties = {};
const NO_VALUES: Readonly<Record<string, string>> = {};

/**
 * The program with its parameters bound, and what its set statements ask for. `requestSets`: the
 * request's own properties (statements-options.ts), taken as set statements before the query's, so
 * that the query's query_now / query_bin_auto_* win and the lowest limit wins.
 * @throws QueryError as parameterLets and queryProperties.
 */
export function applyStatements(
  program: Program,
  values: Readonly<Record<string, string>> | undefined,
  errors: ErrorFactory,
  requestSets: readonly SetStatement[] = [],
): { readonly program: Program; readonly properties: QueryProperties } {
  // Most queries have neither statement: the same objects go on.
  if (program.sets === undefined && program.parameters === undefined && requestSets.length === 0)
    return { program, properties: NO_PROPERTIES };
  const sets = [...requestSets, ...(program.sets ?? [])];
  const properties = sets.length > 0 ? queryProperties(sets, errors) : NO_PROPERTIES;
  const lets = program.parameters
    ? [...parameterLets(program.parameters, values ?? NO_VALUES, errors), ...program.lets]
    : program.lets;
  return { program: { lets, query: program.query }, properties };
}

/**
 * query_take_max_records: a `take` after the query's last operator (before a closing `render`,
 * which only describes the chart), so the rows are the query's first ones and none is reported
 * as truncated.
 */
export function withTakeMax(program: Program, max: number | undefined): Program {
  if (max === undefined) return program;
  const { query } = program;
  const operators = query.operators;
  const last = operators[operators.length - 1];
  const at = last?.kind === 'render' ? operators.length - 1 : operators.length;
  const span = { start: query.span.end, end: query.span.end };
  const take: Operator = { kind: 'take', count: { kind: 'literal', type: 'long', value: BigInt(max), span }, span };
  return { ...program, query: { ...query, operators: [...operators.slice(0, at), take, ...operators.slice(at)] } };
}
