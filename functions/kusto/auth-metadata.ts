// GET /v1/rest/auth/metadata: Kusto's cloud information, without authentication (the SDKs read it first).
import { kustoHandler } from '../../lib/kusto/chain';
import { kustoCloudInfo } from '../../lib/wiring/kusto';

export const handler = kustoHandler(async () => ({ json: JSON.stringify(kustoCloudInfo()) }));
