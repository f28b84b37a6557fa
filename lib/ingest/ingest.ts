// The ingest core: decode what the IoT rule delivers, validate the edge message, check the agent
// and plant, enrich to cloud and route it. Every message ends stored or in the dead letter with
// its reason; bad input never throws (only an unavailable dependency does, so the platform retries).
import { kindOf, toCloud, validateMessage, type CloudMessage } from '../gdm';
import type { AgentDirectory, DataLake, DeadLetter, DeadLetterEntry, DeadLetterReason, DeviceLiveness, IngestLedger, TelemetryStore } from './ports';
import { plantIdOf, rowsOf } from './rows';
import { ruleEventSchema } from './rule-event';
import { toUtcIso } from '../telemetry/time';

export interface IngestDeps {
  readonly deadLetter: DeadLetter;
  readonly store: TelemetryStore;
  readonly lake: DataLake;
  readonly liveness: DeviceLiveness;
  readonly ledger: IngestLedger;
  readonly directory: AgentDirectory;
  /** The message hub's name, written as ingestionId. */
  readonly ingestionId: string;
  readonly now: () => Date;
  /** Largest payload accepted, in bytes (AWS IoT Core's own limit is 128 KiB). */
  readonly maxPayloadBytes: number;
  readonly log: (message: string, attributes: Record<string, unknown>) => void;
}

export type IngestOutcome =
  | { readonly status: 'stored'; readonly messageId: string; readonly rows: number; readonly rejected: number }
  | { readonly status: 'duplicate'; readonly messageId: string }
  | { readonly status: 'dead-lettered'; readonly reason: DeadLetterReason };

class Refusal {
  constructor(
    readonly reason: DeadLetterReason,
    readonly message: string,
    readonly details: readonly unknown[] = [],
  ) {}
}

/** One rule event (see rule-event.ts) through the whole pipeline. */
export async function ingestRuleEvent(event: unknown, deps: IngestDeps): Promise<IngestOutcome> {
  const parsed = ruleEventSchema.safeParse(event);
  if (!parsed.success) {
    const payloadBase64 = Buffer.from(JSON.stringify(event ?? null)).toString('base64');
    return deadLetter(deps, new Refusal('INVALID_MESSAGE', 'the rule event has no base64 payload; check the IoT rule SQL'), payloadBase64, {});
  }
  const { payload, agentId: topicAgent, clientId } = parsed.data;
  const source = { agentId: topicAgent, clientId };
  const outcome = await processPayload(payload, clientId ?? topicAgent, topicAgent, deps);
  if (outcome instanceof Refusal) return deadLetter(deps, outcome, payload, source);
  return outcome;
}

async function deadLetter(deps: IngestDeps, refusal: Refusal, payloadBase64: string, source: Record<string, string | undefined>): Promise<IngestOutcome> {
  const entry: DeadLetterEntry = { reason: refusal.reason, message: refusal.message, details: refusal.details, time: deps.now().toISOString(), payloadBase64, source };
  await deps.deadLetter.put([entry]);
  deps.log('message dead-lettered', { reason: refusal.reason, detail: refusal.message, ...source });
  return { status: 'dead-lettered', reason: refusal.reason };
}

async function processPayload(payloadBase64: string, agentId: string | undefined, topicAgent: string | undefined, deps: IngestDeps): Promise<IngestOutcome | Refusal> {
  const bytes = Buffer.from(payloadBase64, 'base64');
  if (bytes.length > deps.maxPayloadBytes) return new Refusal('TOO_LARGE', `the payload has ${bytes.length} bytes; at most ${deps.maxPayloadBytes} are accepted`);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return new Refusal('NOT_JSON', `the payload is not JSON: ${(error as Error).message}`);
  }
  if (!agentId) return new Refusal('UNKNOWN_AGENT', 'the message arrived without an agent identity (MQTT client id)');
  if (topicAgent !== undefined && topicAgent !== agentId) {
    return new Refusal('AGENT_MISMATCH', `agent '${agentId}' published on the topic of agent '${topicAgent}'; publish to gdm/${agentId}/messages`);
  }
  const validation = validateMessage(json, 'edge');
  if (!validation.ok) {
    const first = validation.errors[0];
    return new Refusal('INVALID_MESSAGE', `the edge message has ${validation.errors.length} problem(s); first: ${first?.path} ${first?.message}`, validation.errors);
  }
  const agent = await deps.directory.getAgent(agentId);
  if (!agent) return new Refusal('UNKNOWN_AGENT', `agent '${agentId}' is not registered; register it with insights-admin agents create`);
  const plantId = plantIdOf(validation.message);
  if (plantId !== '') {
    const plant = await deps.directory.getPlant(plantId);
    if (!plant || plant.customerId !== agent.customerId) {
      return new Refusal('FOREIGN_PLANT', `plant '${plantId}' is not a plant of the agent's customer`, [{ path: '/metadata/plantId' }]);
    }
  }

  const now = deps.now();
  const cloud: CloudMessage = toCloud(validation.message, { now: () => now, agentId, ingestionId: deps.ingestionId });
  const claim = await deps.ledger.claim(agentId, cloud.messageId, now);
  if (claim === 'done') {
    deps.log('duplicate message ignored', { agentId, messageId: cloud.messageId });
    return { status: 'duplicate', messageId: cloud.messageId };
  }
  const customerId = agent.customerId;
  const rows = rowsOf(cloud);
  let rejected = 0;
  if (rows.states.length + rows.events.length > 0) {
    const result = await deps.store.write({ customerId, states: rows.states, events: rows.events, replace: claim === 'retry' });
    rejected = result.rejected.length;
    if (rejected > 0) {
      await deps.deadLetter.put([
        { reason: 'STORE_REJECTED', message: `the telemetry store refused ${rejected} row(s) of message ${cloud.messageId}`, details: result.rejected, time: now.toISOString(), payloadBase64, source: { agentId, messageId: cloud.messageId } },
      ]);
    }
  }
  if (kindOf(cloud.messageType) === 'keep-alive') await deps.liveness.record(keepAliveOf(cloud, customerId, plantId));
  await deps.lake.put([{ customerId, plantId, date: cloud.ingestionTimestamp.slice(0, 10), message: cloud }]);
  await deps.ledger.complete(agentId, cloud.messageId, now);
  return { status: 'stored', messageId: cloud.messageId, rows: rows.states.length + rows.events.length - rejected, rejected };
}

function keepAliveOf(cloud: CloudMessage, customerId: string, plantId: string) {
  const stamp = cloud.data?.[0]?.values[0]?.deviceTimestamp ?? cloud.agentTimestamp;
  const interval = cloud.metadata?.messageIntervallInMilliseconds;
  return {
    customerId,
    plantId,
    uid: cloud.uid,
    agentId: cloud.agentId,
    deviceId: cloud.deviceId,
    lastSeen: toUtcIso(stamp),
    intervalMs: typeof interval === 'number' && Number.isInteger(interval) && interval > 0 ? interval : null,
  };
}
