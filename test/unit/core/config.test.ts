import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../lib/core/config';

const local = {
  MAIN_TABLE: 't',
  TELEMETRY_BACKEND: 'duckdb',
  DUCKDB_PATH: '/tmp/x.duckdb',
  LAKE_DIR: '/tmp/lake',
  DEAD_LETTER_DIR: '/tmp/dl',
  OAUTH_ISSUER: 'http://127.0.0.1:3000',
};

describe('config', () => {
  it('applies defaults and keeps the backend-specific settings', () => {
    const cfg = parseConfig(local);
    expect(cfg.STAGE).toBe('local');
    expect(cfg.TELEMETRY_BACKEND).toBe('duckdb');
    expect(cfg.TELEMETRY_BACKEND === 'duckdb' && cfg.DUCKDB_PATH).toBe('/tmp/x.duckdb');
  });

  it('treats empty variables (unset stage parameters) as absent', () => {
    const cfg = parseConfig({ ...local, DYNAMODB_ENDPOINT: '', LOCAL_MQTT_URL: '' });
    expect(cfg.DYNAMODB_ENDPOINT).toBeUndefined();
    expect(cfg.LOCAL_MQTT_URL).toBeUndefined();
  });

  it('names the variable that is missing or malformed', () => {
    expect(() => parseConfig({ TELEMETRY_BACKEND: 'duckdb', DUCKDB_PATH: 'x' })).toThrow(/MAIN_TABLE/);
    expect(() => parseConfig({ ...local, DYNAMODB_ENDPOINT: 'not a url' })).toThrow(/DYNAMODB_ENDPOINT/);
    expect(() => parseConfig({ MAIN_TABLE: 't', TELEMETRY_BACKEND: 'timestream' })).toThrow(/TIMESTREAM_DATABASE/);
  });

  it('refuses an unknown telemetry backend', () => {
    expect(() => parseConfig({ ...local, TELEMETRY_BACKEND: 'influx' })).toThrow(/TELEMETRY_BACKEND/);
  });
});
