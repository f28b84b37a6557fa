// GET /maintenance/v1/openapi.json: the OpenAPI 3.1 document of the maintenance API (public), with
// the address it was asked on as its server.
import { httpHandler } from '../../lib/http/chain';
import { maintenanceOpenApiFor, serverUrlOf } from '../../lib/maintenance/openapi';

export const handler = httpHandler(async (event) => ({
  body: maintenanceOpenApiFor(serverUrlOf(event.headers)),
  headers: { 'cache-control': 'public, max-age=300' },
}));
