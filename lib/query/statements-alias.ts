// The alias statement (https://learn.microsoft.com/kusto/query/alias-statement): `alias database
// Name = cluster('uri').database('db')` names a database for `database('Name')` in the same query.
// Cross-cluster queries are not offered, so cluster() is refused at its word; the form Kusto.Language
// also reads, `alias database Name = database('db')`, is kept: database('Name') then stands for
// database('db'), which must be the caller's own (analyze-scope.ts compares it there). Alias names
// are compared without case, as database names are (entity names page).
// Throws QueryError QUERY_SYNTAX for malformed text, QUERY_UNSUPPORTED for cluster().
import type { ErrorFactory } from './errors';
import type { Span, Token } from './tokens';

/** The part of the Parser read here. */
export interface AliasCursor {
  readonly errors: ErrorFactory;
  peekAt(offset: number): Token | undefined;
  next(): Token;
  expectOp(text: string): Token;
  expectIdent(text: string): void;
  expectName(what: string): { name: string; span: Span };
}

/** `alias database Name = database('db')` with the cursor at `alias`: the alias (lower case) and its database. */
export function parseAlias(p: AliasCursor): { readonly alias: string; readonly database: string } {
  p.next();
  p.expectIdent('database');
  const name = p.expectName('a database alias name');
  p.expectOp('=');
  const word = p.next();
  if (word.text === 'cluster')
    throw p.errors.unsupported(
      "cluster() is not supported: cross-cluster queries are not offered; alias this query's own database as database('<name>')",
      word.span,
    );
  if (word.text !== 'database')
    throw p.errors.syntax(`expected cluster(...).database(...) or database(...), found '${word.text}'`, word.span);
  p.expectOp('(');
  const t = p.next();
  if (t.kind !== 'string') throw p.errors.syntax('expected the database name as a string literal', t.span);
  p.expectOp(')');
  return { alias: name.name.toLowerCase(), database: String(t.value) };
}
