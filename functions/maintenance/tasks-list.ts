// GET /maintenance/v1/plants/{plantId}/tasks: a paged list (docs/maintenance-api.md).
import { maintenanceDeps } from '../../lib/wiring/maintenance';
import { httpHandler } from '../../lib/http/chain';
import { listTasks } from '../../lib/maintenance/lists';
import { pathParam } from '../../lib/http/request';

export const handler = httpHandler(
  async (event) => ({
    body: await listTasks(maintenanceDeps(), event.caller, pathParam(event, 'plantId'), event.queryStringParameters),
  }),
  { authorized: true },
);
