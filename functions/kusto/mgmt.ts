// POST /v1/rest/mgmt: the discovery commands of Kusto tools (docs/kusto-protocol.md); never runs a query.
import { kustoCaller, kustoHandler } from '../../lib/kusto/chain';
import { kustoCommand } from '../../lib/kusto/service';
import { SERVICE_VERSION } from '../../lib/wiring/kusto';
import { queryCaller } from '../../lib/wiring/auth';

export const handler = kustoHandler(
  async (event) => ({ json: kustoCommand(event.jsonBody, kustoCaller(event), SERVICE_VERSION) }),
  { authenticate: queryCaller, jsonBody: true },
);
