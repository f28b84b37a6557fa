// Semantic analysis of the scope functions (the table() and database() pages): which table a
// `table(Name [, DataScope])` or `database(Name).Table` names. Their arguments must be constant
// strings at the point of call (the pages): a literal, or a let or function parameter bound to one.
// - table(Name) names what the bare name would (a let of that name first, as Kusto.Language
//   resolves it); database(Name).Table names only a table of the database.
// - database(): the caller's own database only, compared without case (entity names page:
//   "Database names are case-insensitive"); any other is unknown to this query.
// - DataScope is hotcache, all or default (table() page); every row here counts as hot, so all
//   three read the whole table.
// Throws QueryError QUERY_SEMANTIC for another database, a bad data scope or a non-string, and
// QUERY_UNSUPPORTED for a name that is no constant or a database() without the request's caller.
import type { Expr, Source } from './ast';
import { clip, type ErrorFactory } from './errors';
import type { IrExpr } from './ir';
import type { QueryIdentity } from './meta-functions';

const DATA_SCOPES: ReadonlySet<string> = new Set(['hotcache', 'all', 'default']);

export interface ScopedTable {
  readonly name: string;
  /** Written with database(): a let of the name does not hide the table. */
  readonly databaseOnly: boolean;
}

/**
 * The table a tableRef names; `constant` analyzes an argument with the query's lets in scope;
 * `aliases`: the alias statements' databases by alias (lower case).
 */
export function scopedTable(
  errors: ErrorFactory,
  s: Source & { kind: 'tableRef' },
  constant: (e: Expr) => IrExpr,
  identity: QueryIdentity | undefined,
  aliases: ReadonlyMap<string, string> = new Map(),
): ScopedTable {
  if (s.database) {
    const written = constantString(errors, s.database, constant, 'database()');
    // An alias statement's name stands for its database (statements-alias.ts).
    const database = aliases.get(written.toLowerCase()) ?? written;
    if (identity === undefined)
      throw errors.unsupported(
        "database() needs the request's caller, which this compile was not given",
        s.database.span,
      );
    if (database.toLowerCase() !== identity.database.toLowerCase())
      throw errors.semantic(
        `unknown database '${clip(database)}': a query reads only its own database, '${clip(identity.database)}'`,
        s.database.span,
      );
  }
  const name = constantString(errors, s.table, constant, 'table()');
  if (s.dataScope) {
    const scope = constantString(errors, s.dataScope, constant, "table()'s data scope");
    if (!DATA_SCOPES.has(scope))
      throw errors.semantic(
        `table()'s data scope is 'hotcache', 'all' or 'default', not '${clip(scope)}'`,
        s.dataScope.span,
      );
  }
  return { name, databaseOnly: s.database !== undefined };
}

function constantString(errors: ErrorFactory, e: Expr, constant: (e: Expr) => IrExpr, what: string): string {
  const value = constant(e);
  if (value.type !== 'string') throw errors.semantic(`${what} takes a string, not a ${value.type}`, e.span);
  if (value.kind !== 'lit' || typeof value.value !== 'string')
    throw errors.unsupported(
      `${what} needs a constant string here: a literal, or a let or function parameter holding one`,
      e.span,
    );
  return value.value;
}
