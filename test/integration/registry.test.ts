// The registry on DynamoDB Local (the real engine): conditional creates, single-GetItem lookups,
// listings by Query, the one-time link, parts scopes; and the admin CLI on the same table.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import { createAgent, createCustomer, createPlant } from '../../lib/registry/admin';
import { runAdmin } from '../../lib/cli/admin/main';
import type { Registry } from '../../lib/registry/ports';
import { seedDemo } from '../../lib/registry/seed';
import { checkMaintenanceToken, issueMaintenanceToken, redeemTokenLink } from '../../lib/registry/tokens';
import type { DynamoDbLocal } from '../support/dynamodb-local';
import { sharedDynamoDb } from '../support/shared-dynamodb';

const NOW = new Date('2026-03-01T12:00:00.000Z');

describe('registry on DynamoDB Local', () => {
  let db: DynamoDbLocal;
  let registry: Registry;
  let close: () => void;
  let dir: string;

  async function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runAdmin([...args, '--dynamodb-endpoint', db.endpoint, '--table', db.tableName], {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
    });
    return { code, out, err };
  }

  beforeAll(async () => {
    db = await sharedDynamoDb('registry-main');
    ({ registry, close } = openRegistry({ endpoint: db.endpoint, tableName: db.tableName, region: 'eu-west-1' }));
    dir = await mkdtemp(path.join(tmpdir(), 'registry-cli-'));
    await createCustomer(registry, { customerId: 'acme', now: NOW });
    await createPlant(registry, { customerId: 'acme', plantId: 'acme-1', now: NOW });
  });
  afterAll(async () => {
    close?.();
    await db?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates each id once and refuses children of unknown customers', async () => {
    await expect(createCustomer(registry, { customerId: 'acme', now: NOW })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(createPlant(registry, { customerId: 'acme', plantId: 'acme-1', now: NOW })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(createPlant(registry, { customerId: 'nobody', plantId: 'x-1', now: NOW })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(createPlant(registry, { customerId: 'acme', plantId: 'bad#id', now: NOW })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('finds agents and plants by id and lists them per customer', async () => {
    const agent = await createAgent(registry, { customerId: 'acme', now: NOW });
    expect(await registry.getAgent(agent.agentId)).toEqual(agent);
    expect(await registry.getPlant('acme-1')).toMatchObject({ plantId: 'acme-1', customerId: 'acme' });
    expect(await registry.getAgent('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect((await registry.listAgents('acme')).map((a) => a.agentId)).toEqual([agent.agentId]);
    expect((await registry.listPlants('acme')).map((p) => p.plantId)).toEqual(['acme-1']);
  });

  it('hands a token out once through its link; a revoked token checks as revoked', async () => {
    const issued = await issueMaintenanceToken(registry, { plantId: 'acme-1', now: NOW });
    const { accessToken } = await redeemTokenLink(registry, issued.linkId, NOW);
    await expect(redeemTokenLink(registry, issued.linkId, NOW)).rejects.toMatchObject({ code: 'GONE' });
    expect((await checkMaintenanceToken(registry, accessToken, NOW)).outcome).toBe('valid');
    await registry.revokeMaintenanceToken(issued.token.tokenId, NOW.toISOString());
    expect((await checkMaintenanceToken(registry, accessToken, NOW)).outcome).toBe('revoked');
    await expect(registry.revokeMaintenanceToken('0123456789abcdef', NOW.toISOString())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('finds a plant part before the company-wide part of the same number', async () => {
    await registry.putParts([
      { customerId: 'acme', plantId: null, partNumber: 'P-1', description: 'company' },
      { customerId: 'acme', plantId: 'acme-1', partNumber: 'P-1', description: 'plant' },
      { customerId: 'acme', plantId: null, partNumber: 'P-2', description: 'company only' },
    ]);
    expect(await registry.findPart('acme', 'acme-1', 'P-1')).toMatchObject({ description: 'plant' });
    expect(await registry.findPart('acme', 'acme-1', 'P-2')).toMatchObject({ description: 'company only' });
    expect(await registry.findPart('acme', 'acme-1', 'P-3')).toBeUndefined();
  });

  it('seeds the demo once', async () => {
    const first = await seedDemo(registry, { now: NOW });
    const second = await seedDemo(registry, { now: NOW });
    expect(first.created).toBe(true);
    expect(second).toMatchObject({ created: false, clientId: first.clientId });
    expect(await registry.listLookupLists('demo')).toHaveLength(4);
  });

  it('CLI: creates a customer, plant and client, and issues a token link', async () => {
    expect((await admin('customers', 'create', '--customer', 'globex', '--json')).code).toBe(0);
    expect((await admin('plants', 'create', '--customer', 'globex', '--plant', 'globex-1')).out).toContain(
      'plant globex-1 of globex created',
    );
    const client = JSON.parse(
      (await admin('clients', 'create', '--customer', 'globex', '--plants', 'globex-1', '--json')).out,
    );
    expect(client).toMatchObject({
      client_id: expect.stringMatching(/^[a-z0-9]{26}$/),
      client_secret: expect.any(String),
      plantIds: ['globex-1'],
    });
    const listed = await admin('clients', 'list', '--customer', 'globex', '--json');
    expect(listed.out).not.toContain(client.client_secret);
    expect(listed.out).not.toContain('scrypt');
    const token = JSON.parse((await admin('tokens', 'issue', '--plant', 'globex-1', '--expires', '30d', '--json')).out);
    expect(token.link).toMatch(/^http:\/\/127\.0\.0\.1:3000\/maintenance\/v1\/token-links\/[A-Za-z0-9_-]{32}$/);
    expect((await admin('plants', 'create', '--customer', 'nobody', '--plant', 'x')).code).toBe(1);
    expect((await admin('plants', 'create', '--customer', 'globex')).code).toBe(2);
  });

  it('CLI import: reports bad rows by line and writes nothing, then imports once however often it runs', async () => {
    const bad = path.join(dir, 'parts-bad.csv');
    await writeFile(
      bad,
      'partNumber,description,unit\nB-1,Bearing,PIECE\n,No number,PIECE\nB-3,"Oil, hydraulic",GALLONS\n',
    );
    const refused = await admin('import', 'parts', '--plant', 'globex-1', bad);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('line 3: partNumber');
    expect(refused.out).toContain('line 4: unit');
    expect(await registry.listParts('globex', 'globex-1')).toEqual([]);

    const skipped = await admin('import', 'parts', '--plant', 'globex-1', '--skip-invalid', bad, '--json');
    expect(JSON.parse(skipped.out)).toMatchObject({ written: 1, skipped: 2 });

    const good = path.join(dir, 'parts.json');
    await writeFile(
      good,
      JSON.stringify(
        [
          { partNumber: 'B-1', description: 'Bearing', unit: 'piece' },
          { partNumber: 'B-2', description: 'Belt' },
        ],
        null,
        2,
      ),
    );
    expect((await admin('import', 'parts', '--plant', 'globex-1', good)).code).toBe(0);
    expect((await admin('import', 'parts', '--plant', 'globex-1', good)).code).toBe(0);
    expect((await registry.listParts('globex', 'globex-1')).map((p) => p.partNumber)).toEqual(['B-1', 'B-2']);
    // A parts file is not a tasks file: refused by line, nothing written.
    expect((await admin('import', 'tasks', '--plant', 'globex-1', good)).code).toBe(1);
  });
});
