// GET /insights/v1/whoami and GET /maintenance/v1/plants/{plantId}/whoami: what the presented
// access token grants (customer, plants, client or token id), so integrators can check their
// credentials before calling the APIs. Refusals come from the authorizer through callerOf.
import { callerOf } from '../../lib/auth/caller';
import { httpHandler } from '../../lib/http/chain';

export const handler = httpHandler(async (event) => {
  const plantId = event.pathParameters?.plantId;
  const caller = callerOf(event, plantId === undefined ? {} : { plantId });
  return { body: { data: caller }, headers: { 'cache-control': 'no-store' } };
});
