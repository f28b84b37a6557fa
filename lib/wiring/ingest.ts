// Builds the ingest core's dependencies from configuration: local files and DuckDB for
// `npm start`, S3, Firehose and Timestream when deployed. Built once per container.
import path from 'node:path';
import { config, type Config } from '../core/config';
import { logger } from '../core/logger';
import type { IngestDeps } from '../ingest/ingest';
import type { DataLake, DeadLetter, IngestLedger, TelemetryStore } from '../ingest/ports';
import { documentClient } from '../adapters/dynamodb/client';
import { dynamoDbIngestLedger } from '../adapters/dynamodb/ingest-ledger';
import { dynamoDbLiveness } from '../adapters/dynamodb/liveness';
import { registry } from '../adapters/dynamodb/registry';
import { withShortCache } from '../registry/short-cache';
import { storeRulesOf } from '../telemetry/store-rules';
import { once } from './once';
import { fileDataLake } from '../adapters/files/data-lake';
import { fileDeadLetter } from '../adapters/files/dead-letter';

/** AWS IoT Core refuses larger messages, so nothing larger can be a genuine GDM message. */
const MAX_PAYLOAD_BYTES = 128 * 1024;

async function telemetryStore(cfg: Config): Promise<TelemetryStore> {
  if (cfg.TELEMETRY_BACKEND === 'duckdb') {
    // Imported lazily: a deployed function never loads the native DuckDB module.
    const { duckDbTelemetryStore } = await import('../adapters/duckdb/telemetry-store');
    return duckDbTelemetryStore(cfg.DUCKDB_PATH, { log: (message) => logger.warn(message) });
  }
  const { timestreamTelemetryStore } = await import('../adapters/timestream/telemetry-store');
  return timestreamTelemetryStore({
    database: cfg.TIMESTREAM_DATABASE,
    statesTable: cfg.TIMESTREAM_STATES_TABLE,
    eventsTable: cfg.TIMESTREAM_EVENTS_TABLE,
  });
}

/** The ledger lives with the rows locally (DuckDB), in DynamoDB when deployed (docs/ingest.md). */
async function ingestLedger(cfg: Config): Promise<IngestLedger> {
  if (cfg.TELEMETRY_BACKEND === 'duckdb') {
    const { duckDbIngestLedger, ledgerFileBeside } = await import('../adapters/duckdb/ingest-ledger');
    return duckDbIngestLedger(ledgerFileBeside(cfg.DUCKDB_PATH));
  }
  return dynamoDbIngestLedger(documentClient(), cfg.MAIN_TABLE);
}

async function deadLetter(cfg: Config): Promise<DeadLetter> {
  if (cfg.DEAD_LETTER_DIR) return fileDeadLetter(path.resolve(cfg.DEAD_LETTER_DIR));
  if (!cfg.DEAD_LETTER_BUCKET) throw new Error('set DEAD_LETTER_DIR (local) or DEAD_LETTER_BUCKET (deployed)');
  const { s3DeadLetter } = await import('../adapters/s3/dead-letter');
  return s3DeadLetter(cfg.DEAD_LETTER_BUCKET);
}

async function dataLake(cfg: Config): Promise<DataLake> {
  if (cfg.LAKE_DIR) return fileDataLake(path.resolve(cfg.LAKE_DIR));
  if (!cfg.FIREHOSE_STREAM) throw new Error('set LAKE_DIR (local) or FIREHOSE_STREAM (deployed)');
  const { firehoseDataLake } = await import('../adapters/firehose/data-lake');
  return firehoseDataLake(cfg.FIREHOSE_STREAM);
}

export const ingestDeps: () => Promise<IngestDeps> = once(async () => {
  const cfg = config();
  const table = cfg.MAIN_TABLE;
  return {
    deadLetter: await deadLetter(cfg),
    store: await telemetryStore(cfg),
    lake: await dataLake(cfg),
    liveness: dynamoDbLiveness(documentClient(), table),
    ledger: await ingestLedger(cfg),
    // Agents and plants rarely change: a warm function rereads them every 30 s, not per message.
    directory: withShortCache(registry(), 30_000),
    ingestionId: cfg.INGESTION_ID,
    now: () => new Date(),
    maxPayloadBytes: MAX_PAYLOAD_BYTES,
    storeRules: storeRulesOf({
      memoryRetentionHours: cfg.STORE_MEMORY_RETENTION_HOURS,
      magneticRetentionDays: cfg.STORE_MAGNETIC_RETENTION_DAYS,
      magneticWrites: cfg.STORE_MAGNETIC_WRITES,
    }),
    log: (message, attributes) => logger.info(message, attributes),
  };
});
