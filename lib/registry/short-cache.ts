// A per-container read-through cache for the registry reads made on every request or message:
// the client behind a JWT and its customer's plants (authorizers), an agent and a plant (ingest).
// Entries live `ttlMs`; a change reaches a warm function within that time. Maintenance tokens are
// never cached, so a revoked token is refused on its next request.
import type { Registry } from './ports';

type CachedRead = 'getClient' | 'listPlants' | 'getAgent' | 'getPlant';

export function withShortCache(
  registry: Registry,
  ttlMs: number,
  now: () => number = Date.now,
  reads: readonly CachedRead[] = ['getClient', 'listPlants', 'getAgent', 'getPlant'],
): Registry {
  const entries = new Map<string, { expires: number; value: Promise<unknown> }>();
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = entries.get(key);
    if (hit && hit.expires > now()) return hit.value as Promise<T>;
    const value = load();
    entries.set(key, { expires: now() + ttlMs, value });
    // Only what exists is kept: a missing agent registered a moment later is seen at once.
    value.then(
      (found) => found === undefined && entries.delete(key),
      () => entries.delete(key),
    );
    return value;
  };
  const overrides: Partial<Pick<Registry, CachedRead>> = {
    getClient: (clientId: string) => cached(`client:${clientId}`, () => registry.getClient(clientId)),
    listPlants: (customerId: string) => cached(`plants:${customerId}`, () => registry.listPlants(customerId)),
    getAgent: (agentId: string) => cached(`agent:${agentId}`, () => registry.getAgent(agentId)),
    getPlant: (plantId: string) => cached(`plant:${plantId}`, () => registry.getPlant(plantId)),
  };
  return Object.assign(
    Object.create(registry) as Registry,
    Object.fromEntries(reads.map((name) => [name, overrides[name]])),
  );
}
