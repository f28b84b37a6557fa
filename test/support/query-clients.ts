// More query clients of one customer on a running offline stack, each with its own access token:
// tests and benchmarks that need several clients at once (fair share, isolation between clients).
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import { createLocalClient } from '../../lib/registry/admin';
import type { OfflineStack } from './offline-stack';
import { clientToken } from './stack-client';

export interface QueryClientAccess {
  readonly clientId: string;
  readonly accessToken: string;
}

/** Creates `count` clients of `customerId` (every plant) and gets a token for each from the stack. */
export async function extraQueryClients(
  stack: OfflineStack,
  customerId: string,
  count: number,
): Promise<QueryClientAccess[]> {
  const { registry, close } = openRegistry({
    endpoint: `http://127.0.0.1:${stack.ports.dynamodb}`,
    tableName: 'industrial-insights-local-main',
    region: 'eu-west-1',
  });
  try {
    const clients: QueryClientAccess[] = [];
    for (let i = 0; i < count; i++) {
      const { client, clientSecret } = await createLocalClient(registry, {
        customerId,
        name: `extra client ${i + 1}`,
        now: new Date(),
      });
      const accessToken = await clientToken(stack, client.clientId, clientSecret);
      clients.push({ clientId: client.clientId, accessToken });
    }
    return clients;
  } finally {
    close();
  }
}
