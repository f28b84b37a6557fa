// Issue 12: how the compiler's limits were chosen. DuckDB cannot interrupt the planning of a query
// (a 900-term sum planned for 15-29 s and ignored the time limit), so the compiler must never
// produce SQL that is slow to plan. This measures DuckDB's planning time (EXPLAIN of the compiled
// SQL on an empty in-memory database with the telemetry DDL) against the nesting depth of an
// expression in several shapes, the terms of one expression, and the operators stacked on a source,
// below, at and above each default limit (queries past a limit are compiled with the limit raised).
// It also times compile() at the limits and the worst "did you mean" hint.
import { performance } from 'node:perf_hooks';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { TELEMETRY_DDL } from '../lib/telemetry/duckdb-layout';
import { compile, DEFAULT_QUERY_LIMITS, type CompileOptions, type QueryLimits } from '../lib/query';
import { closest, HINT_MAX_CANDIDATES, HINT_MAX_NAME_LENGTH } from '../lib/query/naming';
import {
  costlyItems,
  DEPTH_SHAPES,
  inListTerms,
  orChain,
  queriesAtLimits,
  repeatingSql,
  stackedOperators,
} from '../test/unit/query/limit-queries';
import { percentile, type Benchmark, type BenchRow } from './harness';

const L = DEFAULT_QUERY_LIMITS;

const options = (limits: Partial<QueryLimits> = {}): CompileOptions => ({
  dialect: 'duckdb',
  scope: {
    customerId: 'cust-a',
    plantIds: ['plant-1'],
    startTime: '2024-03-01T00:00:00.000Z',
    endTime: '2024-03-02T00:00:00.000Z',
  },
  now: new Date('2024-03-01T12:00:00.000Z'),
  rowLimit: 10_000,
  limits: { compileBudgetMs: 600_000, ...limits },
});

/** Raised limits for the points past a default (they show the curve, and why the default is where it is). */
const RAISED: Partial<QueryLimits> = {
  maxDepth: 10_000,
  maxTerms: 1_000_000,
  maxQueryTerms: 10_000_000,
  maxSqlLength: 100_000_000,
  maxQueryLength: 10_000_000,
};

async function planMs(connection: DuckDBConnection, sql: string, runs: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await connection.run(`EXPLAIN ${sql}`);
    samples.push(performance.now() - start);
  }
  return percentile(samples, 50);
}

const verdict = (value: number, limit: number): string =>
  value > limit ? `past the limit (${limit})` : value === limit ? 'at the limit' : 'accepted';

const bench: Benchmark = {
  name: 'query-limits',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    for (const ddl of TELEMETRY_DDL) await connection.run(ddl);
    const runs = ctx.quick ? 1 : 3;

    const plan = async (label: string, kql: string, note: string): Promise<void> => {
      const sql = compile(kql, options(RAISED)).sql;
      const ms = await planMs(connection, sql, runs);
      rows.push({
        case: label,
        metric: 'DuckDB plan ms (p50)',
        value: ms,
        note: `${note}; ${sql.length.toLocaleString('en-US')} SQL chars`,
      });
    };

    // Depth: every shape below, at and past the default.
    const depths = ctx.quick ? [L.maxDepth, 2 * L.maxDepth] : [16, 32, L.maxDepth, 96, 2 * L.maxDepth];
    for (const [shape, build] of Object.entries(DEPTH_SHAPES)) {
      for (const d of depths) {
        await plan(`depth ${d}: ${shape}`, build(d), verdict(d, L.maxDepth));
      }
      ctx.progress(`depth: ${shape}`);
    }

    // Terms of one expression: flat lists (IN) and and/or chains, which engines read as lists.
    for (const t of ctx.quick ? [L.maxTerms] : [500, 1000, L.maxTerms, 2 * L.maxTerms, 4 * L.maxTerms]) {
      await plan(`${t} terms: in list`, inListTerms(t), verdict(t, L.maxTerms));
      const k = Math.floor((t + 1) / 4);
      await plan(`${4 * k - 1} terms: or chain of ${k}`, orChain(k), verdict(4 * k - 1, L.maxTerms));
    }
    ctx.progress('terms');

    // Operators stacked on one source: each may be a subquery.
    for (const n of ctx.quick ? [L.maxDepth] : [16, L.maxDepth, 2 * L.maxDepth, 4 * L.maxDepth]) {
      await plan(`${n} stacked operators`, stackedOperators(n), verdict(n, L.maxDepth));
    }
    ctx.progress('stacked operators');

    // The whole query: as many of the costliest expressions as its terms allow (each counts at
    // least its depth squared), at several depths; then past the limit. And SQL that grows by
    // repetition, up to and past the size limit.
    for (const depth of ctx.quick ? [L.maxDepth] : [8, 16, 32, L.maxDepth]) {
      // Each column: its weight, and 2 more as a column passed on; so many fit in the limit.
      const allowed = Math.floor((L.maxQueryTerms - 2) / (Math.max(2 * depth + 1, depth * depth) + 2));
      for (const items of ctx.quick ? [allowed] : [allowed, 4 * allowed]) {
        await plan(
          `${items} costliest columns ${depth} deep`,
          costlyItems(items, depth),
          items > allowed
            ? `past the query terms limit (${L.maxQueryTerms})`
            : 'as many as the query terms limit allows',
        );
      }
    }
    for (const levels of ctx.quick ? [3] : [2, 3, 4]) {
      const kql = repeatingSql(levels);
      const length = compile(kql, options(RAISED)).sql.length;
      await plan(
        `tostring(parse_json()) nested ${levels} times`,
        kql,
        verdict(length, L.maxSqlLength).replace('limit', 'SQL size limit'),
      );
    }
    ctx.progress('whole query');

    // compile() itself at every limit (default limits and budget), and the worst hint.
    for (const [name, kql] of Object.entries(queriesAtLimits(L))) {
      const samples: number[] = [];
      for (let i = 0; i < (ctx.quick ? 3 : 20); i++) {
        const start = performance.now();
        compile(kql, { ...options(), limits: {} });
        samples.push(performance.now() - start);
      }
      rows.push({
        case: `compile, ${name}`,
        metric: 'compile ms (p50)',
        value: percentile(samples, 50),
        note: `${kql.length.toLocaleString('en-US')} query chars`,
      });
    }
    const name = 'x'.repeat(HINT_MAX_NAME_LENGTH);
    const candidates = Array.from(
      { length: 10 * HINT_MAX_CANDIDATES },
      (_, i) => `${'y'.repeat(HINT_MAX_NAME_LENGTH - 4)}${String(i).padStart(4, '0')}`,
    );
    for (let i = 0; i < 50; i++) closest(name, candidates); // warm-up
    const hints: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const start = performance.now();
      closest(name, candidates);
      hints.push((performance.now() - start) * 1000);
    }
    for (const p of [50, 99]) {
      rows.push({
        case: `did-you-mean hint, ${HINT_MAX_NAME_LENGTH}-char name vs ${candidates.length} near-length candidates`,
        metric: `µs (p${p})`,
        value: percentile(hints, p),
        note: `the worst case the bounds allow (${HINT_MAX_CANDIDATES} distances)`,
      });
    }
    connection.closeSync();
    instance.closeSync();
    return rows;
  },
};

export default bench;
