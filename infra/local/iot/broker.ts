// Local stand-in for AWS IoT Core: an aedes MQTT broker whose rules invoke functions through
// serverless-offline's Lambda endpoint.
//
// Nothing acknowledged is lost: a QoS 1 publish is written to the journal (journal.ts, fsync'd in
// groups) before the broker sends its PUBACK, and a restart replays what was journaled but not
// processed. One worker takes the journal in order and invokes each rule's function with batches
// in the SQS event shape (`{Records: [{messageId, body}]}`, body = the rule's output), so one
// invocation's fixed cost is shared by many messages; the function answers which items failed.
// A failed item is retried (3 attempts, as AWS retries an asynchronous invocation), then written
// to the dead letter (RULE_ACTION_FAILED), never dropped.
//
// Back-pressure: while more than `maxBacklog` messages are journaled and not processed,
// acknowledgements wait, first in first out, one released per processed message. aedes reads a
// client's socket again only when every packet of the last read was acknowledged, so a gateway
// that publishes faster than the stack processes is slowed down by TCP itself.
import { createServer, type Server, type Socket } from 'node:net';
import { Aedes } from 'aedes';
import { fileDeadLetter } from '../../../lib/adapters/files/dead-letter';
import { deadLetterId } from '../../../lib/ingest/dead-letter';
import type { DeadLetterEntry, DeadLetterReason } from '../../../lib/ingest/ports';
import { openJournal, type Journal, type JournalRecord } from './journal';
import { parseRuleSql, ruleMatches, ruleOutput, topicMatches, type ParsedRule } from './rule-sql';

export interface RuleBinding {
  /** serverless.yml function key, for messages. */
  readonly functionKey: string;
  /** Deployed function name, which the Lambda invoke endpoint expects. */
  readonly functionName: string;
  readonly sql: string;
}

export interface BrokerOptions {
  readonly host: string;
  readonly port: number;
  readonly lambdaPort: number;
  readonly deadLetterDir: string;
  /** Folder of the write-ahead journal (the stack uses <data>/iot-journal). */
  readonly journalDir: string;
  readonly rules: readonly RuleBinding[];
  /** Invocation attempts per message before it goes to the dead letter (AWS async invoke: 3). */
  readonly attempts?: number;
  /** Most messages in one invocation (default 250). */
  readonly maxBatch?: number;
  /** Most payload bytes in one invocation (default 4 MiB; Lambda's synchronous payload limit is 6 MB). */
  readonly maxBatchBytes?: number;
  /** Messages journaled and not processed beyond which acknowledgements wait (default 5,000). */
  readonly maxBacklog?: number;
  /** On close, how long the batch in flight may take to finish (default 10 s); the rest stays journaled. */
  readonly drainMs?: number;
  /** Wait before a failed batch is tried again (default 250 ms, doubling per attempt). */
  readonly retryDelayMs?: number;
  readonly log: (message: string) => void;
}

interface ActiveRule extends RuleBinding {
  readonly parsed: ParsedRule;
}

/** Parses every rule up front: an unsupported rule stops the start with a message naming it. */
export function compileRules(rules: readonly RuleBinding[]): ActiveRule[] {
  return rules.map((rule) => {
    try {
      return { ...rule, parsed: parseRuleSql(rule.sql) };
    } catch (error) {
      throw new Error(
        `IoT rule of function '${rule.functionKey}' cannot run locally: ${(error as Error).message}. SQL: ${rule.sql}`,
      );
    }
  });
}

export interface BrokerStats {
  /** Messages journaled and not yet processed. */
  readonly backlog: number;
  /** Acknowledgements held back by the backlog limit. */
  readonly heldAcknowledgements: number;
  readonly invocations: number;
  readonly processed: number;
  readonly deadLettered: number;
}

export interface RunningBroker {
  /** Resolves when every journaled message is processed. */
  idle(): Promise<void>;
  stats(): BrokerStats;
  /** Stops accepting, lets the batch in flight finish (up to drainMs), closes; the rest stays journaled. */
  close(): Promise<void>;
}

/** The function ran and failed (counts as one of the rule's attempts, as in AWS). */
class FunctionError extends Error {}

interface BatchAnswer {
  readonly batchItemFailures?: readonly { readonly itemIdentifier: string }[];
}

async function invokeOnce(lambdaPort: number, functionName: string, event: unknown): Promise<BatchAnswer> {
  const response = await fetch(
    `http://127.0.0.1:${lambdaPort}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
      body: JSON.stringify(event),
    },
  );
  const text = await response.text();
  if (!response.ok || response.headers.get('x-amz-function-error')) {
    throw new FunctionError(`function ${functionName} failed (HTTP ${response.status}): ${text.slice(0, 500)}`);
  }
  try {
    return (JSON.parse(text) ?? {}) as BatchAnswer;
  } catch {
    return {};
  }
}

/**
 * Transport failures to the local Lambda endpoint (not listening yet at start, a reset socket)
 * say nothing about the message: they are retried with capped backoff until the broker stops,
 * and never spend one of the rule's attempts.
 */
async function invoke(
  lambdaPort: number,
  functionName: string,
  event: unknown,
  stopping: () => boolean,
): Promise<BatchAnswer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await invokeOnce(lambdaPort, functionName, event);
    } catch (error) {
      if (error instanceof FunctionError || stopping()) throw error;
      await new Promise((r) => setTimeout(r, Math.min(2000, 25 * 2 ** attempt) * (0.5 + Math.random() / 2)));
    }
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function startBroker(options: BrokerOptions): Promise<RunningBroker> {
  const rules = compileRules(options.rules);
  const deadLetter = fileDeadLetter(options.deadLetterDir);
  const attempts = options.attempts ?? 3;
  const maxBatch = options.maxBatch ?? 250;
  const maxBatchBytes = options.maxBatchBytes ?? 4 * 1024 * 1024;
  const maxBacklog = options.maxBacklog ?? 5_000;
  const drainMs = options.drainMs ?? 10_000;
  const retryDelayMs = options.retryDelayMs ?? 250;
  const journal: Journal = await openJournal(options.journalDir, { log: options.log });
  if (journal.recovered.length > 0)
    options.log(`replaying ${journal.recovered.length} message(s) acknowledged before the last stop and not processed`);

  const queue: JournalRecord[] = [...journal.recovered];
  const failures = new Map<number, number>();
  /** Acknowledgements not sent yet, in the order the messages arrived (MQTT requires PUBACKs in order). */
  const heldAcks: { seq: number; send: () => void }[] = [];
  const counters = { invocations: 0, processed: 0, deadLettered: 0 };
  let stopping = false;
  let wake: (() => void) | undefined;
  let idleWaiters: (() => void)[] = [];

  /** A message is acknowledged once at most maxBacklog unprocessed messages are at or before it. */
  const releaseAcks = (): void => {
    while (heldAcks.length > 0 && journal.pendingThrough(heldAcks[0]!.seq) <= maxBacklog) heldAcks.shift()!.send();
  };

  const finish = (seqs: readonly number[]): void => {
    for (const seq of seqs) failures.delete(seq);
    journal.markProcessed(seqs);
    counters.processed += seqs.length;
    releaseAcks();
  };

  const deadLetterEntry = (
    record: JournalRecord,
    reason: DeadLetterReason,
    message: string,
    details: unknown[],
    rule: string,
  ): DeadLetterEntry => {
    const payloadBase64 = record.payload.toString('base64');
    const source = { topic: record.topic, clientId: record.clientId, agentId: record.topic.split('/')[1], rule };
    return {
      id: deadLetterId(reason, payloadBase64, source, record.receivedAt),
      reason,
      message,
      details,
      time: new Date().toISOString(),
      receivedAt: new Date(record.receivedAt).toISOString(),
      payloadBase64,
      source,
    };
  };

  /** The next batch: oldest first, bounded by count and payload bytes. */
  const takeBatch = (): JournalRecord[] => {
    const batch: JournalRecord[] = [];
    let bytes = 0;
    while (queue.length > 0 && batch.length < maxBatch) {
      const next = queue[0]!;
      if (batch.length > 0 && bytes + next.payload.length > maxBatchBytes) break;
      bytes += next.payload.length;
      batch.push(queue.shift()!);
    }
    return batch;
  };

  /** Runs one batch through every rule; never throws. @returns the records to try again. */
  const runBatch = async (batch: readonly JournalRecord[]): Promise<JournalRecord[]> => {
    const retry = new Map<number, string>();
    /** Not invoked because the broker is stopping: neither done nor failed, they stay journaled. */
    const abandoned = new Set<number>();
    const deadLetters: { seq: number; entry: DeadLetterEntry }[] = [];
    for (const rule of rules) {
      const items: { record: JournalRecord; event: unknown }[] = [];
      for (const record of batch) {
        if (!topicMatches(rule.parsed.topicFilter, record.topic)) continue;
        const input = {
          topic: record.topic,
          clientId: record.clientId,
          payload: record.payload,
          timestampMs: record.receivedAt,
        };
        try {
          if (ruleMatches(rule.parsed, input)) items.push({ record, event: ruleOutput(rule.parsed, input) });
        } catch (error) {
          options.log(`rule ${rule.functionKey}: ${(error as Error).message}; message written to the dead letter`);
          deadLetters.push({
            seq: record.seq,
            entry: deadLetterEntry(record, 'RULE_SQL_FAILED', (error as Error).message, [], rule.functionKey),
          });
        }
      }
      if (items.length === 0) continue;
      const event = { Records: items.map((i) => ({ messageId: String(i.record.seq), body: JSON.stringify(i.event) })) };
      counters.invocations++;
      try {
        const answer = await invoke(options.lambdaPort, rule.functionName, event, () => stopping);
        for (const failure of answer.batchItemFailures ?? [])
          retry.set(Number(failure.itemIdentifier), `function ${rule.functionName} reported the message as failed`);
      } catch (error) {
        if (stopping && !(error instanceof FunctionError)) for (const item of items) abandoned.add(item.record.seq);
        else for (const item of items) retry.set(item.record.seq, (error as Error).message);
      }
    }
    const again: JournalRecord[] = [];
    for (const record of batch) {
      const reason = retry.get(record.seq);
      if (reason === undefined) continue;
      const attempt = (failures.get(record.seq) ?? 0) + 1;
      failures.set(record.seq, attempt);
      if (attempt < attempts) again.push(record);
      else {
        options.log(
          `message ${record.seq} on ${record.topic}: invocation failed ${attempts} times (${reason}); message written to the dead letter`,
        );
        deadLetters.push({
          seq: record.seq,
          entry: deadLetterEntry(
            record,
            'RULE_ACTION_FAILED',
            reason,
            [{ attempts }],
            rules.map((r) => r.functionKey).join(','),
          ),
        });
      }
    }
    if (deadLetters.length > 0) {
      // If even the dead letter cannot be written, keep the messages journaled and try later.
      try {
        await deadLetter.put(deadLetters.map((d) => d.entry));
        counters.deadLettered += deadLetters.length;
      } catch (error) {
        options.log(`dead letter not written (${(error as Error).message}); the messages stay in the journal`);
        const seqs = new Set(deadLetters.map((d) => d.seq));
        for (const record of batch) if (seqs.has(record.seq) && !again.includes(record)) again.push(record);
      }
    }
    const retried = new Set(again.map((r) => r.seq));
    finish(batch.filter((r) => !retried.has(r.seq) && !abandoned.has(r.seq)).map((r) => r.seq));
    return again;
  };

  // Each rule's function is invoked once with an empty batch as soon as the Lambda endpoint
  // answers, so that its first messages do not wait for its cold start (loading, opening stores).
  const warmUp = Promise.all(
    rules.map((rule) =>
      invoke(options.lambdaPort, rule.functionName, { Records: [] }, () => stopping).catch((error: Error) =>
        options.log(`warm-up of ${rule.functionKey} failed: ${error.message}`),
      ),
    ),
  );

  let inFlight: Promise<void> | undefined;
  const worker = (async () => {
    await warmUp;
    while (!stopping) {
      if (queue.length === 0) {
        for (const w of idleWaiters) w();
        idleWaiters = [];
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
        continue;
      }
      const batch = takeBatch();
      let again: JournalRecord[] = [];
      inFlight = runBatch(batch).then((a) => void (again = a));
      await inFlight;
      inFlight = undefined;
      if (again.length > 0) {
        queue.unshift(...again);
        const attempt = Math.max(...again.map((r) => failures.get(r.seq) ?? 1));
        if (!stopping) await sleep(retryDelayMs * 2 ** (attempt - 1));
      }
    }
  })();

  const broker = await Aedes.createBroker({
    // Runs before aedes sends the PUBACK: the message is journaled (on disk) first; beyond the
    // backlog limit the acknowledgement also waits for older messages to be processed.
    authorizePublish: (client, packet, done) => {
      if (!client || packet.topic.startsWith('$')) return done(null);
      if (!rules.some((r) => topicMatches(r.parsed.topicFilter, packet.topic))) return done(null);
      if (stopping) return done(new Error('the broker is stopping'));
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      journal.append({ topic: packet.topic, clientId: client.id, receivedAt: Date.now(), payload }).then(
        (record) => {
          queue.push(record);
          wake?.();
          heldAcks.push({ seq: record.seq, send: () => done(null) });
          releaseAcks();
        },
        (error: Error) => {
          options.log(
            `journal write failed (${error.message}); the message is refused, the publisher will send it again`,
          );
          done(error);
        },
      );
    },
  });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    idle: () => (queue.length === 0 && !inFlight ? Promise.resolve() : new Promise<void>((r) => idleWaiters.push(r))),
    stats: () => ({ backlog: journal.stats().unprocessed, heldAcknowledgements: heldAcks.length, ...counters }),
    close: async () => {
      if (stopping) return;
      stopping = true;
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Held acknowledgements are never sent: those messages are journaled; the publisher sends
      // them again (QoS 1) and the ingest ledger recognises any it already has.
      heldAcks.length = 0;
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await serverClosed;
      wake?.();
      const drained = await Promise.race([worker.then(() => true), sleep(drainMs).then(() => false)]);
      if (!drained)
        options.log(
          `the batch in flight did not finish within ${drainMs} ms; it stays journaled and is replayed at the next start`,
        );
      const left = journal.stats().unprocessed;
      await journal.close();
      for (const w of idleWaiters) w();
      options.log(
        left > 0
          ? `stopped; ${left} message(s) stay journaled and are processed at the next start`
          : 'stopped; every acknowledged message was processed',
      );
    },
  };
}
