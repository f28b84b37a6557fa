// Parsing of the scope functions that name a table (the table(), database() and cluster() pages):
// `table(Name [, DataScope])`, `database(Name).Table` and `database(Name).table(...)`. Their
// arguments are expressions (a literal, a let name, a function's parameter), resolved by the
// analyzer once lets and parameters are bound (analyzer.ts, scopedTable). cluster() is refused
// here, at its word: a query reads only its own database, never another cluster's; so are the
// sources this service has no such thing for (external_table(), materialized_view(),
// stored_query_result()), with the reason the function catalog gives.
// Throws QueryError QUERY_SYNTAX for malformed text and QUERY_UNSUPPORTED for cluster() and those.
import type { Expr, Source } from './ast';
import { refusalReason } from './catalog/functions-v6-refused';
import type { ErrorFactory } from './errors';
import type { PatternScope } from './statements-pattern';
import type { MacroScope } from './parser-macro-expand';
import type { Span, Token } from './tokens';

/** The part of the Parser read here (parser-operators.ts's cursor has it too; no import, no cycle). */
interface ScopeCursor {
  readonly errors: ErrorFactory;
  peekAt(offset: number): Token | undefined;
  next(): Token;
  peekIdent(text: string): boolean;
  acceptOp(text: string): Token | undefined;
  expectOp(text: string): Token;
  expectName(what: string): { name: string; span: Span };
  expression(): Expr;
  spanFrom(start: number): Span;
  /** The query's declared patterns (the Parser's; statements-pattern.ts): their invocations are sources too. */
  readonly patterns?: PatternScope;
  /** The entity identifiers of the macro-expand being read (parser-macro-expand.ts): sources too. */
  readonly macros?: MacroScope;
}

/** Tabular sources that name something this service does not have: refused at their word. */
const REFUSED_SOURCES: ReadonlySet<string> = new Set(['external_table', 'materialized_view', 'stored_query_result']);

export const SCOPE_FUNCTIONS: ReadonlySet<string> = new Set(['table', 'database', 'cluster', ...REFUSED_SOURCES]);

/**
 * Whether the cursor is at `table(`, `database(`, `cluster(`, a refused source's `name(`, a pattern's
 * invocation or a macro-expand's entity identifier.
 */
export function atScopeFunction(p: ScopeCursor, offset = 0): boolean {
  if (p.patterns?.at(p, offset) || p.macros?.at(p, offset)) return true;
  const t = p.peekAt(offset);
  return t?.kind === 'ident' && SCOPE_FUNCTIONS.has(t.text) && p.peekAt(offset + 1)?.text === '(';
}

/** The source at the cursor, which atScopeFunction() accepted; the word not yet read. */
export function parseScopedSource(p: ScopeCursor): Source {
  if (p.patterns?.at(p)) return p.patterns.invoke(p);
  if (p.macros?.at(p)) return p.macros.invoke(p);
  const word = p.next();
  if (word.text === 'cluster')
    throw p.errors.unsupported(
      'cluster() is not supported: cross-cluster queries are not offered; a query reads only the tables of its own database',
      word.span,
    );
  if (REFUSED_SOURCES.has(word.text))
    throw p.errors.unsupported(`${word.text}() is not supported: ${refusalReason(word.text) ?? ''}`, word.span);
  if (word.text === 'table') return tableCall(p, word, undefined);
  p.expectOp('(');
  const database = p.expression();
  p.expectOp(')');
  p.expectOp('.');
  if (p.peekIdent('table') && p.peekAt(1)?.text === '(') return tableCall(p, p.next(), database, word.span.start);
  const name = p.expectName('a table name after database(...).');
  const table: Expr = { kind: 'literal', type: 'string', value: name.name, span: name.span };
  return { kind: 'tableRef', table, database, span: p.spanFrom(word.span.start) };
}

/** After the word table: `(Name [, DataScope])`. */
function tableCall(p: ScopeCursor, word: Token, database: Expr | undefined, start = word.span.start): Source {
  p.expectOp('(');
  const table = p.expression();
  const dataScope = p.acceptOp(',') ? p.expression() : undefined;
  p.expectOp(')');
  return {
    kind: 'tableRef',
    table,
    ...(dataScope ? { dataScope } : {}),
    ...(database ? { database } : {}),
    span: p.spanFrom(start),
  };
}
