import { describe, expect, it } from 'vitest';
import type { Registry } from '../../../lib/registry/ports';
import { withShortCache } from '../../../lib/registry/short-cache';

function counting() {
  const calls: string[] = [];
  const registry = {
    getClient: async (id: string) => (calls.push(`client:${id}`), { clientId: id, customerId: 'c' }),
    listPlants: async (customerId: string) => (calls.push(`plants:${customerId}`), []),
    getMaintenanceToken: async (id: string) => (calls.push(`token:${id}`), undefined),
  } as unknown as Registry;
  return { registry, calls };
}

describe('withShortCache', () => {
  it('reads a client and a plant list once within the time to live, again after it', async () => {
    const { registry, calls } = counting();
    let now = 0;
    const cached = withShortCache(registry, 1000, () => now);
    await cached.getClient('a');
    await cached.getClient('a');
    await cached.listPlants('c');
    await cached.listPlants('c');
    expect(calls).toEqual(['client:a', 'plants:c']);
    now = 1001;
    await cached.getClient('a');
    expect(calls).toEqual(['client:a', 'plants:c', 'client:a']);
  });

  it('caches agent and plant lookups for the ingest path too', async () => {
    const calls: string[] = [];
    const registry = {
      getAgent: async (id: string) => (calls.push(`agent:${id}`), { agentId: id, customerId: 'c' }),
      getPlant: async (id: string) => (calls.push(`plant:${id}`), { plantId: id, customerId: 'c' }),
    } as unknown as Registry;
    const cached = withShortCache(registry, 1000, () => 0);
    await cached.getAgent('a');
    await cached.getAgent('a');
    await cached.getPlant('p');
    await cached.getPlant('p');
    expect(calls).toEqual(['agent:a', 'plant:p']);
  });

  it('never caches maintenance tokens, so a revocation applies at once', async () => {
    const { registry, calls } = counting();
    const cached = withShortCache(registry, 60_000);
    await cached.getMaintenanceToken('t');
    await cached.getMaintenanceToken('t');
    expect(calls).toEqual(['token:t', 'token:t']);
  });

  it('does not remember that something was missing', async () => {
    let agent: unknown = undefined;
    const registry = { getAgent: async () => agent } as unknown as Registry;
    const cached = withShortCache(registry, 60_000);
    expect(await cached.getAgent('a')).toBeUndefined();
    agent = { agentId: 'a', customerId: 'c' };
    expect(await cached.getAgent('a')).toEqual(agent);
  });

  it('forgets a failed read', async () => {
    let fail = true;
    const registry = {
      getClient: async () => (fail ? Promise.reject(new Error('down')) : { clientId: 'a' }),
    } as unknown as Registry;
    const cached = withShortCache(registry, 60_000);
    await expect(cached.getClient('a')).rejects.toThrow('down');
    fail = false;
    await expect(cached.getClient('a')).resolves.toEqual({ clientId: 'a' });
  });
});
