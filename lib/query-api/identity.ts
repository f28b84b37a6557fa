// Who runs a query, for current_principal() and current_database(): Kusto's principal format
// `PrincipalType=PrincipalId;TenantId` (current_principal docs) with this service's callers: an
// OAuth client is `app=<client id>;<customer id>` (a plant token, which the query routes do not
// take today, would be `token=<token id>;<customer id>`); the database is the customer id, the name
// the Kusto routes give it (lib/kusto/request.ts, checkDatabase).
import type { Caller } from '../auth/caller';
import type { QueryIdentity } from '../query';

export function queryIdentity(caller: Caller): QueryIdentity {
  const principal =
    caller.clientId !== undefined
      ? `app=${caller.clientId}`
      : caller.tokenId !== undefined
        ? `token=${caller.tokenId}`
        : `customer=${caller.customerId}`;
  return { principal: `${principal};${caller.customerId}`, database: caller.customerId };
}
