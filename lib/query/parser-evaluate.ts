// Parsing of evaluate after the operator's word (evaluate operator docs,
// https://learn.microsoft.com/en-us/kusto/query/evaluate-operator): `evaluate [hints] plugin(args)`.
// Only the narrow plugin is run here (analyze-evaluate.ts); any other plugin is refused at its
// name with QUERY_UNSUPPORTED, as are narrow's arguments. Throws QUERY_SYNTAX for malformed text.
import type { EvaluateSpec } from './ast';
import { clip } from './errors';
import type { OperatorCursor } from './parser-operators';

const PLUGINS: ReadonlySet<string> = new Set(['narrow']);

export function parseEvaluate(p: OperatorCursor): EvaluateSpec {
  while (p.peekIdent('hint') && p.peekAt(1)?.text === '.') {
    p.next();
    p.expectOp('.');
    p.expectName('a hint name');
    p.expectOp('=');
    const value = p.next();
    if (value.kind === 'eof') throw p.errors.syntax('expected the value of the hint', value.span);
  }
  const plugin = p.expectName('a plugin name');
  if (!PLUGINS.has(plugin.name))
    throw p.errors.unsupported(`the '${clip(plugin.name)}' plugin is not supported`, plugin.span);
  p.expectOp('(');
  if (!p.peekOp(')')) throw p.errors.semantic(`${plugin.name}() takes no arguments`, p.peek().span);
  p.expectOp(')');
  return { plugin: plugin.name, pluginSpan: plugin.span };
}
