// Connects the gateway simulator to an MQTT broker: the local stack's broker over plain MQTT, or AWS
// IoT Core over mqtts with an X.509 client certificate. The client id is the agent id, which is how
// the message hub identifies the agent (spec, Authentication of GDM messages).
import { readFile } from 'node:fs/promises';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { UsageError } from '../args';

export interface ConnectionSettings {
  readonly url: string;
  readonly clientId: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  readonly caFile?: string;
  readonly connectTimeoutMs: number;
  /** Errors after the connection is up (the client reconnects by itself); must not throw. */
  readonly onError: (error: Error) => void;
}

/** AWS IoT Core's data endpoint speaks MQTT over TLS on port 8883. */
export function endpointUrl(host: string): string {
  return `mqtts://${host}:8883`;
}

async function readPem(option: string, file: string | undefined): Promise<Buffer | undefined> {
  if (file === undefined) return undefined;
  try {
    return await readFile(file);
  } catch (error) {
    throw new UsageError(`cannot read --${option} ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Resolves once the broker accepted the connection. A refused CONNACK (bad credentials, client id
 * not allowed) fails at once; network errors are retried until the timeout, since a broker that is
 * still starting is common in local use.
 * @throws Error naming the broker and the last error seen.
 */
export async function connectMqtt(settings: ConnectionSettings): Promise<MqttClient> {
  const [cert, key, ca] = await Promise.all([
    readPem('cert', settings.certFile),
    readPem('key', settings.keyFile),
    readPem('ca', settings.caFile),
  ]);
  const options: IClientOptions = {
    clientId: settings.clientId,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: settings.connectTimeoutMs,
    ...(cert !== undefined && { cert }),
    ...(key !== undefined && { key }),
    ...(ca !== undefined && { ca }),
  };
  const client = mqtt.connect(settings.url, options);
  return new Promise<MqttClient>((resolve, reject) => {
    let lastError: Error | undefined;
    const fail = (reason: string): void => {
      cleanup();
      client.end(true);
      reject(new Error(`cannot connect to ${settings.url} as ${settings.clientId}: ${reason}`));
    };
    const onConnect = (): void => {
      cleanup();
      client.on('error', settings.onError);
      resolve(client);
    };
    const onError = (error: Error & { code?: unknown }): void => {
      lastError = error;
      if (typeof error.code === 'number') fail(error.message);
    };
    const timer = setTimeout(
      () =>
        fail(
          `no connection within ${settings.connectTimeoutMs / 1000} s${lastError ? ` (last error: ${lastError.message})` : ''}`,
        ),
      settings.connectTimeoutMs,
    );
    const cleanup = (): void => {
      clearTimeout(timer);
      client.off('connect', onConnect);
      client.off('error', onError);
    };
    client.on('connect', onConnect);
    client.on('error', onError);
  });
}
