// fork and facet answer several result tables: on the Kusto routes each is a PrimaryResult table
// (v2 frames, v1 tables with the table of contents), as the official SDK reads them; the native
// /query/table answers one table and refuses them, naming the Kusto routes.
import { Client } from 'azure-kusto-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../lib/auth/caller';
import type { AppError } from '../../../lib/core/errors';
import { kustoQuery } from '../../../lib/kusto/service';
import type { QueryEngine } from '../../../lib/query-api/ports';
import { runTableQuery } from '../../../lib/query-api/service';
import { TELEMETRY_DDL } from '../../../lib/telemetry/duckdb-layout';
import { settings, trace } from './fixtures';
import { memoryEngine, type MemoryEngine } from '../../support/memory-engine';

const caller: Caller = { kind: 'jwt', customerId: 'acme', plantIds: ['p1'], allPlants: false, clientId: 'c1' };
const parseSdk = (json: string, kind: 'query' | 'queryv1') =>
  new Client('http://127.0.0.1:1')._parseResponse(JSON.parse(json), kind as never);

describe('fork and facet on the Kusto routes', () => {
  let memory: MemoryEngine;
  let engine: QueryEngine;
  beforeAll(async () => {
    memory = await memoryEngine({ ddl: TELEMETRY_DDL });
    engine = memory.engine;
  });
  afterAll(() => memory?.close());

  it('answers each fork leg as a PrimaryResult table named by name= or as (v2)', async () => {
    // Act
    const text = await kustoQuery(
      'v2',
      {
        db: 'acme',
        csl: 'range x from 1 to 5 step 1 | where x > 1 | fork (where x > 3) Counted = (summarize count()) (take 1 | as First)',
      },
      caller,
      engine,
      settings,
      trace,
    );
    // Assess
    const data = parseSdk(text, 'query');
    expect(data.primaryResults.map((t) => t.name)).toEqual(['PrimaryResult', 'Counted', 'First']);
    expect(data.primaryResults.map((t) => t.toJSON().data)).toEqual([
      [{ x: 4 }, { x: 5 }],
      [{ count_: 4 }],
      [{ x: 2 }],
    ]);
  });

  it('answers facet as its with table, then one count table per column (v1)', async () => {
    const text = await kustoQuery(
      'v1',
      {
        db: 'acme',
        csl: 'datatable(s:string, t:string)["a","x","a","y","b","x"] | facet by s, t with (where s == "a" | take 5)',
      },
      caller,
      engine,
      settings,
      trace,
    );
    const data = parseSdk(text, 'queryv1');
    expect(data.primaryResults).toHaveLength(3);
    const [withTable, s, t] = data.primaryResults.map((r) => r.toJSON().data);
    expect(withTable).toEqual([
      { s: 'a', t: 'x' },
      { s: 'a', t: 'y' },
    ]);
    expect(s).toEqual(
      expect.arrayContaining([
        { s: 'a', count_s: 2 },
        { s: 'b', count_s: 1 },
      ]),
    );
    expect(t).toEqual(
      expect.arrayContaining([
        { t: 'x', count_t: 2 },
        { t: 'y', count_t: 1 },
      ]),
    );
  });

  it("charges the compile budget only the legs' compile time, not the engine's run time", async () => {
    // Prepare: an engine slower than the whole compile budget (500 ms) per leg, and a query whose
    // compile reads the budget's clock (60 extends before the fork).
    const slow: QueryEngine = {
      dialect: 'duckdb',
      run: async (sql, types, sink, options) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        await engine.run(sql, types, sink, options);
      },
    };
    const extends_ = Array.from({ length: 60 }, (_, i) => `b${i + 1} = a + ${i + 1}`).join(', ');
    const csl = `print a = 1 | extend ${extends_} | fork (take 1) (take 2)`;
    // Act
    const text = await kustoQuery('v2', { db: 'acme', csl }, caller, slow, settings, trace);
    // Assess
    const tables = parseSdk(text, 'query').primaryResults.map((t) => t.toJSON().data);
    expect(tables).toEqual([[expect.objectContaining({ b60: 61 })], [expect.objectContaining({ b60: 61 })]]);
  });

  it('refuses fork on /query/table at the operator, naming the Kusto routes', async () => {
    const error = await runTableQuery(
      {
        query: 'print x = 1 | fork (take 1) (take 1)',
        startTime: '2026-03-01T00:00:00.000Z',
        endTime: '2026-03-02T00:00:00.000Z',
      },
      caller,
      engine,
      settings,
    ).then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    expect(error?.code).toBe('QUERY_UNSUPPORTED');
    expect(error?.message).toMatch(
      /^1:15: fork answers 2 result tables and this endpoint answers one; send the query to the Kusto protocol routes \(\/v2\/rest\/query/,
    );
  });
});
