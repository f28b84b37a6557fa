// POST /v1/rest/query: Kusto's query protocol v1 over the native query service (docs/kusto-protocol.md).
import { kustoCaller, kustoHandler, traceOf } from '../../lib/kusto/chain';
import { kustoQuery } from '../../lib/kusto/service';
import { queryEngine, querySettings } from '../../lib/wiring/query';
import { queryCaller } from '../../lib/wiring/auth';

export const handler = kustoHandler(
  async (event) => ({
    json: await kustoQuery(
      'v1',
      event.jsonBody,
      kustoCaller(event),
      await queryEngine(),
      querySettings(),
      traceOf(event),
    ),
  }),
  { authenticate: queryCaller, jsonBody: true },
);
