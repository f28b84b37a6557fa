// Issue 15: the cost of scan and row_window_session on DuckDB against the rows they walk, to show
// it grows linearly (sql/scan.ts walks blocks of chunks with list_reduce; before, one recursive-CTE
// step per row, quadratic). Cases: a one-step running sum, a three-step funnel with a match id and
// output=last, and row_window_session, each over 2k/10k/50k/200k rows of `range` (the funnel up to 50k,
// row_window_session up to 10k; 2k and 10k with
// --quick), one run each after one small warm-up, compiled SQL on an in-memory DuckDB with its
// default threads. The load average beside each figure: the machine is shared.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { compile, type CompileOptions } from '../lib/query';
import { baseOptions } from '../test/unit/query/compile-failure';
import type { Benchmark, BenchRow } from './harness';

// The compiler tests' options (range rows read no table, so the scope does not matter here).
const options: CompileOptions = { ...baseOptions, dialect: 'duckdb', rowLimit: 10_000 };

const CASES: readonly { name: string; kql: (rows: number) => string; maxRows?: number }[] = [
  {
    name: 'scan one-step running sum',
    kql: (rows) =>
      `range x from 1 to ${rows} step 1 | scan declare (s:long=0) with (step a: true => s = a.s + x) | summarize n = count(), m = max(s)`,
  },
  {
    name: 'scan three-step funnel',
    // Its walk's per-row expression is several times the one-step one (each step reads the state of
    // the one before): 200,000 rows took over 20 minutes on the loaded development machine.
    maxRows: 50_000,
    kql: (rows) =>
      `range x from 1 to ${rows} step 1 | extend e = x % 7 | scan with_match_id=id declare (t:long) with (` +
      `step s1 output=last: e == 0 => t = x; step s2: e == 3 and x - s1.t < 20; step s3: e == 5 and x - s1.t < 20 => t = x - s2.t) ` +
      `| summarize n = count(), ids = dcount(id), tt = sum(t)`,
  },
  {
    name: 'row_window_session',
    kql: (rows) =>
      `range x from 1 to ${rows} step 1 | extend t = datetime(2024-01-01) + x * 1m | order by x asc | extend s = row_window_session(t, 20m, 5m) | summarize n = count(), ss = dcount(s)`,
    // One group of rows a minute apart, a session every 20 rows: its recursion takes a step per
    // session and each step reads the group again: 5 times the rows took 13 times as long (2k to 10k).
    maxRows: 10_000,
  },
];

const bench: Benchmark = {
  name: 'query-scan',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const sizes = ctx.quick ? [2_000, 10_000] : [2_000, 10_000, 50_000, 200_000];
    for (const c of CASES) {
      await connection.run(compile(c.kql(100), options).sql);
      for (const size of sizes.filter((n) => n <= (c.maxRows ?? Infinity))) {
        const { sql } = compile(c.kql(size), options);
        const load = loadavg()[0]!.toFixed(1);
        ctx.progress(`${c.name}, ${size} rows (load ${load})`);
        const start = performance.now();
        const result = await connection.runAndReadAll(sql);
        const ms = performance.now() - start;
        ctx.progress(`  ${Math.round(ms).toLocaleString('en-US')} ms (load ${loadavg()[0]!.toFixed(1)} at end)`);
        rows.push({
          case: `${c.name}, ${size.toLocaleString('en-US')} rows`,
          metric: 'ms (one run)',
          value: ms,
          note: `load ${load} at start, ${loadavg()[0]!.toFixed(1)} at end; result ${JSON.stringify(result.getRows()[0], (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))}`,
        });
      }
    }
    connection.closeSync();
    return rows;
  },
};

export default bench;
