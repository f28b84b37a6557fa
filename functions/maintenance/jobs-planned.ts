// GET /maintenance/v1/plants/{plantId}/jobs-planned: a paged list (docs/maintenance-api.md).
import { maintenanceDeps } from '../../lib/wiring/maintenance';
import { callerOf } from '../../lib/auth/caller';
import { httpHandler } from '../../lib/http/chain';
import { listJobsPlanned } from '../../lib/maintenance/lists';
import { pathParam } from '../../lib/maintenance/request';

export const handler = httpHandler(async (event) => {
  const plantId = pathParam(event, 'plantId');
  return { body: await listJobsPlanned(maintenanceDeps(), callerOf(event, { plantId }), plantId, event.queryStringParameters) };
});
