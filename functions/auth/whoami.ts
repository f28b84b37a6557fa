// GET /insights/v1/whoami and GET /maintenance/v1/plants/{plantId}/whoami: what the presented
// access token grants (customer, plants, client or token id), so integrators can check their
// credentials before calling the APIs. Refusals come from the authorizer through the chain.
import { httpHandler } from '../../lib/http/chain';

export const handler = httpHandler(
  async (event) => ({ body: { data: event.caller }, headers: { 'cache-control': 'no-store' } }),
  { authorized: true },
);
