// POST /maintenance/v1/plants/{plantId}/tasks: creates a PENDING task; answers the write envelope.
import { maintenanceDeps } from '../../lib/wiring/maintenance';
import { httpHandler } from '../../lib/http/chain';
import { successBody } from '../../lib/http/envelope';
import { pathParam } from '../../lib/http/request';
import { createTask } from '../../lib/maintenance/tasks';

export const handler = httpHandler(
  async (event) => {
    const created = await createTask(
      maintenanceDeps(),
      event.caller,
      pathParam(event, 'plantId'),
      event.jsonBody,
      event.headers['idempotency-key'],
    );
    return { body: successBody([{ id: created.id }]), headers: { 'idempotent-replayed': String(created.replayed) } };
  },
  { jsonBody: true, maxBodyBytes: 64 * 1024, authorized: true },
);
