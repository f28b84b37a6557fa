// GET /maintenance/v1/plants/{plantId}/tasks: a paged list (docs/maintenance-api.md).
import { maintenanceDeps } from '../../lib/wiring/maintenance';
import { callerOf } from '../../lib/auth/caller';
import { httpHandler } from '../../lib/http/chain';
import { listTasks } from '../../lib/maintenance/lists';
import { pathParam } from '../../lib/maintenance/request';

export const handler = httpHandler(async (event) => {
  const plantId = pathParam(event, 'plantId');
  return { body: await listTasks(maintenanceDeps(), callerOf(event, { plantId }), plantId, event.queryStringParameters) };
});
