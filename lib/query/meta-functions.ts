// The metadata functions this service can answer (Kusto's current_principal and current_database
// pages): who runs the query and in which database, both fixed for the whole query. The request
// gives them (CompileOptions.identity); a compile without one (tools, tests) refuses them.
import type { Expr } from './ast';
import type { ErrorFactory } from './errors';
import type { IrExpr } from './ir';
import { lit } from './types';

/** Who runs the query, as docs/query-api.md ("Metadata functions") describes the forms. */
export interface QueryIdentity {
  /** current_principal(): `PrincipalType=PrincipalId;TenantId`, the page's format. */
  readonly principal: string;
  /** current_database(): the database the Kusto routes use, the caller's customer id. */
  readonly database: string;
}

export const META_FUNCTIONS: ReadonlySet<string> = new Set(['current_principal', 'current_database']);

/** @throws QueryError QUERY_SEMANTIC with arguments, QUERY_UNSUPPORTED without an identity. */
export function metaFunction(
  errors: ErrorFactory,
  expr: Expr & { kind: 'call' },
  identity: QueryIdentity | undefined,
): IrExpr {
  if (expr.args.length > 0) throw errors.semantic(`${expr.name}() takes no arguments`, expr.span);
  if (identity === undefined)
    throw errors.unsupported(
      `${expr.name}() needs the request's caller, which this compile was not given`,
      expr.nameSpan,
    );
  return lit('string', expr.name === 'current_principal' ? identity.principal : identity.database);
}
