import { queryCaller } from '../../lib/wiring/auth';
import { queryEngine, querySettings } from '../../lib/wiring/query';
import { httpHandler } from '../../lib/http/chain';
import { explainQuery } from '../../lib/query-api/service';

export const handler = httpHandler(
  async (event) => ({ body: explainQuery(event.jsonBody, event.caller, await queryEngine(), querySettings()) }),
  { jsonBody: true, authenticate: queryCaller },
);
