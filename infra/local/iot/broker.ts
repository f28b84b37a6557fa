// Local stand-in for AWS IoT Core: an aedes MQTT broker whose rules invoke functions through
// serverless-offline's Lambda endpoint. As IoT Core does, the broker acknowledges a QoS 1 publish
// on receipt and runs the rules asynchronously, many messages at once; a failing invocation is
// retried, then written to the dead letter, so nothing is dropped. When `maxInFlight` messages
// are being processed, acknowledgements wait (back-pressure), and closing waits for all of them.
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import { fileDeadLetter } from '../../../lib/adapters/files/dead-letter';
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
  readonly rules: readonly RuleBinding[];
  /** Invocation attempts before the message goes to the dead letter (AWS async invoke: 3). */
  readonly attempts?: number;
  /** Messages processed at once before acknowledgements wait (default 16: more only queue inside the single local process, up to invocation timeouts). */
  readonly maxInFlight?: number;
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
      throw new Error(`IoT rule of function '${rule.functionKey}' cannot run locally: ${(error as Error).message}. SQL: ${rule.sql}`);
    }
  });
}

export interface RunningBroker {
  /** Resolves when no message is being processed. */
  idle(): Promise<void>;
  /** Stops accepting messages, lets the ones in flight finish, then closes. */
  close(): Promise<void>;
}

/** The function ran and failed (counts as one of the rule's attempts, as in AWS). */
class FunctionError extends Error {}

async function invokeOnce(lambdaPort: number, functionName: string, event: unknown): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${lambdaPort}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
    body: JSON.stringify(event),
  });
  const text = await response.text();
  if (!response.ok || response.headers.get('x-amz-function-error')) {
    throw new FunctionError(`function ${functionName} failed (HTTP ${response.status}): ${text.slice(0, 500)}`);
  }
}

/** Transport failures to the local Lambda endpoint (a busy or reused socket) are retried with backoff. */
const TRANSPORT_ATTEMPTS = 8;

async function invoke(lambdaPort: number, functionName: string, event: unknown): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await invokeOnce(lambdaPort, functionName, event);
    } catch (error) {
      if (error instanceof FunctionError || attempt >= TRANSPORT_ATTEMPTS) throw error;
      await new Promise((r) => setTimeout(r, Math.min(2000, 50 * 2 ** attempt) * Math.random()));
    }
  }
}

export async function startBroker(options: BrokerOptions): Promise<RunningBroker> {
  const rules = compileRules(options.rules);
  const deadLetter = fileDeadLetter(options.deadLetterDir);
  const attempts = options.attempts ?? 3;

  const handle = async (topic: string, clientId: string, payload: Buffer): Promise<void> => {
    const input = { topic, clientId, payload, timestampMs: Date.now() };
    for (const rule of rules) {
      if (!topicMatches(rule.parsed.topicFilter, topic)) continue;
      const source = { topic, clientId, rule: rule.functionKey };
      let event: unknown;
      try {
        if (!ruleMatches(rule.parsed, input)) continue;
        event = ruleOutput(rule.parsed, input);
      } catch (error) {
        options.log(`rule ${rule.functionKey}: ${(error as Error).message}; message written to the dead letter`);
        await deadLetter.put([{ reason: 'RULE_SQL_FAILED', message: (error as Error).message, details: [], time: new Date().toISOString(), payloadBase64: payload.toString('base64'), source }]);
        continue;
      }
      let lastError: Error | undefined;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        try {
          await invoke(options.lambdaPort, rule.functionName, event);
          lastError = undefined;
          break;
        } catch (error) {
          lastError = error as Error;
        }
      }
      if (lastError) {
        options.log(`rule ${rule.functionKey}: invocation failed ${attempts} times (${lastError.message}); message written to the dead letter`);
        await deadLetter.put([{ reason: 'RULE_ACTION_FAILED', message: lastError.message, details: [{ attempts }], time: new Date().toISOString(), payloadBase64: payload.toString('base64'), source }]);
      }
    }
  };

  const maxInFlight = options.maxInFlight ?? 16;
  const inFlight = new Set<Promise<void>>();
  const idle = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };

  const broker = await Aedes.createBroker({
    // Runs before aedes sends the PUBACK: the message is taken in hand here and processed in the
    // background; only when too many are in flight does the acknowledgement wait for one to end.
    authorizePublish: (client, packet, done) => {
      if (!client || packet.topic.startsWith('$')) return done(null);
      const work: Promise<void> = handle(packet.topic, client.id, Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload))
        .catch((error: Error) => options.log(`rule processing failed unexpectedly: ${error.stack ?? error.message}`))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
      if (inFlight.size <= maxInFlight) return done(null);
      void Promise.race(inFlight).then(() => done(null));
    },
  });
  const server: Server = createServer((socket) => broker.handle(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    idle,
    close: async () => {
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      await idle();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await serverClosed;
    },
  };
}
