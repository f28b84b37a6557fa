// Health probe of the local MQTT broker: a real MQTT CONNECT / CONNACK round trip.
import mqtt from 'mqtt';

export function pingMqtt(url: string, timeoutMs = 2000): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, {
      clientId: `health-${process.pid}-${Date.now()}`,
      connectTimeout: timeoutMs,
      reconnectPeriod: 0,
    });
    const done = (error?: Error) => {
      client.end(true);
      if (error) reject(error);
      else resolve();
    };
    client.once('connect', () => done());
    client.once('error', (error) => done(error));
    client.once('close', () => done(new Error(`no MQTT broker answered at ${url}`)));
  });
}
