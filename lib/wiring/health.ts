// Which components the running configuration depends on, and how to probe each.
import type { Config } from '../core/config';
import type { Probe } from '../health/health';
import { pingDynamoDb } from '../adapters/dynamodb/client';
import { pingMqtt } from '../adapters/mqtt-probe';

export function healthProbes(cfg: Config): Record<string, Probe> {
  const probes: Record<string, Probe> = { dynamodb: pingDynamoDb };
  if (cfg.TELEMETRY_BACKEND === 'duckdb') {
    const file = cfg.DUCKDB_PATH;
    // Imported lazily so that a Timestream deployment never loads the native DuckDB module.
    probes.telemetry = async () => (await import('../adapters/duckdb/database')).pingDuckDb(file);
  } else {
    probes.telemetry = async () =>
      (await import('../adapters/timestream/ping')).pingTimestream(
        cfg.TIMESTREAM_DATABASE,
        cfg.TIMESTREAM_STATES_TABLE,
      );
  }
  if (cfg.LOCAL_MQTT_URL) {
    const url = cfg.LOCAL_MQTT_URL;
    probes.broker = () => pingMqtt(url);
  }
  return probes;
}
