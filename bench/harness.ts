// Shared vocabulary for benchmarks: every bench/*.bench.ts default-exports a Benchmark.
import { Bench } from 'tinybench';
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

/** What tinybench measured of one function: operations per second and the time per call. */
export interface MicroResult {
  readonly hz: number;
  /** Median and 99th percentile of the time of one call, in microseconds. */
  readonly p50Us: number;
  readonly p99Us: number;
}

/**
 * Micro-benchmarks through tinybench (the library vitest's bench uses): each function warmed up,
 * then called for at least minMs; the tasks run one after the other in one process.
 */
export async function micro(
  tasks: Readonly<Record<string, () => unknown>>,
  minMs = 1000,
): Promise<Record<string, MicroResult>> {
  const bench = new Bench({ time: minMs, warmupTime: Math.min(200, minMs / 5), throws: true });
  for (const [name, fn] of Object.entries(tasks)) bench.add(name, fn);
  await bench.warmup();
  await bench.run();
  const results: Record<string, MicroResult> = {};
  for (const task of bench.tasks) {
    const r = task.result;
    if (!r) throw new Error(`benchmark task ${task.name} produced no result`);
    results[task.name] = { hz: r.hz, p50Us: percentile(r.samples, 50) * 1000, p99Us: r.p99 * 1000 };
  }
  return results;
}

/** Operations per second of one function (tinybench). */
export async function opsPerSecond(fn: () => unknown, minMs = 1000): Promise<number> {
  return (await micro({ task: fn }, minMs)).task!.hz;
}

/** Nearest-rank percentile of a list of samples (p in 0..100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Wall and process CPU time (user + system, every thread of the process) of each call, in ms. */
export interface TimedSamples {
  readonly wallMs: number[];
  readonly cpuMs: number[];
}

export interface InterleavedOptions {
  /**
   * Untimed rounds before the timed ones (default 1). More for JavaScript that V8 has to warm up
   * first (a large compiler runs interpreted for its first calls), so that a short run times the
   * steady state of a warm process, not its first minute.
   */
  readonly warmupRounds?: number;
}

/**
 * Times several variants of one piece of work in rounds, each round running every variant once in
 * turn, after warm-up rounds (one by default). On a shared machine the load drifts over minutes: timed
 * one after another, two variants would see different loads and their ratio would measure the
 * drift; interleaved, each round's variants see about the same load. CPU time (which counts the
 * engine's worker threads too, as they are threads of this process) hardly depends on the load.
 */
export async function interleaved<K extends string>(
  runs: number,
  variants: Readonly<Record<K, () => Promise<unknown>>>,
  options: InterleavedOptions = {},
): Promise<Record<K, TimedSamples>> {
  const names = Object.keys(variants) as K[];
  const samples = Object.fromEntries(names.map((n) => [n, { wallMs: [], cpuMs: [] }])) as unknown as Record<
    K,
    TimedSamples
  >;
  for (let round = 0; round < (options.warmupRounds ?? 1); round++) {
    for (const name of names) await variants[name]();
  }
  for (let round = 0; round < runs; round++) {
    for (const name of names) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      await variants[name]();
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpu);
      samples[name].wallMs.push(wall);
      samples[name].cpuMs.push((used.user + used.system) / 1000);
    }
  }
  return samples;
}
