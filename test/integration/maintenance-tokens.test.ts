// Maintenance tokens: stored only as hashes, handed out once through a link, then 410.
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoDbRegistry } from '../../lib/adapters/dynamodb/registry';
import type { Registry } from '../../lib/registry/ports';
import type { DynamoDbLocal } from '../support/dynamodb-local';
import { sharedDynamoDb } from '../support/shared-dynamodb';
import {
  checkMaintenanceToken,
  issueMaintenanceToken,
  parseLifetime,
  redeemTokenLink,
} from '../../lib/registry/tokens';
import { hashClientSecret, sealToken, unsealToken, verifyClientSecret } from '../../lib/registry/secrets';
import { createCustomer, createPlant } from '../../lib/registry/admin';

const NOW = new Date('2026-03-01T12:00:00.000Z');

describe('maintenance tokens', () => {
  let db: DynamoDbLocal;
  let registry: Registry;
  beforeAll(async () => {
    db = await sharedDynamoDb('tokens-main');
    registry = dynamoDbRegistry(DynamoDBDocumentClient.from(db.client), db.tableName);
    await createCustomer(registry, { customerId: 'c1', now: NOW });
    await createPlant(registry, { customerId: 'c1', plantId: 'pA', now: NOW });
  });
  afterAll(async () => db?.stop());

  it('stores neither the token nor the link id in clear', async () => {
    const issued = await issueMaintenanceToken(registry, { plantId: 'pA', now: NOW });
    const stored = JSON.stringify((await db.client.send(new ScanCommand({ TableName: db.tableName }))).Items);
    const { accessToken } = await redeemTokenLink(registry, issued.linkId, NOW);
    expect(stored).not.toContain(accessToken);
    expect(stored).not.toContain(issued.linkId);
    expect(accessToken).toMatch(/^mnt_[0-9a-f]{16}_/);
  });

  it('hands the token out once; the second call gets 410 GONE, an unknown link 404', async () => {
    const issued = await issueMaintenanceToken(registry, { plantId: 'pA', now: NOW });
    const first = await redeemTokenLink(registry, issued.linkId, NOW);
    expect((await checkMaintenanceToken(registry, first.accessToken, NOW)).outcome).toBe('valid');
    await expect(redeemTokenLink(registry, issued.linkId, NOW)).rejects.toMatchObject({ code: 'GONE', status: 410 });
    await expect(redeemTokenLink(registry, 'A'.repeat(32), NOW)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers 410 for a link past its seven days', async () => {
    const issued = await issueMaintenanceToken(registry, { plantId: 'pA', now: NOW });
    await expect(
      redeemTokenLink(registry, issued.linkId, new Date(NOW.getTime() + 8 * 86_400_000)),
    ).rejects.toMatchObject({ code: 'GONE' });
  });

  it('refuses to issue for an unknown plant and parses lifetimes', async () => {
    await expect(issueMaintenanceToken(registry, { plantId: 'nope', now: NOW })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(parseLifetime('90d')).toBe(90 * 86_400_000);
    expect(parseLifetime('12h')).toBe(12 * 3_600_000);
    expect(() => parseLifetime('soon')).toThrow(/90d/);
  });
});

describe('secrets', () => {
  it('verifies a client secret against its scrypt hash only', async () => {
    const hash = await hashClientSecret('s3cret');
    expect(hash.startsWith('scrypt$16384$8$1$')).toBe(true);
    expect(await verifyClientSecret('s3cret', hash)).toBe(true);
    expect(await verifyClientSecret('s3cret!', hash)).toBe(false);
  });

  it('unseals a link only with its own id', () => {
    const sealed = sealToken('mnt_x', 'link-one-aaaaaaaaaaaa');
    expect(unsealToken(sealed, 'link-one-aaaaaaaaaaaa')).toBe('mnt_x');
    expect(() => unsealToken(sealed, 'link-two-aaaaaaaaaaaa')).toThrow();
  });
});
