// Parsing of invoke (invoke operator docs, https://learn.microsoft.com/en-us/kusto/query/invoke-operator):
// `T | invoke f(args)` is `f(T, args)`: the pipeline read so far becomes the first argument of a call
// of the user-defined function f, which is the source of the operators after it (expanded with the
// other calls in expand-udf.ts). Throws QueryError QUERY_UNSUPPORTED when f is not a function the
// query defines with let (Kusto's stored functions are not part of this service).
import type { Pipeline, Source } from './ast';
import { clip } from './errors';
import { parseUdfSource, type UdfCursor } from './parser-udf';

export function parseInvoke(p: UdfCursor, functions: ReadonlySet<string>, input: Pipeline): Source {
  const name = p.next();
  if (name.kind !== 'ident' || !p.peekOp('('))
    throw p.errors.syntax(`expected a function call after invoke, found '${clip(name.text)}'`, name.span);
  if (!functions.has(name.text))
    throw p.errors.unsupported(
      `invoke needs a function defined in the query with let; '${clip(name.text)}' is not one`,
      name.span,
    );
  const call = parseUdfSource(p, name);
  if (call.kind !== 'udf') return call;
  const table = { kind: 'tabular' as const, pipeline: input, span: input.span };
  return {
    ...call,
    args: [table, ...call.args],
    ...(call.argNames ? { argNames: [undefined, ...call.argNames] } : {}),
  };
}
