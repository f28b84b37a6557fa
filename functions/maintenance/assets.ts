// GET /maintenance/v1/plants/{plantId}/assets: a paged list (docs/maintenance-api.md).
import { maintenanceDeps } from '../../lib/wiring/maintenance';
import { httpHandler } from '../../lib/http/chain';
import { listAssets } from '../../lib/maintenance/lists';
import { pathParam } from '../../lib/http/request';

export const handler = httpHandler(
  async (event) => ({
    body: await listAssets(maintenanceDeps(), event.caller, pathParam(event, 'plantId'), event.queryStringParameters),
  }),
  { authorized: true },
);
