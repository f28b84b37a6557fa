import { healthProbes } from '../../lib/wiring/health';
import { config } from '../../lib/core/config';
import { checkHealth, healthResponse } from '../../lib/health/health';
import { httpHandler } from '../../lib/http/chain';

export const handler = httpHandler(async () => healthResponse(await checkHealth(healthProbes(config()))));
