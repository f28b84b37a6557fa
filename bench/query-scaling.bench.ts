// Issue 15: DuckDB checks for an interrupt between vectors, not inside one function call on one
// value, so a function whose cost on ONE value grows faster than its size keeps a thread busy past
// the query's time limit. This times the functions rewritten to linear cost (hash, countof,
// indexof, array_index_of, set_*, zip, array_rotate/shift, repeat) on one value of size n and 4n and
// prints the growth: about 4 is linear, 16 quadratic. The time includes building the argument
// (strrep, range), which is linear itself. Compiled SQL on an in-memory DuckDB, one run each after a
// warm-up at the smaller size; the load average is beside each figure: the machine is shared.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { compile, type CompileOptions } from '../lib/query';
import { baseOptions } from '../test/unit/query/compile-failure';
import type { Benchmark, BenchRow } from './harness';

const options: CompileOptions = { ...baseOptions, dialect: 'duckdb' };

const text = (bytes: number): string => `strrep("abcdefgh", ${bytes / 8})`;
const array = (n: number): string => `range(1, ${n})`;

/** Each case's one-row expression at size n, and its smaller size (full run; --quick divides by 4). */
const CASES: readonly { name: string; n: number; expr: (n: number) => string }[] = [
  { name: 'hash(string), bytes', n: 262_144, expr: (n) => `hash(${text(n)})` },
  { name: 'countof(string, "cd"), bytes', n: 262_144, expr: (n) => `countof(${text(n)}, "cd")` },
  {
    name: 'indexof(string, "h", 0, -1, last), bytes',
    n: 262_144,
    expr: (n) => `indexof(${text(n)}, "h", 0, -1, ${n / 8})`,
  },
  { name: 'array_index_of(array, last), elements', n: 65_536, expr: (n) => `array_index_of(${array(n)}, ${n - 1})` },
  { name: 'set_union(a, a), elements', n: 16_384, expr: (n) => `array_length(set_union(${array(n)}, ${array(n)}))` },
  {
    name: 'set_intersect(a, a), elements',
    n: 16_384,
    expr: (n) => `array_length(set_intersect(${array(n)}, ${array(n)}))`,
  },
  { name: 'zip(a, a), elements', n: 65_536, expr: (n) => `array_length(zip(${array(n)}, ${array(n)}))` },
  {
    name: 'array_rotate_left(a, 3), elements',
    n: 65_536,
    expr: (n) => `array_length(array_rotate_left(${array(n)}, 3))`,
  },
  {
    name: 'array_shift_right(a, 3, 4 KB fill), elements',
    n: 65_536,
    expr: (n) => `array_length(array_shift_right(${array(n)}, 3, ${text(4096)}))`,
  },
  { name: 'repeat(64-byte string, n)', n: 65_536, expr: (n) => `array_length(repeat(${text(64)}, ${n}))` },
];

async function timed(connection: DuckDBConnection, sql: string): Promise<number> {
  const start = performance.now();
  await connection.runAndReadAll(sql);
  return performance.now() - start;
}

const bench: Benchmark = {
  name: 'query-scaling',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const sqlOf = (expr: string): string => compile(`print x = ${expr}`, options).sql;
    for (const c of CASES) {
      const n = ctx.quick ? c.n / 4 : c.n;
      await connection.run(sqlOf(c.expr(n / 16)));
      const load = loadavg()[0]!.toFixed(1);
      ctx.progress(`${c.name} at ${n.toLocaleString('en-US')} and ${(4 * n).toLocaleString('en-US')} (load ${load})`);
      const small = await timed(connection, sqlOf(c.expr(n)));
      const large = await timed(connection, sqlOf(c.expr(4 * n)));
      rows.push({
        case: `${c.name}: ${n.toLocaleString('en-US')} -> ${(4 * n).toLocaleString('en-US')}`,
        metric: 'growth for 4x the size',
        value: large / small,
        note: `${small.toFixed(0)} ms -> ${large.toFixed(0)} ms (4 is linear, 16 quadratic); load ${load} at start, ${loadavg()[0]!.toFixed(1)} at end`,
      });
    }
    connection.closeSync();
    return rows;
  },
};

export default bench;
