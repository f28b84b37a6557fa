// The paced publishing loop of `gdm publish`: message k is due k/rate seconds after the start, each
// goes out with QoS 1, and the run ends at --count, --duration, the end of the source, or an abort.
// Counting is exact: every published message ends up acknowledged or failed.
import { performance } from 'node:perf_hooks';
import type { EdgeMessage } from '../../gdm/types';
import type { PublishCounts } from './publish-counts';

/** The part of an MQTT client the loop needs (mqtt.js MqttClient fits). */
export interface MessagePublisher {
  publishAsync(topic: string, message: string, options: { qos: 1 }): Promise<unknown>;
}

export interface PublishRun {
  readonly topic: string;
  /** Messages per second. */
  readonly rate: number;
  readonly count?: number;
  readonly durationMs?: number;
  /** How long to wait for outstanding acknowledgements at the end; the rest count as failed. */
  readonly ackTimeoutMs: number;
  /** The next edge message, or undefined when the source is exhausted. */
  readonly next: (now: Date) => EdgeMessage | undefined;
  readonly signal?: AbortSignal;
  readonly onProgress?: (counts: PublishCounts, elapsedMs: number) => void;
  /** Called for each failed publish with its error, e.g. to print the first one. */
  readonly onFailure?: (error: unknown) => void;
}

export interface PublishResult extends PublishCounts {
  readonly elapsedMs: number;
}

/** Longest sleep between wake-ups, so progress and aborts are seen promptly even at low rates. */
const MAX_SLEEP_MS = 250;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function publishMessages(client: MessagePublisher, run: PublishRun): Promise<PublishResult> {
  const start = performance.now();
  const elapsed = (): number => performance.now() - start;
  const counts = { published: 0, acknowledged: 0, failed: 0 };
  const pending = new Set<Promise<void>>();
  let closed = false;

  const finished = (): boolean =>
    run.signal?.aborted === true ||
    (run.count !== undefined && counts.published >= run.count) ||
    (run.durationMs !== undefined && elapsed() >= run.durationMs);

  const send = (message: EdgeMessage): void => {
    const settle = client.publishAsync(run.topic, JSON.stringify(message), { qos: 1 }).then(
      () => {
        if (!closed) counts.acknowledged++;
      },
      (error: unknown) => {
        if (closed) return;
        counts.failed++;
        run.onFailure?.(error);
      },
    );
    const tracked: Promise<void> = settle.finally(() => pending.delete(tracked));
    pending.add(tracked);
    counts.published++;
  };

  let exhausted = false;
  while (!exhausted && !finished()) {
    const due = Math.floor((elapsed() * run.rate) / 1000) + 1;
    while (counts.published < due && !finished()) {
      const message = run.next(new Date());
      if (message === undefined) {
        exhausted = true;
        break;
      }
      send(message);
    }
    run.onProgress?.({ ...counts }, elapsed());
    if (exhausted || finished()) break;
    const nextDueMs = (counts.published * 1000) / run.rate;
    await sleep(Math.min(MAX_SLEEP_MS, Math.max(1, nextDueMs - elapsed())), run.signal);
  }

  // Drain: wait for outstanding acknowledgements, then count what is still missing as failed.
  const drainStart = elapsed();
  while (pending.size > 0 && elapsed() - drainStart < run.ackTimeoutMs) {
    await Promise.race([Promise.allSettled([...pending]), sleep(MAX_SLEEP_MS, undefined)]);
    run.onProgress?.({ ...counts }, elapsed());
  }
  closed = true;
  counts.failed += pending.size;
  return { ...counts, elapsedMs: elapsed() };
}
