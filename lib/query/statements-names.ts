// Names one statement of a batch gives its tables for the statements after it: each `as Name` of
// its pipeline (Kusto.Language reads `print 1 | as X; X` as X's table), of its fork legs, and
// graph-to-table's `nodes as N ..., edges as E ...` (graph-to-table page: `...; N; E` prints both
// tables). Each result table is a compile of its own, so a later statement reads such a name as a
// tabular let would be read: a `let` of the naming statement's expression, placed after the lets
// that statement saw and before the ones after it (which may hide the name again). A plain `as`
// is computed again where it is read (as operator page: "the value will be recalculated on every
// reference"); `as hint.materialized=true` is a materialize() let, computed once per request.
import type { GraphTablesSpec, LetStatement, Operator, Pipeline, Program } from './ast';
import type { Span } from './tokens';

type GraphTablesOperator = Operator & { kind: 'graph'; graph: { end: GraphTablesSpec } };

/** One tabular statement of a batch: the lets before it, in order, and its expression. */
interface Statement {
  readonly lets: readonly LetStatement[];
  readonly query: Pipeline;
}

interface NamedTable {
  readonly name: string;
  readonly nameSpan: Span;
  readonly query: Pipeline;
}

function graphTablesOperator(query: Pipeline): GraphTablesOperator | undefined {
  const last = query.operators[query.operators.length - 1];
  return last?.kind === 'graph' && last.graph.end.kind === 'toTables' ? (last as GraphTablesOperator) : undefined;
}

/**
 * The two tables of a statement ending in `graph-to-table nodes as N ..., edges as E ...`, each
 * as the statement's expression ending in the one-table graph-to-table; undefined for any other.
 */
export function graphTables(query: Pipeline): readonly NamedTable[] | undefined {
  const op = graphTablesOperator(query);
  if (!op) return undefined;
  const before = query.operators.slice(0, -1);
  return [op.graph.end.nodes, op.graph.end.edges].map((end) => ({
    name: end.name.name,
    nameSpan: end.name.span,
    query: { ...query, operators: [...before, { ...op, graph: { ...op.graph, end } }] },
  }));
}

/**
 * The tables the `as` operators of a list name: the query with `before`, then the operators up to
 * the `as`; `skipMaterialized`: but those of `as hint.materialized=true` (lets already, see below).
 */
function asTables(
  query: Pipeline,
  before: readonly Operator[],
  operators: readonly Operator[],
  skipMaterialized = false,
): NamedTable[] {
  return operators.flatMap((op, i) =>
    op.kind === 'as' && !(skipMaterialized && op.materialized)
      ? [
          {
            name: op.name,
            nameSpan: op.nameSpan,
            query: { ...query, operators: [...before, ...operators.slice(0, i + 1)] },
          },
        ]
      : [],
  );
}

/**
 * The lets that a statement's names stand for: its pipeline up to each `as` (the `as` kept, so that
 * union's withsource= still says the name), up to each `as` of a fork leg (the operators before the
 * fork, then the leg's: Kusto.Language reads `T | fork (take 1 | as X) (count); X` as X's table, but
 * not a leg's `X=` name), its graph tables.
 */
function namedTables(query: Pipeline): LetStatement[] {
  const ops = query.operators;
  const last = ops[ops.length - 1];
  const forkLegs =
    last?.kind === 'fork' ? last.legs.flatMap((leg) => asTables(query, ops.slice(0, -1), leg.operators)) : [];
  const named = [...asTables(query, [], ops, true), ...forkLegs, ...(graphTables(query) ?? [])];
  return named.map((t) => ({
    kind: 'let',
    name: t.name,
    nameSpan: t.nameSpan,
    value: t.query,
    span: t.query.span,
  }));
}

/**
 * A statement's `as hint.materialized=true X` (as operator page: "as if it was wrapped by a
 * materialize() function call"): X becomes a materialize() let of the pipeline up to that `as`, and
 * the pipeline reads X from there on (the `as` kept: it names the table and union's withsource=), so
 * that the statement's own table and every later statement read one value (index.ts stores it once).
 */
function materializedNames(query: Pipeline): { readonly lets: readonly LetStatement[]; readonly query: Pipeline } {
  const lets: LetStatement[] = [];
  let source = query.source;
  let operators: Operator[] = [];
  for (const op of query.operators) {
    operators.push(op);
    if (op.kind !== 'as' || !op.materialized) continue;
    const value: Pipeline = { ...query, source, operators };
    lets.push({ kind: 'let', name: op.name, nameSpan: op.nameSpan, value, span: value.span, materialized: true });
    source = { kind: 'table', name: op.name, span: op.nameSpan };
    operators = [op];
  }
  return lets.length === 0 ? { lets, query } : { lets, query: { ...query, source, operators } };
}

/**
 * The statements of a batch, in order, each with the names the statements before it gave (as
 * lets); `common`: what every statement's program shares (set statements, parameters).
 */
export function withBatchNames(common: Omit<Program, 'lets' | 'query'>, statements: readonly Statement[]): Program[] {
  // Each name, with the number of lets its statement saw: a prefix of every later statement's lets.
  const named: { readonly at: number; readonly let: LetStatement }[] = [];
  return statements.map((s) => {
    const lets = named.length === 0 ? s.lets : interleave(s.lets, named);
    const own = materializedNames(s.query);
    named.push(...[...own.lets, ...namedTables(own.query)].map((l) => ({ at: s.lets.length, let: l })));
    return { ...common, lets: [...lets, ...own.lets], query: own.query };
  });
}

function interleave(
  lets: readonly LetStatement[],
  named: readonly { readonly at: number; readonly let: LetStatement }[],
): LetStatement[] {
  const out: LetStatement[] = [];
  for (let i = 0; i <= lets.length; i++) {
    for (const n of named) if (n.at === i) out.push(n.let);
    if (i < lets.length) out.push(lets[i]!);
  }
  return out;
}
