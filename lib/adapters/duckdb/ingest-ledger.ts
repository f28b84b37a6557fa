// IngestLedger in the embedded telemetry database (the local stack): a table beside States and
// Events, so that claiming and completing a batch costs two or three statements on the engine
// that stores the rows, rather than conditional writes to DynamoDB Local per message, which
// bounded the local ingest rate (docs/ingest.md). Deployed, the ledger is DynamoDB
// (../dynamodb/ingest-ledger.ts); both follow the IngestLedger contract and share its tests.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { DuckDBTimestampValue } from '@duckdb/node-api';
import type { ClaimStatus, IngestLedger, MessageKey } from '../../ingest/ports';
import { withConnection } from './database';

const TABLE = 'IngestLedger';
/** Completed claims are kept this long (as the DynamoDB ledger's TTL), then removed. */
const KEEP_MS = 7 * 86_400_000;
const SWEEP_EVERY_MS = 3_600_000;

const DDL = `CREATE TABLE IF NOT EXISTS "${TABLE}" ("AgentId" VARCHAR NOT NULL, "MessageId" VARCHAR NOT NULL, "Status" VARCHAR NOT NULL, "ClaimedAt" TIMESTAMP NOT NULL, "DoneAt" TIMESTAMP, PRIMARY KEY ("AgentId", "MessageId"))`;

const stamp = (at: Date) => new DuckDBTimestampValue(BigInt(at.getTime()) * 1000n);
const id = (k: MessageKey) => `${k.agentId}\u0000${k.messageId}`;

/** `(VALUES ($n, $n+1), ...) AS k(a, m)` numbered from `first`, and its parameters. */
function keyTable(keys: readonly MessageKey[], first = 1): { sql: string; values: DuckDBValue[] } {
  return { sql: `(VALUES ${keys.map((_, i) => `($${first + 2 * i}, $${first + 2 * i + 1})`).join(', ')}) AS k(a, m)`, values: keys.flatMap((k) => [k.agentId, k.messageId]) };
}

export function duckDbIngestLedger(file: string): IngestLedger {
  let ready: Promise<void> | undefined;
  let sweptAt = 0;
  const ensureTable = (): Promise<void> => {
    ready ??= withConnection(file, async (c) => void (await c.run(DDL)));
    ready.catch(() => (ready = undefined));
    return ready;
  };
  const sweep = async (c: DuckDBConnection, now: Date): Promise<void> => {
    if (now.getTime() - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now.getTime();
    await c.run(`DELETE FROM "${TABLE}" WHERE "DoneAt" < ?`, [stamp(new Date(now.getTime() - KEEP_MS))]);
  };

  return {
    async claim(keys, now) {
      if (keys.length === 0) return [];
      await ensureTable();
      return withConnection(file, async (c) => {
        await sweep(c, now);
        const table = keyTable(keys);
        const found = await c.runAndReadAll(`SELECT l."AgentId" AS a, l."MessageId" AS m, l."Status" AS s FROM "${TABLE}" l JOIN ${table.sql} ON l."AgentId" = k.a AND l."MessageId" = k.m`, table.values);
        const status = new Map(found.getRowObjects().map((r) => [`${String(r.a)}\u0000${String(r.m)}`, String(r.s)]));
        const fresh = keys.filter((k) => !status.has(id(k)));
        if (fresh.length > 0) {
          const values: DuckDBValue[] = fresh.flatMap((k) => [k.agentId, k.messageId, stamp(now)]);
          await c.run(`INSERT INTO "${TABLE}" ("AgentId", "MessageId", "Status", "ClaimedAt") VALUES ${fresh.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}, 'pending', $${3 * i + 3})`).join(', ')} ON CONFLICT DO NOTHING`, values);
        }
        return keys.map((k): ClaimStatus => {
          const s = status.get(id(k));
          return s === 'done' ? 'done' : s === 'pending' ? 'retry' : 'new';
        });
      });
    },
    async complete(keys, now) {
      if (keys.length === 0) return;
      await ensureTable();
      await withConnection(file, async (c) => {
        const table = keyTable(keys, 2);
        await c.run(`UPDATE "${TABLE}" SET "Status" = 'done', "DoneAt" = $1 FROM ${table.sql} WHERE "${TABLE}"."AgentId" = k.a AND "${TABLE}"."MessageId" = k.m`, [stamp(now), ...table.values]);
      });
    },
  };
}
