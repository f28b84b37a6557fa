// Helpers for tests and benchmarks against a running offline stack: the demo tenant, an access
// token for the query API, and telemetry queries.
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import { createCustomer, createLocalClient, createPlant } from '../../lib/registry/admin';
import { seedDemo, type SeedResult } from '../../lib/registry/seed';
import type { OfflineStack } from './offline-stack';

export const RESOURCE = 'api://industrial-insights';

export interface DemoAccess {
  readonly demo: SeedResult;
  readonly accessToken: string;
}

/** Seeds the demo tenant into the stack's DynamoDB and gets a query access token for its client. */
export async function demoAccess(stack: OfflineStack): Promise<DemoAccess> {
  const { registry, close } = openRegistry({
    endpoint: `http://127.0.0.1:${stack.ports.dynamodb}`,
    tableName: 'industrial-insights-local-main',
    region: 'eu-west-1',
  });
  try {
    const demo = await seedDemo(registry, { now: new Date() });
    if (!demo.clientSecret) throw new Error('the demo tenant was seeded before; start from a fresh stack');
    return { demo, accessToken: await clientToken(stack, demo.clientId, demo.clientSecret) };
  } finally {
    close();
  }
}

/**
 * A query access token from the stack's token endpoint. A 503 (the registry could not be read, as a
 * throttled DynamoDB Local under load answers) is retried after its Retry-After, as a client
 * would, up to 5 times. @throws when the endpoint refuses.
 */
export async function clientToken(stack: OfflineStack, clientId: string, clientSecret: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${stack.httpUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: `${RESOURCE}/.default`,
      }).toString(),
    });
    if (response.status === 503 && attempt < 5) {
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    if (response.status !== 200)
      throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { access_token: string }).access_token;
  }
}

export interface TenantAccess {
  readonly customerId: string;
  readonly plantId: string;
  readonly clientId: string;
  readonly accessToken: string;
}

/**
 * A customer of its own (one plant, one query client of every plant) and its access token: what a
 * test file on a shared stack uses instead of the demo tenant. @throws CONFLICT when the id is taken.
 */
export async function tenantAccess(stack: OfflineStack, customerId: string): Promise<TenantAccess> {
  const { registry, close } = openRegistry({
    endpoint: `http://127.0.0.1:${stack.ports.dynamodb}`,
    tableName: 'industrial-insights-local-main',
    region: 'eu-west-1',
  });
  try {
    const now = new Date();
    await createCustomer(registry, { customerId, now });
    const plantId = `${customerId}-plant-1`;
    await createPlant(registry, { customerId, plantId, now });
    const { client, clientSecret } = await createLocalClient(registry, { customerId, now });
    return {
      customerId,
      plantId,
      clientId: client.clientId,
      accessToken: await clientToken(stack, client.clientId, clientSecret),
    };
  } finally {
    close();
  }
}

export interface QueryAnswer {
  readonly status: number;
  readonly body: {
    data?: { columns: { name: string; columnType: string; dataType: string }[]; rows: unknown[][] };
    meta?: Record<string, unknown>;
    code?: string;
    message?: string;
  };
}

export async function query(
  stack: OfflineStack,
  accessToken: string,
  text: string,
  window: { startTime: string; endTime: string },
  extra: Record<string, unknown> = {},
): Promise<QueryAnswer> {
  const response = await fetch(`${stack.httpUrl}/insights/v1/telemetry/query/table`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ query: text, ...window, ...extra }),
  });
  return { status: response.status, body: (await response.json()) as QueryAnswer['body'] };
}

/** A window of +-1 day around now, in the API's format (UTC with milliseconds). */
export function windowAroundNow(now = Date.now()): { startTime: string; endTime: string } {
  return { startTime: new Date(now - 86_400_000).toISOString(), endTime: new Date(now + 86_400_000).toISOString() };
}
