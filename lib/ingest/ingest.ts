// The ingest core: decode what the IoT rule delivers, validate the edge message, check the agent
// and plant, enrich to cloud and route it. Works on batches (the local broker and the SQS entry
// point deliver many messages at once; the IoT rule deployed delivers one): the ledger, the
// telemetry store and the lake each take one call per batch. Every message ends stored, as a
// duplicate, or in the dead letter with its reason; bad input never throws. A message whose
// processing hit an unavailable dependency is reported `failed`, so that the platform retries it.
import { kindOf, toCloud, validateMessage, type CloudMessage } from '../gdm';
import { deadLetterId } from './dead-letter';
import type {
  AgentDirectory,
  ClaimStatus,
  DataLake,
  DeadLetter,
  DeadLetterEntry,
  DeadLetterReason,
  DeviceLiveness,
  IngestLedger,
  KeepAlive,
  LakeRecord,
  MessageKey,
  TelemetryStore,
} from './ports';
import { plantIdOf, rowsOf, type MessageRows } from './rows';
import { ruleEventSchema } from './rule-event';
import { refusalOf, storeRuleViolations, type StoreRules } from '../telemetry/store-rules';
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
  /** What the deployed store accepts (time window, record size): applied locally too. */
  readonly storeRules: StoreRules;
  readonly log: (message: string, attributes: Record<string, unknown>) => void;
}

export type IngestOutcome =
  | { readonly status: 'stored'; readonly messageId: string; readonly rows: number; readonly rejected: number }
  | { readonly status: 'duplicate'; readonly messageId: string }
  | { readonly status: 'dead-lettered'; readonly reason: DeadLetterReason };

/** A message the batch could not finish because a dependency failed: retry it. */
export interface FailedOutcome {
  readonly status: 'failed';
  readonly error: string;
}

export type BatchOutcome = IngestOutcome | FailedOutcome;

class Refusal {
  constructor(
    readonly reason: DeadLetterReason,
    readonly message: string,
    readonly details: readonly unknown[] = [],
  ) {}
}

/** A message that passed every check and is ready to be stored. */
interface Accepted {
  readonly index: number;
  readonly key: MessageKey;
  readonly customerId: string;
  readonly plantId: string;
  readonly cloud: CloudMessage;
  readonly rows: MessageRows;
  readonly payloadBase64: string;
}

/** One rule event (see rule-event.ts) through the whole pipeline. @throws when a dependency failed. */
export async function ingestRuleEvent(event: unknown, deps: IngestDeps): Promise<IngestOutcome> {
  const [outcome] = await ingestBatch([event], deps);
  if (!outcome || outcome.status === 'failed') throw new Error(outcome?.error ?? 'the message was not processed');
  return outcome;
}

/**
 * Rule events through the pipeline together. @returns one outcome per event, in order; never
 * throws: a dependency failure marks the messages it affected `failed`.
 */
export async function ingestBatch(events: readonly unknown[], deps: IngestDeps): Promise<BatchOutcome[]> {
  const now = deps.now();
  const outcomes: BatchOutcome[] = new Array(events.length);
  const refused: { index: number; entry: DeadLetterEntry }[] = [];
  const accepted: Accepted[] = [];
  const firstOfKey = new Map<string, number>();
  const sameAsEarlier: { index: number; earlier: number }[] = [];

  await Promise.all(
    events.map(async (event, index) => {
      try {
        const prepared = await prepare(event, index, now, deps);
        if ('entry' in prepared) refused.push({ index, entry: prepared.entry });
        else accepted.push(prepared);
      } catch (error) {
        outcomes[index] = failed(error);
      }
    }),
  );
  accepted.sort((a, b) => a.index - b.index);
  // A message twice in one batch: the later copy is the earlier one's duplicate.
  const distinct = accepted.filter((a) => {
    const id = `${a.key.agentId}\u0000${a.key.messageId}`;
    const earlier = firstOfKey.get(id);
    if (earlier === undefined) {
      firstOfKey.set(id, a.index);
      return true;
    }
    sameAsEarlier.push({ index: a.index, earlier });
    return false;
  });

  await storeAccepted(distinct, now, deps, outcomes);
  for (const { index, earlier } of sameAsEarlier) {
    const first = outcomes[earlier];
    outcomes[index] =
      first?.status === 'failed'
        ? first
        : { status: 'duplicate', messageId: (accepted.find((a) => a.index === index) as Accepted).key.messageId };
  }
  if (refused.length > 0) {
    try {
      await deps.deadLetter.put(refused.map((r) => r.entry));
      for (const { index, entry } of refused) {
        deps.log('message dead-lettered', { reason: entry.reason, detail: entry.message, ...entry.source });
        outcomes[index] = { status: 'dead-lettered', reason: entry.reason };
      }
    } catch (error) {
      for (const { index } of refused) outcomes[index] = failed(error);
    }
  }
  return outcomes;
}

const failed = (error: unknown): FailedOutcome => ({
  status: 'failed',
  error: error instanceof Error ? error.message : String(error),
});

async function prepare(
  event: unknown,
  index: number,
  now: Date,
  deps: IngestDeps,
): Promise<Accepted | { entry: DeadLetterEntry }> {
  const parsed = ruleEventSchema.safeParse(event);
  if (!parsed.success) {
    const payloadBase64 = Buffer.from(JSON.stringify(event ?? null)).toString('base64');
    return {
      entry: entryOf(
        new Refusal('INVALID_MESSAGE', 'the rule event has no base64 payload; check the IoT rule SQL'),
        payloadBase64,
        {},
        undefined,
        now,
      ),
    };
  }
  const { payload, agentId: topicAgent, clientId, receivedAt } = parsed.data;
  const source = { agentId: topicAgent, clientId };
  const result = await check(payload, clientId ?? topicAgent, topicAgent, now, deps);
  if (result instanceof Refusal) return { entry: entryOf(result, payload, source, receivedAt, now) };
  return { ...result, index, payloadBase64: payload };
}

function entryOf(
  refusal: Refusal,
  payloadBase64: string,
  source: Record<string, string | undefined>,
  receivedAt: number | undefined,
  now: Date,
): DeadLetterEntry {
  return {
    id: deadLetterId(refusal.reason, payloadBase64, source, receivedAt),
    reason: refusal.reason,
    message: refusal.message,
    details: refusal.details,
    time: now.toISOString(),
    ...(receivedAt !== undefined ? { receivedAt: new Date(receivedAt).toISOString() } : {}),
    payloadBase64,
    source,
  };
}

async function check(
  payloadBase64: string,
  agentId: string | undefined,
  topicAgent: string | undefined,
  now: Date,
  deps: IngestDeps,
): Promise<Omit<Accepted, 'index' | 'payloadBase64'> | Refusal> {
  const bytes = Buffer.from(payloadBase64, 'base64');
  if (bytes.length > deps.maxPayloadBytes)
    return new Refusal(
      'TOO_LARGE',
      `the payload has ${bytes.length} bytes; at most ${deps.maxPayloadBytes} are accepted`,
    );
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return new Refusal('NOT_JSON', `the payload is not JSON: ${(error as Error).message}`);
  }
  if (!agentId) return new Refusal('UNKNOWN_AGENT', 'the message arrived without an agent identity (MQTT client id)');
  if (topicAgent !== undefined && topicAgent !== agentId) {
    return new Refusal(
      'AGENT_MISMATCH',
      `agent '${agentId}' published on the topic of agent '${topicAgent}'; publish to gdm/${agentId}/messages`,
    );
  }
  const validation = validateMessage(json, 'edge');
  if (!validation.ok) {
    const first = validation.errors[0];
    return new Refusal(
      'INVALID_MESSAGE',
      `the edge message has ${validation.errors.length} problem(s); first: ${first?.path} ${first?.message}`,
      validation.errors,
    );
  }
  const agent = await deps.directory.getAgent(agentId);
  if (!agent)
    return new Refusal(
      'UNKNOWN_AGENT',
      `agent '${agentId}' is not registered; register it with insights-admin agents create`,
    );
  const plantId = plantIdOf(validation.message);
  if (plantId !== '') {
    const plant = await deps.directory.getPlant(plantId);
    if (!plant || plant.customerId !== agent.customerId) {
      return new Refusal('FOREIGN_PLANT', `plant '${plantId}' is not a plant of the agent's customer`, [
        { path: '/metadata/plantId' },
      ]);
    }
  }
  const cloud = toCloud(validation.message, { now: () => now, agentId, ingestionId: deps.ingestionId });
  const rows = rowsOf(cloud);
  // Checked before the ledger claim: a message the store would refuse is dead-lettered whole and
  // nothing of it is stored, so a replay after a fix stores it whole (docs/telemetry-mapping.md).
  const refusal = refusalOf(
    storeRuleViolations(
      { customerId: agent.customerId, states: rows.states, events: rows.events },
      now,
      deps.storeRules,
    ),
  );
  if (refusal) return new Refusal(refusal.reason, refusal.message, refusal.details);
  return { key: { agentId, messageId: cloud.messageId }, customerId: agent.customerId, plantId, cloud, rows };
}

/** Claim, write rows per customer, liveness, lake, complete: each one call for the whole batch. */
async function storeAccepted(
  accepted: readonly Accepted[],
  now: Date,
  deps: IngestDeps,
  outcomes: BatchOutcome[],
): Promise<void> {
  if (accepted.length === 0) return;
  let claims: ClaimStatus[];
  try {
    claims = await deps.ledger.claim(
      accepted.map((a) => a.key),
      now,
    );
  } catch (error) {
    for (const a of accepted) outcomes[a.index] = failed(error);
    return;
  }
  const toStore: { message: Accepted; retry: boolean; rejected: number }[] = [];
  accepted.forEach((message, i) => {
    if (claims[i] === 'done') {
      deps.log('duplicate message ignored', { agentId: message.key.agentId, messageId: message.key.messageId });
      outcomes[message.index] = { status: 'duplicate', messageId: message.key.messageId };
    } else toStore.push({ message, retry: claims[i] === 'retry', rejected: 0 });
  });

  const byCustomer = new Map<string, typeof toStore>();
  for (const item of toStore)
    byCustomer.set(item.message.customerId, [...(byCustomer.get(item.message.customerId) ?? []), item]);
  const written: typeof toStore = [];
  for (const [customerId, items] of byCustomer) {
    try {
      await writeRows(customerId, items, now, deps);
      written.push(...items);
    } catch (error) {
      for (const item of items) outcomes[item.message.index] = failed(error);
    }
  }

  const done: typeof toStore = [];
  await Promise.all(
    written.map(async (item) => {
      const { cloud, customerId, plantId } = item.message;
      try {
        if (kindOf(cloud.messageType) === 'keep-alive')
          await deps.liveness.record(keepAliveOf(cloud, customerId, plantId));
        done.push(item);
      } catch (error) {
        outcomes[item.message.index] = failed(error);
      }
    }),
  );
  try {
    const lake: LakeRecord[] = done.map(({ message }) => ({
      customerId: message.customerId,
      plantId: message.plantId,
      date: message.cloud.ingestionTimestamp.slice(0, 10),
      message: message.cloud,
    }));
    if (lake.length > 0) await deps.lake.put(lake);
    if (done.length > 0)
      await deps.ledger.complete(
        done.map((d) => d.message.key),
        now,
      );
  } catch (error) {
    for (const item of done) outcomes[item.message.index] = failed(error);
    return;
  }
  for (const { message, rejected } of done) {
    outcomes[message.index] = {
      status: 'stored',
      messageId: message.key.messageId,
      rows: message.rows.states.length + message.rows.events.length - rejected,
      rejected,
    };
  }
}

/** One store write for a customer's messages; rows the store refuses for good go to the dead letter. */
async function writeRows(
  customerId: string,
  items: { message: Accepted; retry: boolean; rejected: number }[],
  now: Date,
  deps: IngestDeps,
): Promise<void> {
  const states = items.flatMap((i) => i.message.rows.states);
  const events = items.flatMap((i) => i.message.rows.events);
  if (states.length + events.length === 0) return;
  const replace = items.filter((i) => i.retry).map((i) => i.message.key);
  const result = await deps.store.write({ customerId, states, events, ...(replace.length > 0 ? { replace } : {}) });
  if (result.rejected.length === 0) return;
  const entries: DeadLetterEntry[] = [];
  for (const item of items) {
    const mine = result.rejected.filter((r) => r.messageId === item.message.key.messageId);
    if (mine.length === 0) continue;
    item.rejected = mine.length;
    const source = { agentId: item.message.key.agentId, messageId: item.message.key.messageId };
    entries.push({
      ...entryOf(
        new Refusal(
          'STORE_REJECTED',
          `the telemetry store refused ${mine.length} row(s) of message ${item.message.key.messageId}`,
          mine,
        ),
        item.message.payloadBase64,
        source,
        undefined,
        now,
      ),
    });
  }
  await deps.deadLetter.put(entries);
}

function keepAliveOf(cloud: CloudMessage, customerId: string, plantId: string): KeepAlive {
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
