// The legacy form of partition with its own source (partition operator docs, "Legacy strategy with
// explicit source": `T | partition by Column { SubQueryWithSource }`, where "the subquery can only
// reference the key column, Column, from T ... use the syntax toscalar(Column)"; the page's example
// writes the bare name). Read as the implicit-source form over a relation analyze-partition.ts
// already runs per key: the sub-query's source joined with T's distinct key values (every source row
// once per key, the key under the partition's hidden name), and in the sub-query's expressions
// `toscalar(Column)`, and `Column` when the source has no column of that name, read that hidden key.
// Kusto allows at most 64 key values in this form; here there is no such limit.
import type { Expr, NamedExpr, Operator, PartitionSpec, Pipeline, SortKey } from './ast';
import { mapChildren } from './ast-walk';
import { name } from './ast-build';
import type { Rel } from './ir';
import type { Span } from './tokens';

/** What the rewrite needs of analyze-partition.ts: its hidden names and its `at` (operators over a bound relation). */
export interface PartitionScope {
  readonly prefix: string;
  readonly key: string;
  at(ops: readonly Operator[], rel: Rel): Rel;
  bind(table: string, rel: Rel | undefined): void;
  subquery(p: Pipeline): Rel;
}

/** The relation the sub-query's operators start from (the hidden key included) and those operators. */
export function partitionSource(
  s: PartitionScope,
  input: Rel,
  spec: PartitionSpec & { source: Pipeline },
  span: Span,
): { rel: Rel; operators: Operator[] } {
  const keyItem: NamedExpr = { name: s.key, expr: name(spec.key.name, spec.key.span), span };
  const keys = s.at([{ kind: 'summarize', aggregates: [], by: [keyItem], span }], input);
  const source = s.subquery({ ...spec.source, operators: [] });
  const join = `${s.prefix}join`;
  const table = `${s.prefix}keys`;
  const one: Operator = {
    kind: 'extend',
    items: [{ name: join, expr: { kind: 'literal', type: 'long', value: 1n, span }, span }],
    span,
  };
  const right: Pipeline = { kind: 'pipeline', source: { kind: 'table', name: table, span }, operators: [one], span };
  s.bind(table, keys);
  let rel: Rel;
  try {
    const on = [{ left: join, right: join, leftSpan: span, rightSpan: span, span }];
    rel = s.at(
      [one, { kind: 'join', join: { lookup: false, joinKind: 'inner', kindSpan: span, right, on }, span }],
      source,
    );
  } finally {
    s.bind(table, undefined);
  }
  const bare = !source.columns.some((c) => c.name === spec.key.name);
  const operators = spec.source.operators.map((op) => withKey(op, spec.key.name, s.key, bare));
  return { rel, operators };
}

/** `op` with its expressions reading the hidden key where they read the partition's key. */
function withKey(op: Operator, column: string, hidden: string, bare: boolean): Operator {
  const isKey = (e: Expr): boolean =>
    (e.kind === 'name' && e.name === column) ||
    (e.kind === 'tabular' &&
      e.pipeline.operators.length === 0 &&
      e.pipeline.source.kind === 'table' &&
      e.pipeline.source.name === column);
  const sub = (e: Expr): Expr => {
    if (bare && e.kind === 'name' && e.name === column) return name(hidden, e.span);
    if (e.kind === 'call' && e.name === 'toscalar' && e.args.length === 1 && isKey(e.args[0]!))
      return name(hidden, e.span);
    return mapChildren(e, sub);
  };
  return mapExpressions(op, sub);
}

/** `op` with `sub` applied to the expressions of where, extend, project, summarize, sort, top and distinct. */
export function mapExpressions(op: Operator, sub: (e: Expr) => Expr): Operator {
  const items = (list: readonly NamedExpr[]): NamedExpr[] => list.map((i) => ({ ...i, expr: sub(i.expr) }));
  const keys = (list: readonly SortKey[]): SortKey[] => list.map((k) => ({ ...k, expr: sub(k.expr) }));
  switch (op.kind) {
    case 'where':
      return { ...op, predicate: sub(op.predicate) };
    case 'extend':
    case 'project':
      return { ...op, items: items(op.items) };
    case 'summarize':
      return { ...op, aggregates: items(op.aggregates), by: items(op.by) };
    case 'sort':
      return { ...op, keys: keys(op.keys) };
    case 'top':
      return { ...op, by: keys(op.by) };
    case 'distinct':
      return op.columns === '*' ? op : { ...op, columns: items(op.columns) };
    default:
      return op;
  }
}
