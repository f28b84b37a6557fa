// `consume [decodeblocks = Bool]` (consume operator docs, https://learn.microsoft.com/en-us/kusto/query/consume-operator):
// the input is consumed and no rows are returned ("No rows to show"). Read as `take 0`, which keeps
// the input's columns: the page shows no schema, and an answer of no columns is not one the
// endpoints can write. decodeblocks only changes how Kusto reads its storage: read and ignored.
// Throws QUERY_SYNTAX for a malformed option.
import type { Operator } from './ast';
import type { OperatorCursor } from './parser-operators';
import { boolWord } from './tokens';

export function parseConsume(p: OperatorCursor, start: number): Operator {
  if (p.peekIdent('decodeblocks')) {
    p.next();
    p.expectOp('=');
    const value = p.next();
    if (boolWord(value) === undefined) throw p.errors.syntax("decodeblocks is 'true' or 'false'", value.span);
  }
  const span = p.spanFrom(start);
  return { kind: 'take', count: { kind: 'literal', type: 'long', value: 0n, span }, span };
}
