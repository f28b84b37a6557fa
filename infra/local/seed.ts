// Run by `npm start` once the stack is healthy: seeds the demo tenant (once; later starts only
// report it) and prints how to obtain credentials. Ports and folders come from the start script.
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import { describeSeed, seedDemo } from '../../lib/registry/seed';

const env = process.env;
const { registry, close } = openRegistry({
  endpoint: `http://127.0.0.1:${env.INSIGHTS_DYNAMODB_PORT ?? '8000'}`,
  tableName: 'industrial-insights-local-main',
  region: 'eu-west-1',
});
try {
  const result = await seedDemo(registry, { now: new Date() });
  process.stdout.write(describeSeed(result, { apiUrl: `http://127.0.0.1:${env.INSIGHTS_HTTP_PORT ?? '3000'}`, resource: env.OAUTH_RESOURCE ?? 'api://industrial-insights' }));
} finally {
  close();
}
