// A per-container read-through cache for the registry reads every authorized request makes
// (the client behind a JWT, its customer's plants). Entries live `ttlMs`; a changed client or
// plant list reaches a warm authorizer within that time. Maintenance tokens are never cached, so
// a revoked token is refused on its next request.
import type { Registry } from './ports';

export function withShortCache(registry: Registry, ttlMs: number, now: () => number = Date.now): Registry {
  const entries = new Map<string, { expires: number; value: Promise<unknown> }>();
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = entries.get(key);
    if (hit && hit.expires > now()) return hit.value as Promise<T>;
    const value = load();
    entries.set(key, { expires: now() + ttlMs, value });
    value.catch(() => entries.delete(key));
    return value;
  };
  return Object.assign(Object.create(registry) as Registry, {
    getClient: (clientId: string) => cached(`client:${clientId}`, () => registry.getClient(clientId)),
    listPlants: (customerId: string) => cached(`plants:${customerId}`, () => registry.listPlants(customerId)),
  });
}
