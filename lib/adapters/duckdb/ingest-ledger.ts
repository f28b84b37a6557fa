// IngestLedger in the embedded telemetry database (the local stack): a table beside States and
// Events, so that claiming and completing a batch costs two or three statements on the engine
// that stores the rows, rather than conditional writes to DynamoDB Local per message, which
// bounded the local ingest rate (bench/ingest.bench.ts compares both). Deployed, the ledger is
// DynamoDB (../dynamodb/ingest-ledger.ts); both follow the IngestLedger contract and share its
// tests.
//
// It lives in a database file of its own beside the telemetry file (ledgerFileBeside): its
// checkpoints and the vacuum of its hourly sweep never hold up the telemetry tables. The table is
// append-only, without a key index: a claim appends a 'pending' row, a completion a 'done' row
// (an index is written out whole at every checkpoint; updates add versions). Claims are made by
// one batch at a time (the local broker invokes the function serially), so no two claims race.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { DuckDBTimestampValue } from '@duckdb/node-api';
import type { ClaimStatus, IngestLedger, MessageKey } from '../../ingest/ports';
import path from 'node:path';
import { withConnection, type DatabaseSchema } from './database';

const TABLE = 'IngestLedger';
/** Entries are kept this long (as the DynamoDB ledger's TTL), then removed. */
const KEEP_MS = 7 * 86_400_000;
const SWEEP_EVERY_MS = 3_600_000;

const DDL = `CREATE TABLE IF NOT EXISTS "${TABLE}" ("AgentId" VARCHAR NOT NULL, "MessageId" VARCHAR NOT NULL, "Status" VARCHAR NOT NULL, "At" TIMESTAMP NOT NULL)`;

const LEDGER_SCHEMA: DatabaseSchema = { ddl: [DDL], vacuum: true };

/** The ledger's database file: ingest-ledger.duckdb in the telemetry file's folder. */
export function ledgerFileBeside(telemetryFile: string): string {
  return path.join(path.dirname(telemetryFile), 'ingest-ledger.duckdb');
}

const stamp = (at: Date) => new DuckDBTimestampValue(BigInt(at.getTime()) * 1000n);
const id = (k: MessageKey) => `${k.agentId}\u0000${k.messageId}`;

/** `(VALUES ($n, $n+1), ...) AS k(a, m)` numbered from `first`, and its parameters. */
function keyTable(keys: readonly MessageKey[], first = 1): { sql: string; values: DuckDBValue[] } {
  return {
    sql: `(VALUES ${keys.map((_, i) => `($${first + 2 * i}, $${first + 2 * i + 1})`).join(', ')}) AS k(a, m)`,
    values: keys.flatMap((k) => [k.agentId, k.messageId]),
  };
}

/**
 * Appends one row per key with the status and time, through DuckDB's appender: an appender's
 * commit goes ahead while a checkpoint runs, where an INSERT statement waits for it (measured:
 * completions stalled for as long as a 1.6 s checkpoint).
 */
async function append(
  c: DuckDBConnection,
  keys: readonly MessageKey[],
  status: 'pending' | 'done',
  at: Date,
): Promise<void> {
  const time = stamp(at);
  const appender = await c.createAppender(TABLE);
  try {
    for (const k of keys) {
      appender.appendVarchar(k.agentId);
      appender.appendVarchar(k.messageId);
      appender.appendVarchar(status);
      appender.appendTimestamp(time);
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

export function duckDbIngestLedger(file: string): IngestLedger {
  let sweptAt = 0;
  const run = <T>(work: (c: DuckDBConnection) => Promise<T>) => withConnection(file, work, LEDGER_SCHEMA);
  // Opened at once (a warm-up invocation of the ingest function builds its dependencies), so the
  // first batch does not pay for it.
  void run(async () => undefined).catch(() => undefined);
  const sweep = async (c: DuckDBConnection, now: Date): Promise<void> => {
    if (now.getTime() - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now.getTime();
    // Whole messages only: a message whose completion is older than the window goes with its claim.
    await c.run(
      `DELETE FROM "${TABLE}" WHERE "At" < $1 AND ("AgentId", "MessageId") IN (SELECT "AgentId", "MessageId" FROM "${TABLE}" WHERE "Status" = 'done' AND "At" < $1)`,
      [stamp(new Date(now.getTime() - KEEP_MS))],
    );
  };

  return {
    async claim(keys, now) {
      if (keys.length === 0) return [];
      return run(async (c) => {
        await sweep(c, now);
        const table = keyTable(keys);
        const found = await c.runAndReadAll(
          `SELECT k.a AS a, k.m AS m, bool_or(l."Status" = 'done') AS done FROM "${TABLE}" l JOIN ${table.sql} ON l."AgentId" = k.a AND l."MessageId" = k.m GROUP BY k.a, k.m`,
          table.values,
        );
        const status = new Map(
          found
            .getRowObjects()
            .map((r) => [`${String(r.a)}\u0000${String(r.m)}`, r.done === true ? 'done' : 'pending']),
        );
        const fresh = keys.filter((k) => !status.has(id(k)));
        if (fresh.length > 0) await append(c, fresh, 'pending', now);
        return keys.map((k): ClaimStatus => {
          const s = status.get(id(k));
          return s === 'done' ? 'done' : s === 'pending' ? 'retry' : 'new';
        });
      });
    },
    async complete(keys, now) {
      if (keys.length === 0) return;
      await run((c) => append(c, keys, 'done', now));
    },
  };
}
