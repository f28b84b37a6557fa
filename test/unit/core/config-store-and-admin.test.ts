// Configuration of the store rules (defaults = the deployed stage parameters) and of the admin CLI.
import { describe, expect, it } from 'vitest';
import { adminConfig, parseConfig } from '../../../lib/core/config';
import { storeRulesOf } from '../../../lib/telemetry/store-rules';

const local = {
  MAIN_TABLE: 't',
  TELEMETRY_BACKEND: 'duckdb',
  DUCKDB_PATH: '/tmp/x.duckdb',
  LAKE_DIR: '/tmp/lake',
  DEAD_LETTER_DIR: '/tmp/dl',
  OAUTH_ISSUER: 'http://127.0.0.1:3000',
};

describe('store rule settings', () => {
  it('default to the deployed tables: 24 h memory store, magnetic writes on, 3650 days', () => {
    const cfg = parseConfig(local);
    expect([cfg.STORE_MEMORY_RETENTION_HOURS, cfg.STORE_MAGNETIC_RETENTION_DAYS, cfg.STORE_MAGNETIC_WRITES]).toEqual([
      24,
      3650,
      true,
    ]);
    const rules = storeRulesOf({
      memoryRetentionHours: cfg.STORE_MEMORY_RETENTION_HOURS,
      magneticRetentionDays: cfg.STORE_MAGNETIC_RETENTION_DAYS,
      magneticWrites: cfg.STORE_MAGNETIC_WRITES,
    });
    expect(rules).toEqual({ maxFutureMs: 900_000, maxAgeMs: 3650 * 86_400_000, maxRecordBytes: 2048 });
  });

  it('reads stage parameters, treats empty ones as unset and names a bad one', () => {
    const cfg = parseConfig({
      ...local,
      STORE_MEMORY_RETENTION_HOURS: '12',
      STORE_MAGNETIC_RETENTION_DAYS: '',
      STORE_MAGNETIC_WRITES: 'false',
    });
    expect([cfg.STORE_MEMORY_RETENTION_HOURS, cfg.STORE_MAGNETIC_RETENTION_DAYS, cfg.STORE_MAGNETIC_WRITES]).toEqual([
      12,
      3650,
      false,
    ]);
    expect(() => parseConfig({ ...local, STORE_MAGNETIC_WRITES: 'yes' })).toThrow(/STORE_MAGNETIC_WRITES/);
    expect(() => parseConfig({ ...local, STORE_MEMORY_RETENTION_HOURS: '0' })).toThrow(/STORE_MEMORY_RETENTION_HOURS/);
  });
});

describe('adminConfig', () => {
  it("reads the local stack's data folder (npm start's default) and the ports that are set, leaving the others undefined", () => {
    expect(adminConfig({})).toEqual({ INSIGHTS_DATA_DIR: '.data' });
    expect(
      adminConfig({
        INSIGHTS_DATA_DIR: '/srv/data',
        INSIGHTS_LAMBDA_PORT: '4002',
        INSIGHTS_HTTP_PORT: '4000',
        INSIGHTS_DYNAMODB_PORT: '9000',
        INSIGHTS_MQTT_PORT: '2883',
      }),
    ).toEqual({
      INSIGHTS_DATA_DIR: '/srv/data',
      INSIGHTS_LAMBDA_PORT: 4002,
      INSIGHTS_HTTP_PORT: 4000,
      INSIGHTS_DYNAMODB_PORT: 9000,
      INSIGHTS_MQTT_PORT: 2883,
    });
    expect(() => adminConfig({ INSIGHTS_LAMBDA_PORT: 'x' })).toThrow(/INSIGHTS_LAMBDA_PORT/);
    expect(() => adminConfig({ INSIGHTS_MQTT_PORT: '70000' })).toThrow(/INSIGHTS_MQTT_PORT/);
  });
});
