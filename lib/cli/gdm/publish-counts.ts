// What a `gdm publish` run has done so far, in the words its progress line and summary use.

export interface PublishCounts {
  /** Handed to the MQTT client. */
  readonly published: number;
  /** Acknowledged by the broker (PUBACK, QoS 1). */
  readonly acknowledged: number;
  /** Rejected, or not acknowledged before the end. */
  readonly failed: number;
}

/** The known ends of a run: --count or a finite file, and --duration. */
export interface PublishLimits {
  readonly total?: number;
  readonly durationMs?: number;
}

/** The share done by whichever limit is nearer, or undefined for an open-ended run. */
export function shareDone(counts: PublishCounts, elapsedMs: number, limits: PublishLimits): number | undefined {
  const parts: number[] = [];
  if (limits.total !== undefined) parts.push(counts.published / limits.total);
  if (limits.durationMs !== undefined) parts.push(elapsedMs / limits.durationMs);
  return parts.length === 0 ? undefined : Math.min(1, Math.max(...parts));
}

export function rateOf(counts: PublishCounts, elapsedMs: number): number {
  return elapsedMs <= 0 ? 0 : (counts.published * 1000) / elapsedMs;
}

/** `published 10/20, acknowledged 9, failed 1, 5.0 msg/s, 2.0 s` (no `/20` without a total). */
export function describeCounts(counts: PublishCounts, elapsedMs: number, limits: PublishLimits): string {
  const of = limits.total === undefined ? '' : `/${limits.total}`;
  return (
    `published ${counts.published}${of}, acknowledged ${counts.acknowledged}, failed ${counts.failed}, ` +
    `${rateOf(counts, elapsedMs).toFixed(1)} msg/s, ${(elapsedMs / 1000).toFixed(1)} s`
  );
}
