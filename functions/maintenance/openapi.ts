// GET /maintenance/v1/openapi.json: the OpenAPI 3.1 document of the maintenance API (public).
import { httpHandler } from '../../lib/http/chain';
import { maintenanceOpenApi } from '../../lib/maintenance/openapi';

const document = maintenanceOpenApi();

export const handler = httpHandler(async () => ({ body: document, headers: { 'cache-control': 'public, max-age=300' } }));
