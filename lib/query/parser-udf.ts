// Parsing of user-defined functions (user-defined functions docs): the definition
// `let f = [view] (x:long, y:long = 2, T:(Value:real), U:(*)) { [let ...;] result }` and the call of
// a tabular function where a table goes, `f(args) | ...`. The calls are expanded into the body
// before analysis (expand-udf.ts). Throws QueryError QUERY_SYNTAX for malformed text.
import type { ColumnDecl, Expr, FunctionDef, FunctionParam, LetStatement, Pipeline, Source } from './ast';
import type { SubqueryCursor } from './parser-subquery';
import { typeNamed } from './types';
import type { Span, Token } from './tokens';

/** The part of the Parser a function definition reads through. */
export interface UdfCursor extends SubqueryCursor {
  parseLet(): LetStatement;
  /** Names that start a tabular expression while the body is read (tabular parameters). */
  addTabularName(name: string): boolean;
  removeTabularName(name: string): void;
  callArgument(at: Span): Expr;
}

/** Whether the cursor (after `let name =`) is at a function definition: `(x:`, `(['x']:`, `()` then `{`, or `view (`. */
export function atFunctionDefinition(p: UdfCursor): boolean {
  let i = 0;
  if (p.peekIdent('view') && p.peekAt(1)?.text === '(') i = 1;
  if (p.peekAt(i)?.text !== '(') return false;
  const a = p.peekAt(i + 1);
  if (a?.text === ')') return p.peekAt(i + 2)?.text === '{';
  // A parameter name: an identifier, or a bracketed one (entity names page), three tokens.
  const bracketed = a?.text === '[' && p.peekAt(i + 2)?.kind === 'string' && p.peekAt(i + 3)?.text === ']';
  return (a?.kind === 'ident' && p.peekAt(i + 2)?.text === ':') || (bracketed && p.peekAt(i + 4)?.text === ':');
}

/** The definition after `let name =`; the caller reads the closing `;`. */
export function parseFunctionDef(p: UdfCursor): FunctionDef {
  const start = p.peek().span.start;
  const view = p.acceptIdent('view');
  p.expectOp('(');
  const params: FunctionParam[] = [];
  const seen = new Set<string>();
  if (!p.peekOp(')')) {
    do {
      const param = parseParam(p);
      if (seen.has(param.name)) throw p.errors.semantic(`duplicate parameter '${param.name}'`, param.span);
      if (param.default === undefined && params.some((q) => q.default !== undefined))
        throw p.errors.syntax('a parameter without a default value cannot follow one with a default', param.span);
      seen.add(param.name);
      params.push(param);
    } while (p.acceptOp(','));
  }
  p.expectOp(')');
  const open = p.expectOp('{');
  // Tabular parameters are tables inside the body: `T | ...`, toscalar(T), x in (T).
  const added = params.filter((q) => typeof q.type !== 'string' && p.addTabularName(q.name)).map((q) => q.name);
  try {
    const lets: LetStatement[] = [];
    for (;;) {
      while (p.acceptOp(';'));
      if (!p.peekIdent('let')) break;
      lets.push(p.parseLet());
    }
    if (p.peekOp('}')) throw p.errors.syntax('the function body has no result expression', p.peek().span);
    const result: Expr | Pipeline = p.startsTabular() ? p.subPipeline(open.span) : p.expression();
    while (p.acceptOp(';'));
    p.expectOp('}');
    const def: FunctionDef = { kind: 'function', params, lets, result, span: p.spanFrom(start) };
    return view ? { ...def, view } : def;
  } finally {
    for (const name of added) p.removeTabularName(name);
  }
}

function parseParam(p: UdfCursor): FunctionParam {
  const name = p.expectName('a parameter name');
  p.expectOp(':');
  let type: FunctionParam['type'];
  if (p.acceptOp('(')) {
    const columns: ColumnDecl[] = [];
    let anyColumns = false;
    do {
      if (p.acceptOp('*')) {
        anyColumns = true;
        continue;
      }
      const column = p.expectName('a column name');
      p.expectOp(':');
      const t = typeToken(p);
      columns.push({ name: column.name, type: t.text, span: { start: column.span.start, end: t.span.end } });
    } while (p.acceptOp(','));
    p.expectOp(')');
    type = { columns, anyColumns };
  } else type = typeToken(p).text;
  const defaultValue = p.acceptOp('=') ? p.expression() : undefined;
  const span = p.spanFrom(name.span.start);
  return defaultValue ? { name: name.name, type, default: defaultValue, span } : { name: name.name, type, span };
}

function typeToken(p: UdfCursor): Token {
  const t = p.next();
  if (t.kind !== 'ident' || (typeNamed(t.text, true) === undefined && t.text !== 'decimal'))
    throw p.errors.syntax(`expected a type name, found '${t.text}'`, t.span);
  return t;
}

/** `f(args)` where a table goes, after the function's name. */
export function parseUdfSource(p: UdfCursor, name: Token): Source {
  const { args, argNames } = callArguments(p);
  const span = p.spanFrom(name.span.start);
  return argNames
    ? { kind: 'udf', name: name.text, nameSpan: name.span, args, argNames, span }
    : { kind: 'udf', name: name.text, nameSpan: name.span, args, span };
}

/** `f(args)` in an expression, after the function's name. */
export function parseUdfCall(p: UdfCursor, name: Token): Expr & { kind: 'call' } {
  const { args, argNames } = callArguments(p);
  const span = p.spanFrom(name.span.start);
  return argNames
    ? { kind: 'call', name: name.text, nameSpan: name.span, args, argNames, span }
    : { kind: 'call', name: name.text, nameSpan: name.span, args, span };
}

/**
 * `(a, T | where ..., (T), name = value)`: each argument a tabular expression when one starts
 * there, else a scalar; `name =` binds a parameter by name (user-defined functions docs).
 */
function callArguments(p: UdfCursor): { args: Expr[]; argNames?: (string | undefined)[] } {
  const open = p.expectOp('(');
  const args: Expr[] = [];
  const names: (string | undefined)[] = [];
  if (!p.peekOp(')')) {
    do {
      const named = p.peek().kind === 'ident' && p.peekAt(1)?.text === '=' ? p.next().text : undefined;
      if (named !== undefined) p.expectOp('=');
      names.push(named);
      args.push(p.callArgument(open.span));
    } while (p.acceptOp(','));
  }
  p.expectOp(')');
  return names.some((n) => n !== undefined) ? { args, argNames: names } : { args };
}
