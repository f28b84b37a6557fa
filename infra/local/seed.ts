// Run by `npm start` once the stack is healthy: seeds the demo tenant and its maintenance records
// (once; later starts only report them) and prints how to obtain credentials. Ports and folders
// come from the start script.
import { openMaintenance } from '../../lib/adapters/dynamodb/maintenance';
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import { seedMaintenanceDemo } from '../../lib/maintenance/demo';
import { DEMO, describeSeed, ensureSimulatorAgent, seedDemo } from '../../lib/registry/seed';

const env = process.env;
const connection = {
  endpoint: `http://127.0.0.1:${env.INSIGHTS_DYNAMODB_PORT ?? '8000'}`,
  tableName: 'industrial-insights-local-main',
  region: 'eu-west-1',
};
const { registry, close } = openRegistry(connection);
const maintenance = openMaintenance(connection);
try {
  const result = await seedDemo(registry, { now: new Date() });
  await ensureSimulatorAgent(registry, { now: new Date() });
  const counts = await seedMaintenanceDemo(maintenance.repository, { plantId: DEMO.plantIds[0], now: new Date() });
  process.stdout.write(
    describeSeed(result, {
      apiUrl: `http://127.0.0.1:${env.INSIGHTS_HTTP_PORT ?? '3000'}`,
      resource: env.OAUTH_RESOURCE ?? 'api://industrial-insights',
    }),
  );
  process.stdout.write(
    `  Maintenance demo records in ${DEMO.plantIds[0]}: ${Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}\n`,
  );
} finally {
  close();
  maintenance.close();
}
