// Parsing of partition after the operator's word (partition operator docs,
// https://learn.microsoft.com/en-us/kusto/query/partition-operator):
// `partition [hint.strategy=native|shuffle|legacy] [hint.Name=Value ...] by Column ( SubQuery )`.
// Hints change how Kusto distributes the work, never the result, so they are read and dropped
// (an unknown strategy is still a syntax error). The legacy form `by Column { SubQueryWithSource }`
// is a sub-query with its own source reading the key through toscalar(Column).
// Throws QueryError QUERY_SYNTAX for malformed text.
import type { PartitionSpec } from './ast';
import type { OperatorCursor } from './parser-operators';

const STRATEGIES: ReadonlySet<string> = new Set(['native', 'shuffle', 'legacy']);

export function parsePartition(p: OperatorCursor): PartitionSpec {
  while (p.peekIdent('hint') && p.peekAt(1)?.text === '.') {
    p.next();
    p.expectOp('.');
    const name = p.expectName('a hint name');
    p.expectOp('=');
    const value = p.next();
    if (value.kind === 'eof') throw p.errors.syntax('expected the value of the hint', value.span);
    if (name.name === 'strategy' && !STRATEGIES.has(value.text))
      throw p.errors.syntax(`a partition strategy is native, shuffle or legacy, not '${value.text}'`, value.span);
  }
  p.expectIdent('by');
  const key = p.expectName('the partition key column');
  const brace = p.acceptOp('{');
  if (brace) {
    const source = p.subPipeline(brace.span);
    p.expectOp('}');
    return { key, operators: [], source };
  }
  const open = p.expectOp('(');
  const operators = p.subOperators(open.span);
  p.expectOp(')');
  return { key, operators };
}
