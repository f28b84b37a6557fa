// Queries ending in fork or facet answer several result tables (fork and facet operator docs:
// "Returns: multiple result tables"), which a Kusto client reads as several primary results. Each
// table is compiled as a query of its own: the query's operators before the fork, then the leg's.
// A caller that answers one table (POST /query/table, /explain) is refused at the operator's word,
// unless the query has one table only.
import type { Operator, Program } from './ast';
import { QueryError } from './errors';
import { expandFunctions } from './expand-udf';
import { checkQueryLength, compileContext, resolveLimits, type CompileContext } from './limits';
import { parse } from './parser';

type Fork = Operator & { kind: 'fork' };

/** The name of an unnamed result table: the one Kusto gives its primary result. */
export const UNNAMED_TABLE = 'PrimaryResult';

function forkOf(program: Program): Fork | undefined {
  const last = program.query.operators[program.query.operators.length - 1];
  return last?.kind === 'fork' ? last : undefined;
}

/**
 * The program of result table `index` (undefined: the caller answers one table).
 * @throws QueryError QUERY_UNSUPPORTED at fork/facet of several tables when the caller answers one.
 * @throws TypeError for an index the query does not have (a programming error of the caller).
 */
export function resultTableProgram(program: Program, index: number | undefined, ctx: CompileContext): Program {
  const fork = forkOf(program);
  if (!fork) {
    if (index !== undefined && index !== 0) throw new TypeError(`the query has one result table, not ${index + 1}`);
    return program;
  }
  const at = { start: fork.span.start, end: fork.span.start + fork.word.length };
  // One table (facet by one column, a fork of one leg) is what a one-table caller answers.
  if (index === undefined && fork.legs.length === 1) index = 0;
  if (index === undefined)
    throw ctx.errors.unsupported(
      `${fork.word} answers ${fork.legs.length} result tables and this endpoint answers one; ` +
        'send the query to the Kusto protocol routes (/v2/rest/query, /v1/rest/query), which answer every table, ' +
        'or query each table alone',
      at,
    );
  const leg = fork.legs[index];
  if (!leg) throw new TypeError(`the query has ${fork.legs.length} result tables, not ${index + 1}`);
  const q = program.query;
  return { ...program, query: { ...q, operators: [...q.operators.slice(0, -1), ...leg.operators] } };
}

/** The names of the result tables of a query ending in fork/facet; undefined for one table or a query that does not compile. */
export function resultTableNames(queryText: string): readonly string[] | undefined {
  try {
    const ctx = compileContext(queryText, resolveLimits(undefined));
    // The same bound as compile(): a text over it is not parsed here either (compile refuses it).
    checkQueryLength(ctx);
    const fork = forkOf(expandFunctions(parse(queryText, ctx), ctx));
    return fork?.legs.map((l) => l.name ?? UNNAMED_TABLE);
  } catch (e) {
    if (e instanceof QueryError) return undefined;
    throw e;
  }
}
