// The service's two passes for plugins whose columns come from the data (evaluate bag_unpack and
// pivot without an output schema): the key discovery runs on the engine inside the query's scope,
// place and time limit, then the query runs with the keys it found.
import { DuckDBInstance } from '@duckdb/node-api';
import { PLAN_OPTIONS } from '../../../lib/adapters/duckdb/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../lib/auth/caller';
import type { AppError } from '../../../lib/core/errors';
import { convertRows } from '../../../lib/query';
import type { QueryEngine } from '../../../lib/query-api/ports';
import { explainQuery, runTableQuery } from '../../../lib/query-api/service';
import { TELEMETRY_DDL } from '../../../lib/telemetry/duckdb-layout';

const limited: Caller = { kind: 'jwt', customerId: 'acme', plantIds: ['p1', 'p2'], allPlants: false, clientId: 'c1' };
const body = (query: string) => ({
  query,
  startTime: '2026-01-01T00:00:00.000Z',
  endTime: '2026-01-02T00:00:00.000Z',
});
const settings = { rowLimit: 100, timeoutMs: 5000, maxWindowDays: 31, now: () => new Date('2026-01-01T12:00:00Z') };
const failure = (p: Promise<unknown>): Promise<AppError> =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e as AppError,
  );

describe('key discovery of evaluate bag_unpack / pivot in the query service', () => {
  let instance: DuckDBInstance;
  let engine: QueryEngine;
  let runs: string[];
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:', { ...PLAN_OPTIONS });
    const c = await instance.connect();
    for (const ddl of TELEMETRY_DDL) await c.run(ddl);
    const rows: [string, string, string, string][] = [
      ['acme', 'p1', 'a', '2026-01-01 01:00:00'],
      ['acme', 'p2', 'b', '2026-01-01 02:00:00'],
      ['acme', 'p3', 'c', '2026-01-01 03:00:00'],
      ['acme', 'p1', 'd', '2026-01-01 04:00:00'],
      ['acme', 'p1', 'e', '2026-01-03 00:00:00'],
      ['other', 'p1', 'z', '2026-01-01 05:00:00'],
    ];
    for (const [customer, plant, name, ts] of rows)
      await c.run(
        `INSERT INTO "States" ("CustomerId", "Timestamp", "PlantId", "Name", "Value") VALUES ('${customer}', TIMESTAMP '${ts}', '${plant}', '${name}', '1')`,
      );
    engine = {
      dialect: 'duckdb',
      run: async (sql, types, sink, options) => {
        options.signal.throwIfAborted();
        runs.push(sql);
        for (const row of convertRows((await c.runAndReadAll(sql)).getRowsJson() as unknown[][], [...types]))
          if (!sink.push(row)) return;
      },
    };
  });
  afterAll(() => instance?.closeSync());

  it("unpacks the slots found in the caller's rows only, in sorted order, in two engine runs", async () => {
    // Prepare
    runs = [];
    // Act
    const result = await runTableQuery(
      body('States | project Name | extend b = bag_pack(Name, 1) | evaluate bag_unpack(b)'),
      limited,
      engine,
      settings,
    );
    // Assess: c is another plant's, e outside the window, z another customer's.
    expect(result.data.columns.map((c) => [c.name, c.columnType])).toEqual([
      ['Name', 'string'],
      ['a', 'long'],
      ['b', 'long'],
      ['d', 'long'],
    ]);
    expect(result.data.rows).toHaveLength(3);
    expect(runs).toHaveLength(2);
    for (const sql of runs) expect(sql).toContain("'acme'");
  });

  it('pivots on the values found, in the order of their first row, and runs a query with two plugins in three runs', async () => {
    runs = [];
    const result = await runTableQuery(
      body(
        'States | project PlantId, Name | evaluate pivot(PlantId) | extend bag = bag_pack("k", Name) | evaluate bag_unpack(bag, "x_")',
      ),
      limited,
      engine,
      settings,
    );
    expect(result.data.columns.map((c) => c.name)).toEqual(['Name', 'p1', 'p2', 'x_k']);
    expect(result.data.rows).toEqual(
      expect.arrayContaining([
        ['a', 1, 0, 'a'],
        ['b', 0, 1, 'b'],
        ['d', 1, 0, 'd'],
      ]),
    );
    expect(runs).toHaveLength(3);
  });

  it('refuses more than 1,000 keys with a positioned 400 asking for the output schema', async () => {
    const error = await failure(
      runTableQuery(body('range x from 1 to 1001 step 1 | evaluate pivot(x)'), limited, engine, settings),
    );
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^1:42: evaluate pivot found more than 1000 distinct values; give the output schema/);
    expect(error.data).toEqual([{ line: 1, column: 42, start: 41, end: 46 }]);
  });

  it('refuses keys taking more than 1 MB with QUERY_RESULT_TOO_LARGE', async () => {
    const error = await failure(
      runTableQuery(
        body('range x from 1 to 999 step 1 | extend p = strcat(strrep("k", 2000), x) | evaluate pivot(p)'),
        limited,
        engine,
        settings,
      ),
    );
    expect(error.code).toBe('QUERY_RESULT_TOO_LARGE');
  });

  it('stops at the time limit during the discovery, and never runs the query itself', async () => {
    runs = [];
    const slow: QueryEngine = {
      dialect: 'duckdb',
      run: (sql, types, sink, options) =>
        new Promise((_, reject) => {
          runs.push(sql);
          options.signal.addEventListener('abort', () => reject(options.signal.reason as Error));
        }),
    };
    const error = await failure(
      runTableQuery(body('print d = dynamic({"a": 1}) | evaluate bag_unpack(d)'), limited, slow, {
        ...settings,
        timeoutMs: 50,
      }),
    );
    expect(error.code).toBe('QUERY_TIMEOUT');
    expect(runs).toHaveLength(1);
  });

  it('explains a schema-less plugin with a positioned 400 asking for the output schema', () => {
    const explain = () =>
      explainQuery(
        body('print d = dynamic({"a": 1}) | evaluate bag_unpack(d)'),
        limited,
        { dialect: 'duckdb', run: () => Promise.reject(new Error('must not run')) },
        settings,
      );
    expect(explain).toThrow(/^1:40: evaluate bag_unpack without an output schema .* give the output schema/);
  });
});
