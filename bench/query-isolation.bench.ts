// Issue 12: one slow query must never delay another client. On the offline stack, p50/p99 of
// `print 1` (a client of its own) and of GET /health, first with no other load, then while 4 slow
// queries run, each from another client of the same customer and each re-sent as soon as it ends
// (so 4 are always in the engine). Every answer's status is counted: the goal is 200 for every
// `print 1` and /health, whatever the slow queries get (their 504 at the time limit).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { startOfflineStack, type OfflineStack } from '../test/support/offline-stack';
import { extraQueryClients } from '../test/support/query-clients';
import { demoAccess, query } from '../test/support/stack-client';
import { percentile, type Benchmark, type BenchRow } from './harness';

const WINDOW = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-02T00:00:00.000Z' };
/** About 1e11 rows to count: runs until the time limit stops it. */
const SLOW = 'range x from 1 to 100000000000 step 1 | summarize count()';
const SLOW_QUERIES = 4;

interface Sample {
  readonly ms: number;
  readonly status: number;
}

async function timed(fn: () => Promise<number>): Promise<Sample> {
  const started = performance.now();
  const status = await fn().catch(() => 0); // 0: no answer (connection error or client-side timeout)
  return { ms: performance.now() - started, status };
}

async function printOne(stack: OfflineStack, token: string): Promise<number> {
  const answer = await query(stack, token, 'print 1', WINDOW);
  return answer.status;
}

async function health(stack: OfflineStack): Promise<number> {
  const response = await fetch(`${stack.httpUrl}/health`, { signal: AbortSignal.timeout(35_000) });
  await response.arrayBuffer();
  return response.status;
}

/** `count` rounds of one `print 1` then one /health, one request at a time. */
async function sample(
  stack: OfflineStack,
  token: string,
  count: number,
): Promise<{ print: Sample[]; health: Sample[] }> {
  const print: Sample[] = [];
  const healthSamples: Sample[] = [];
  for (let i = 0; i < count; i++) {
    print.push(await timed(() => printOne(stack, token)));
    healthSamples.push(await timed(() => health(stack)));
  }
  return { print, health: healthSamples };
}

function statuses(samples: readonly Sample[]): string {
  const counts = new Map<number, number>();
  for (const s of samples) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status === 0 ? 'no answer' : status} x${n}`)
    .join(', ');
}

function rowsOf(label: string, samples: readonly Sample[]): BenchRow[] {
  const ms = samples.map((s) => s.ms);
  const bad = samples.filter((s) => s.status !== 200).length;
  return [
    { case: label, metric: 'p50 ms', value: percentile(ms, 50) },
    {
      case: label,
      metric: 'p99 ms',
      value: percentile(ms, 99),
      note: `${samples.length} requests: ${statuses(samples)}`,
    },
    { case: label, metric: 'answers not 200', value: bad },
  ];
}

const bench: Benchmark = {
  name: 'query-isolation',
  async run(ctx) {
    const rounds = ctx.quick ? 15 : 60;
    const loadBefore = loadavg()[0] ?? Number.NaN;
    ctx.progress('starting the offline stack');
    const stack = await startOfflineStack();
    try {
      const { accessToken } = await demoAccess(stack);
      const slowClients = await extraQueryClients(stack, 'demo', SLOW_QUERIES);
      await sample(stack, accessToken, 3); // warm-up: every function loaded once

      ctx.progress(`${rounds} rounds of print 1 + /health, no other load`);
      const idle = await sample(stack, accessToken, rounds);

      ctx.progress(`${rounds} rounds of print 1 + /health while ${SLOW_QUERIES} slow queries run`);
      let stop = false;
      const slow: Sample[] = [];
      const workers = slowClients.map(async (client) => {
        while (!stop) slow.push(await timed(async () => (await query(stack, client.accessToken, SLOW, WINDOW)).status));
      });
      await new Promise((r) => setTimeout(r, 1500)); // the slow queries are in the engine
      const loaded = await sample(stack, accessToken, rounds);
      stop = true;
      ctx.progress('waiting for the slow queries to end');
      await Promise.all(workers);
      const loadAfter = loadavg()[0] ?? Number.NaN;

      return [
        ...rowsOf('print 1 (another client), no slow query', idle.print),
        ...rowsOf('/health, no slow query', idle.health),
        ...rowsOf(`print 1 (another client), ${SLOW_QUERIES} slow queries running`, loaded.print),
        ...rowsOf(`/health, ${SLOW_QUERIES} slow queries running`, loaded.health),
        { case: `the ${SLOW_QUERIES} slow queries`, metric: 'answers', value: slow.length, note: statuses(slow) },
        {
          case: 'machine load',
          metric: '1-min load average',
          value: loadBefore,
          note: `before the run; ${loadAfter.toFixed(2)} after`,
        },
      ];
    } finally {
      await stack.stop();
    }
  },
};

export default bench;
