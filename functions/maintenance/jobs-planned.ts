// GET /maintenance/v1/plants/{plantId}/jobs-planned: a paged list (docs/maintenance-api.md).
import { maintenanceDeps } from '../../lib/wiring/maintenance';
import { httpHandler } from '../../lib/http/chain';
import { listJobsPlanned } from '../../lib/maintenance/lists';
import { pathParam } from '../../lib/http/request';

export const handler = httpHandler(
  async (event) => ({
    body: await listJobsPlanned(
      maintenanceDeps(),
      event.caller,
      pathParam(event, 'plantId'),
      event.queryStringParameters,
    ),
  }),
  { authorized: true },
);
