// Progress of `gdm publish` on stderr: a redrawn bar on a terminal, periodic plain lines otherwise
// (so logs of a CI job or a service manager stay readable).

export interface PublishCounts {
  /** Handed to the MQTT client. */
  readonly published: number;
  /** Acknowledged by the broker (PUBACK, QoS 1). */
  readonly acknowledged: number;
  /** Rejected, or not acknowledged before the end. */
  readonly failed: number;
}

export interface ProgressTarget {
  /** Messages to publish, when known (--count or a finite file). */
  readonly total?: number;
  /** Run length, when known (--duration). */
  readonly durationMs?: number;
}

const BAR_WIDTH = 24;
const TTY_INTERVAL_MS = 200;
const PLAIN_INTERVAL_MS = 5000;

function fraction(counts: PublishCounts, elapsedMs: number, target: ProgressTarget): number | undefined {
  const parts: number[] = [];
  if (target.total !== undefined) parts.push(counts.published / target.total);
  if (target.durationMs !== undefined) parts.push(elapsedMs / target.durationMs);
  return parts.length === 0 ? undefined : Math.min(1, Math.max(...parts));
}

export function rateOf(counts: PublishCounts, elapsedMs: number): number {
  return elapsedMs <= 0 ? 0 : (counts.published * 1000) / elapsedMs;
}

/** One line of counts; with `bar`, prefixed by a bar when the end is known. */
export function formatProgress(counts: PublishCounts, elapsedMs: number, target: ProgressTarget, bar: boolean): string {
  const done = fraction(counts, elapsedMs, target);
  const filled = done === undefined ? 0 : Math.round(done * BAR_WIDTH);
  const head = bar && done !== undefined ? `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(done * 100)}% ` : '';
  const of = target.total === undefined ? '' : `/${target.total}`;
  return (
    `${head}published ${counts.published}${of}, acknowledged ${counts.acknowledged}, failed ${counts.failed}, ` +
    `${rateOf(counts, elapsedMs).toFixed(1)} msg/s, ${(elapsedMs / 1000).toFixed(1)} s`
  );
}

export interface ProgressReporter {
  update(counts: PublishCounts, elapsedMs: number): void;
  /** Ends the redrawn line so the summary starts on a fresh one. */
  finish(counts: PublishCounts, elapsedMs: number): void;
}

export function createProgressReporter(stderr: { write(text: string): unknown; readonly isTTY?: boolean }, target: ProgressTarget): ProgressReporter {
  const tty = stderr.isTTY === true;
  const interval = tty ? TTY_INTERVAL_MS : PLAIN_INTERVAL_MS;
  let lastAt = 0;
  let drawn = false;
  return {
    update(counts, elapsedMs) {
      if (elapsedMs - lastAt < interval) return;
      lastAt = elapsedMs;
      if (tty) {
        stderr.write(`\r\x1b[K${formatProgress(counts, elapsedMs, target, true)}`);
        drawn = true;
      } else {
        stderr.write(`gdm publish: ${formatProgress(counts, elapsedMs, target, false)}\n`);
      }
    },
    finish(counts, elapsedMs) {
      if (tty && drawn) stderr.write(`\r\x1b[K${formatProgress(counts, elapsedMs, target, true)}\n`);
    },
  };
}
