// Shared vocabulary for benchmarks: every bench/*.bench.ts default-exports a Benchmark.
import { performance } from 'node:perf_hooks';

export interface BenchRow {
  /** What was measured, e.g. "validate+enrich 10x10 message". */
  readonly case: string;
  /** The figure's name, e.g. "messages/s" or "p99 ms". */
  readonly metric: string;
  readonly value: number;
  /** Optional context: the floor it is compared with, the goal, a ratio. */
  readonly note?: string;
}

export interface BenchContext {
  /** Prints a progress line to stderr (the table goes to stdout at the end). */
  progress(message: string): void;
  /** True when `npm run bench -- --quick`: benchmarks shrink their sizes for a smoke run. */
  readonly quick: boolean;
}

export interface Benchmark {
  readonly name: string;
  run(ctx: BenchContext): Promise<readonly BenchRow[]>;
}

/** Runs fn repeatedly for at least minMs after a warm-up; returns operations per second. */
export function opsPerSecond(fn: () => unknown, minMs = 1000): number {
  const warmUntil = performance.now() + Math.min(200, minMs / 5);
  while (performance.now() < warmUntil) fn();
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    for (let i = 0; i < 100; i++) fn();
    ops += 100;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

/** Async variant of opsPerSecond, one call at a time. */
export async function opsPerSecondAsync(fn: () => Promise<unknown>, minMs = 1000): Promise<number> {
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    await fn();
    ops += 1;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

/** Nearest-rank percentile of a list of samples (p in 0..100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}
