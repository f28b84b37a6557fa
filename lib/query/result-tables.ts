// Queries of several result tables: a batch of tabular statements (batches docs: "The query then
// returns multiple tabular results ... ordered according to the order of the statements") and
// queries ending in fork or facet (their docs: "Returns: multiple result tables"), which a Kusto
// client reads as several primary results. Each table is compiled as a query of its own: its
// statement with the lets before it (and the names earlier statements gave with `as`,
// statements-names.ts) and, for fork, the operators before the fork, then the leg's. A statement
// ending in `graph-to-table nodes as N ..., edges as E ...` answers its two tables (its page's
// Returns) when it is the last statement; before others it only names them for them (the page's
// `...; N; E` prints two tables, N's and E's). A caller that answers one table (POST /query/table,
// /explain) is refused at the second statement or at the operator's word, unless the query has
// one table only.
import type { Operator, Pipeline, Program } from './ast';
import { QueryError } from './errors';
import { expandFunctions } from './expand-udf';
import { checkQueryLength, compileContext, resolveLimits, type CompileContext } from './limits';
import { parse } from './parser';
import { graphTables, withBatchNames } from './statements-names';

type Fork = Operator & { kind: 'fork' };

/** The name of an unnamed result table: the one Kusto gives its primary result. */
export const UNNAMED_TABLE = 'PrimaryResult';

/** Where the endpoints that answer every table are, for the refusals of a one-table caller. */
const KUSTO_ROUTES =
  'send the query to the Kusto protocol routes (/v2/rest/query, /v1/rest/query), which answer every table';

function forkOf(program: Program): Fork | undefined {
  const last = program.query.operators[program.query.operators.length - 1];
  return last?.kind === 'fork' ? last : undefined;
}

/**
 * Each tabular statement of a batch as a program of its own (one for a query that is no batch, which
 * goes the same way: its `as hint.materialized=true` is a stored let there too, read alike by the
 * rest of its pipeline and by each leg of a fork).
 */
export function batchPrograms(program: Program): readonly Program[] {
  const { batch = [], lets, query, ...common } = program;
  return withBatchNames(common, [{ lets, query }, ...batch]);
}

/**
 * The tabular statement of a batch that result table `index` comes from, and the index of the table
 * within that statement's (fork legs); undefined index: the caller answers one table.
 * @throws QueryError QUERY_UNSUPPORTED at the second statement of a batch when the caller answers one.
 * @throws TypeError for an index the query does not have (a programming error of the caller).
 */
export function batchStatement(
  program: Program,
  index: number | undefined,
  ctx: CompileContext,
): { readonly program: Program; readonly index: number | undefined } {
  const statements = batchPrograms(program);
  const second = program.batch?.[0];
  if (index === undefined) {
    if (second === undefined) return { program: statements[0]!, index };
    const at = second.query.span;
    throw ctx.errors.unsupported(
      `the query is a batch of ${statements.length} tabular statements, each a result table, and this endpoint ` +
        `answers one; ${KUSTO_ROUTES}, or send each statement alone`,
      { start: at.start, end: at.start },
    );
  }
  let first = 0;
  for (const [i, statement] of statements.entries()) {
    const count = tableCount(statement, ctx, i === statements.length - 1);
    if (index < first + count) return { program: statement, index: index - first };
    first += count;
  }
  throw new TypeError(`the query has ${first} result tables, not ${index + 1}`);
}

/** How many result tables a statement answers; `last`: the batch's last statement (or the only one). */
function tableCount(program: Program, ctx: CompileContext, last: boolean): number {
  const expanded = expandFunctions(program, ctx);
  const graph = graphTables(expanded.query);
  if (graph) return last ? graph.length : 0;
  return forkOf(expanded)?.legs.length ?? 1;
}

/**
 * The program of result table `index` of one statement (undefined: the caller answers one table).
 * @throws QueryError QUERY_UNSUPPORTED at fork/facet of several tables when the caller answers one.
 * @throws TypeError for an index the query does not have (a programming error of the caller).
 */
export function resultTableProgram(program: Program, index: number | undefined, ctx: CompileContext): Program {
  const graph = graphTables(program.query);
  if (graph) {
    if (index === undefined)
      throw ctx.errors.unsupported(
        `graph-to-table of nodes and edges answers 2 result tables and this endpoint answers one; ${KUSTO_ROUTES}, ` +
          'or export nodes and edges in two queries',
        graph[1]!.nameSpan,
      );
    const table = graph[index];
    if (!table) throw new TypeError(`the query has ${graph.length} result tables, not ${index + 1}`);
    return { ...program, query: table.query };
  }
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
      `${fork.word} answers ${fork.legs.length} result tables and this endpoint answers one; ${KUSTO_ROUTES}, ` +
        'or query each table alone',
      at,
    );
  const leg = fork.legs[index];
  if (!leg) throw new TypeError(`the query has ${fork.legs.length} result tables, not ${index + 1}`);
  const q = program.query;
  return { ...program, query: { ...q, operators: [...q.operators.slice(0, -1), ...leg.operators] } };
}

/** A statement's table name when it is no fork: the `as` operator ending it (batches docs' example). */
function statementName(query: Pipeline): string {
  const last = query.operators[query.operators.length - 1];
  return last?.kind === 'as' ? last.name : UNNAMED_TABLE;
}

/**
 * The names of the result tables of a batch or of a query ending in fork/facet; undefined for a
 * query of one statement and one table, or a text that does not parse. A statement that does not compile counts as one table:
 * compiling it reports its error.
 */
export function resultTableNames(queryText: string): readonly string[] | undefined {
  let statements: readonly Program[];
  const ctx = compileContext(queryText, resolveLimits(undefined));
  try {
    // The same bound as compile(): a text over it is not parsed here either (compile refuses it).
    checkQueryLength(ctx);
    statements = batchPrograms(parse(queryText, ctx));
  } catch (e) {
    if (e instanceof QueryError) return undefined;
    throw e;
  }
  const names = statements.flatMap((statement, i) => {
    try {
      const expanded = expandFunctions(statement, ctx);
      const graph = graphTables(expanded.query);
      if (graph) return i === statements.length - 1 ? graph.map((t) => t.name) : [];
      const fork = forkOf(expanded);
      return fork ? fork.legs.map((l) => l.name ?? UNNAMED_TABLE) : [statementName(expanded.query)];
    } catch (e) {
      if (e instanceof QueryError) return [statementName(statement.query)];
      throw e;
    }
  });
  // A batch whose first statements name tables for the last one answers one table, still a batch.
  return names.length > 1 || statements.length > 1 ? names : undefined;
}
