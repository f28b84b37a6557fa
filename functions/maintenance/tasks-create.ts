// POST /maintenance/v1/plants/{plantId}/tasks: creates a PENDING task; answers the write envelope.
import { maintenanceDeps } from '../../lib/wiring/maintenance';
import { callerOf } from '../../lib/auth/caller';
import { httpHandler } from '../../lib/http/chain';
import { successBody } from '../../lib/http/envelope';
import { headerOf, pathParam } from '../../lib/maintenance/request';
import { createTask } from '../../lib/maintenance/tasks';

export const handler = httpHandler(
  async (event) => {
    const plantId = pathParam(event, 'plantId');
    const created = await createTask(maintenanceDeps(), callerOf(event, { plantId }), plantId, event.jsonBody, headerOf(event, 'idempotency-key'));
    return { body: successBody([{ id: created.id }]), headers: { 'idempotent-replayed': String(created.replayed) } };
  },
  { jsonBody: true, maxBodyBytes: 64 * 1024, authorized: true },
);
