import { healthProbes } from '../../lib/adapters/health-probes';
import { config } from '../../lib/core/config';
import { checkHealth } from '../../lib/health/health';
import { httpHandler } from '../../lib/http/chain';

export const handler = httpHandler(async () => {
  const report = await checkHealth(healthProbes(config()));
  return { status: report.status === 'up' ? 200 : 503, body: report, headers: { 'cache-control': 'no-store' } };
});
