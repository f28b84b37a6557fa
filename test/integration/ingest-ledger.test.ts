// The IngestLedger contract, on both engines that implement it: DynamoDB (deployed; DynamoDB
// Local here) and the embedded telemetry database (the local stack's DuckDB). Batches larger
// than DynamoDB's per-request limits (100 reads, 100 transaction items, 25 batch writes).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTelemetryDatabase } from '../../lib/adapters/duckdb/database';
import { duckDbIngestLedger } from '../../lib/adapters/duckdb/ingest-ledger';
import { dynamoDbIngestLedger } from '../../lib/adapters/dynamodb/ingest-ledger';
import type { IngestLedger, MessageKey } from '../../lib/ingest/ports';
import type { DynamoDbLocal } from '../support/dynamodb-local';
import { sharedDynamoDb } from '../support/shared-dynamodb';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const keys = (n: number, agentId = randomUUID()): MessageKey[] =>
  Array.from({ length: n }, () => ({ agentId, messageId: randomUUID() }));

let db: DynamoDbLocal;
let dir: string;
beforeAll(async () => {
  db = await sharedDynamoDb('ledger-main');
  dir = await mkdtemp(path.join(tmpdir(), 'ledger-'));
});
afterAll(async () => {
  await db?.stop();
  await closeTelemetryDatabase(path.join(dir, 'telemetry.duckdb'));
  await rm(dir, { recursive: true, force: true });
});

const engines: Array<[string, () => IngestLedger]> = [
  ['DynamoDB', () => dynamoDbIngestLedger(DynamoDBDocumentClient.from(db.client), db.tableName)],
  ['DuckDB', () => duckDbIngestLedger(path.join(dir, 'telemetry.duckdb'))],
];

describe.each(engines)('ingest ledger on %s', (_name, make) => {
  it('answers new, then retry while unfinished, then done once completed', async () => {
    const ledger = make();
    const batch = keys(3);
    expect(await ledger.claim(batch, NOW)).toEqual(['new', 'new', 'new']);
    expect(await ledger.claim(batch, NOW)).toEqual(['retry', 'retry', 'retry']);
    await ledger.complete(batch.slice(0, 2), NOW);
    expect(await ledger.claim(batch, NOW)).toEqual(['done', 'done', 'retry']);
    await ledger.complete(batch, NOW);
    await ledger.complete(batch, NOW); // completing again changes nothing
    expect(await ledger.claim(batch, NOW)).toEqual(['done', 'done', 'done']);
  });

  it('keeps the order of a mixed batch larger than one request', async () => {
    const ledger = make();
    const done = keys(130);
    const pending = keys(40);
    await ledger.claim([...done, ...pending], NOW);
    await ledger.complete(done, NOW);
    const fresh = keys(80);
    const mixed = [...fresh.slice(0, 40), ...done, ...pending, ...fresh.slice(40)];
    const answer = await ledger.claim(mixed, NOW);
    expect(answer).toEqual([
      ...Array(40).fill('new'),
      ...Array(130).fill('done'),
      ...Array(40).fill('retry'),
      ...Array(40).fill('new'),
    ]);
  });

  it('tells the same message id of two agents apart, and accepts an empty batch', async () => {
    const ledger = make();
    const messageId = randomUUID();
    const a = { agentId: randomUUID(), messageId };
    const b = { agentId: randomUUID(), messageId };
    await ledger.claim([a], NOW);
    await ledger.complete([a], NOW);
    expect(await ledger.claim([a, b], NOW)).toEqual(['done', 'new']);
    expect(await ledger.claim([], NOW)).toEqual([]);
    await ledger.complete([], NOW);
  });
});
