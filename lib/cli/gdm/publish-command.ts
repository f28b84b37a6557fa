// gdm publish: the gateway simulator. Base messages from a file or generated, enriched to edge at
// send time, published with QoS 1 on gdm/<agentId>/messages with client id = agentId.
import { randomUUID } from 'node:crypto';
import { toEdge } from '../../gdm/enrich';
import { validateMessage } from '../../gdm/validate';
import { DEVICE_ID_PATTERN, MESSAGE_KINDS, UUID_PATTERN } from '../../gdm/rules';
import { createMessageGenerator } from '../../gdm/simulator';
import type { BaseMessage, EdgeMessage } from '../../gdm/types';
import {
  durationMs,
  EXIT_FAILURE,
  EXIT_OK,
  listOf,
  parseCommandArgs,
  positiveInteger,
  positiveNumber,
  UsageError,
} from '../args';
import { parseInput, readInput, type CliIo } from './io';
import { localStack } from '../local-stack';
import { connectMqtt, endpointUrl } from './mqtt-connection';
import { createProgress } from '../progress';
import { describeCounts, shareDone, type PublishCounts, type PublishLimits } from './publish-counts';
import { publishMessages } from './publisher';

export const PUBLISH_HELP = `Usage: gdm publish --agent-id UUID [--generate [generator options] | FILE|-] [options]

Gateway simulator: enriches base messages to edge (agentTimestamp at send time) and
publishes them with QoS 1 on gdm/<agentId>/messages, MQTT client id = agentId.

Source (one of):
  FILE|-             base messages: one, a JSON array, or NDJSON. Each is sent once,
                     in order; with a larger --count or a --duration the file repeats
                     with fresh messageIds.
  --generate         generate valid messages, round-robin over devices and types:
    --devices N      simulated devices device-001... (default 1)
    --items M        data items per message (default 5; keep-alive has 1)
    --values K       value items per data item (default 1)
    --types LIST     comma list of state,alarm,event,keep-alive (default state)
    --plant-id ID    put metadata.plantId into every message

Broker:
  --broker URL       MQTT broker (default: the local stack's, port INSIGHTS_MQTT_PORT or the
                     running npm start's, else mqtt://127.0.0.1:1883)
  --endpoint HOST    AWS IoT Core data endpoint: mqtts://HOST:8883 with
  --cert FILE --key FILE [--ca FILE]   the thing's X.509 certificate and key
  --agent-id UUID    agent id, a lowercase UUID: MQTT client id and topic (required)
  --connect-timeout D  give up connecting after D (default 10s)

Pace and length:
  --rate N           messages per second (default 1; decimals allowed)
  --count N          stop after N messages
  --duration D       stop after D, e.g. 30, 30s, 5m, 1h (with --count: whichever first)
  --ack-timeout D    wait this long for outstanding acknowledgements (default 10s)
  --device-id ID     deviceId for file messages that have none

Without --count or --duration, generated messages flow until Ctrl-C.
Progress goes to stderr; the summary "published N, acknowledged N, failed N" to stdout.
Exit status: 0 all acknowledged, 1 any failed or connection failure, 2 usage error.

Examples:
  gdm publish --agent-id 6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b --generate --devices 3 \\
    --types state,alarm,keep-alive --plant-id plant-1 --rate 5 --duration 1m
  gdm publish --agent-id 6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b --endpoint abc-ats.iot.eu-west-1.amazonaws.com \\
    --cert agent.pem.crt --key agent.pem.key --count 10 base-messages.ndjson
`;

const OPTIONS = {
  'agent-id': { type: 'string' },
  broker: { type: 'string' },
  endpoint: { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  ca: { type: 'string' },
  generate: { type: 'boolean', default: false },
  devices: { type: 'string' },
  items: { type: 'string' },
  values: { type: 'string' },
  types: { type: 'string' },
  'plant-id': { type: 'string' },
  'device-id': { type: 'string' },
  rate: { type: 'string' },
  count: { type: 'string' },
  duration: { type: 'string' },
  'ack-timeout': { type: 'string' },
  'connect-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Off a terminal (a CI job, a service manager), one progress line every 5 s keeps the log short. */
const PLAIN_PROGRESS_EVERY_MS = 5000;

type Source = { readonly next: (now: Date) => EdgeMessage | undefined; readonly size?: number };

function generatedSource(values: Readonly<Record<string, string | boolean | undefined>>, rate: number): Source {
  const str = (name: string): string | undefined => values[name] as string | undefined;
  const devices = positiveInteger('devices', str('devices'), 1);
  const types = listOf('types', str('types'), MESSAGE_KINDS, ['state']);
  const plantId = str('plant-id');
  const generate = createMessageGenerator({
    devices,
    items: positiveInteger('items', str('items'), 5),
    values: positiveInteger('values', str('values'), 1),
    types,
    // A device gets every type in turn, so its keep-alive recurs every devices * types / rate seconds.
    keepAliveIntervalMs: Math.max(1, Math.round((devices * types.length * 1000) / rate)),
    ...(plantId !== undefined && { plantId }),
  });
  return { next: (now) => toEdge(generate(now), { now: () => now }) };
}

/** Validates the whole file up front so a bad message stops the run before anything is sent. */
async function fileSource(source: string, deviceId: string | undefined, io: CliIo): Promise<Source> {
  const input = parseInput(await readInput(source, io));
  const messages: BaseMessage[] = [];
  const problems: string[] = [];
  input.entries.forEach((entry, index) => {
    if (entry.jsonError !== undefined) return void problems.push(`message ${index}: ${entry.jsonError}`);
    const result = validateMessage(entry.value, 'base');
    if (!result.ok)
      return void problems.push(
        ...result.errors.map((e) => `message ${index}: ${e.path || '(message)'}  ${e.code}  ${e.message}`),
      );
    if (result.message.deviceId === undefined && deviceId === undefined)
      return void problems.push(`message ${index}: no deviceId; pass --device-id`);
    messages.push(result.message);
  });
  if (problems.length > 0)
    throw new Error(`the input holds messages that cannot be published (nothing sent):\n${problems.join('\n')}`);
  let sent = 0;
  return {
    size: messages.length,
    next: (now) => {
      const message = messages[sent % messages.length] as BaseMessage;
      const base = sent >= messages.length ? { ...message, messageId: randomUUID() } : message;
      sent++;
      return toEdge(base, { now: () => now, ...(deviceId !== undefined && { deviceId }) });
    },
  };
}

export async function runPublish(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, OPTIONS);
  if (values.help) {
    io.stdout.write(PUBLISH_HELP);
    return EXIT_OK;
  }
  const agentId = values['agent-id'];
  if (agentId === undefined || !UUID_PATTERN.test(agentId))
    throw new UsageError('--agent-id is required and must be a lowercase hexadecimal UUID (8-4-4-4-12)');
  if (values.endpoint !== undefined && values.broker !== undefined)
    throw new UsageError('use either --broker or --endpoint, not both');
  if (values.endpoint !== undefined && (values.cert === undefined || values.key === undefined))
    throw new UsageError('--endpoint (AWS IoT Core) needs --cert and --key');
  const deviceId = values['device-id'];
  if (deviceId !== undefined && !DEVICE_ID_PATTERN.test(deviceId))
    throw new UsageError(`--device-id must be letters, digits, _ - . # =; got "${deviceId}"`);
  if (values.generate === positionals.length > 0)
    throw new UsageError('give either --generate or one input (FILE or -)');
  if (positionals.length > 1) throw new UsageError(`expected one input; got ${positionals.length}`);
  const rate = positiveNumber('rate', values.rate, 1);
  const count = values.count === undefined ? undefined : positiveInteger('count', values.count, 1);
  const duration = durationMs('duration', values.duration);
  const ackTimeoutMs = durationMs('ack-timeout', values['ack-timeout']) ?? 10_000;
  const connectTimeoutMs = durationMs('connect-timeout', values['connect-timeout']) ?? 10_000;
  const source = values.generate
    ? generatedSource(values, rate)
    : await fileSource(positionals[0] ?? '-', deviceId, io);
  // A file without --count or --duration is sent once; otherwise the limits decide.
  const limit = count ?? (duration === undefined ? source.size : undefined);

  const url =
    values.endpoint !== undefined
      ? endpointUrl(values.endpoint)
      : (values.broker ?? `mqtt://127.0.0.1:${localStack().ports.mqtt}`);
  const client = await connectMqtt({
    url,
    clientId: agentId,
    connectTimeoutMs,
    onError: (error) => io.stderr.write(`gdm publish: MQTT error: ${error.message}\n`),
    ...(values.cert !== undefined && { certFile: values.cert }),
    ...(values.key !== undefined && { keyFile: values.key }),
    ...(values.ca !== undefined && { caFile: values.ca }),
  });
  const topic = `gdm/${agentId}/messages`;
  io.stderr.write(`gdm publish: connected to ${url} as ${agentId}; publishing on ${topic} at ${rate} msg/s\n`);
  const limits: PublishLimits = {
    ...(limit !== undefined && { total: limit }),
    ...(duration !== undefined && { durationMs: duration }),
  };
  const progress = createProgress(io.stderr, { label: 'gdm publish', plainEveryMs: PLAIN_PROGRESS_EVERY_MS });
  const report = (counts: PublishCounts, elapsedMs: number): void => {
    const done = shareDone(counts, elapsedMs, limits);
    progress.update({ text: describeCounts(counts, elapsedMs, limits), ...(done !== undefined && { done }) });
  };
  let firstFailure = true;
  try {
    const result = await publishMessages(client, {
      topic,
      rate,
      ackTimeoutMs,
      next: source.next,
      onProgress: report,
      onFailure: (error) => {
        if (firstFailure)
          io.stderr.write(`gdm publish: a publish failed: ${error instanceof Error ? error.message : String(error)}\n`);
        firstFailure = false;
      },
      ...(limit !== undefined && { count: limit }),
      ...(duration !== undefined && { durationMs: duration }),
      ...(io.signal !== undefined && { signal: io.signal }),
    });
    report(result, result.elapsedMs);
    progress.end();
    io.stdout.write(`published ${result.published}, acknowledged ${result.acknowledged}, failed ${result.failed}\n`);
    return result.failed === 0 ? EXIT_OK : EXIT_FAILURE;
  } finally {
    await client.endAsync(true);
  }
}
