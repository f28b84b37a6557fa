// Batches on the Kusto routes (https://learn.microsoft.com/kusto/query/batches): one PrimaryResult
// table per tabular statement, in statement order, named by a closing `as` (v2 frames; v1 tables
// with the table of contents), as the official SDK reads them; the tables share the time limit of
// one query. /query/table answers one table and refuses a batch at its second statement.
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
const failed = (e: unknown) => e as AppError;

describe('batches on the Kusto routes', () => {
  let memory: MemoryEngine;
  let engine: QueryEngine;
  beforeAll(async () => {
    memory = await memoryEngine({ ddl: TELEMETRY_DDL });
    engine = memory.engine;
  });
  afterAll(() => memory?.close());

  it('answers each statement as a PrimaryResult table in order, the lets shared (v2)', async () => {
    // Act: the brief's batch, then a statement reading a let of the first line.
    const text = await kustoQuery(
      'v2',
      { db: 'acme', csl: 'let n = 2; range x from 1 to 3 step 1; print 1; print y = n | as Named' },
      caller,
      engine,
      settings,
      trace,
    );
    // Assess
    const data = parseSdk(text, 'query');
    expect(data.primaryResults.map((t) => t.name)).toEqual(['PrimaryResult', 'PrimaryResult', 'Named']);
    expect(data.primaryResults.map((t) => t.toJSON().data)).toEqual([
      [{ x: 1 }, { x: 2 }, { x: 3 }],
      [{ print_0: 1 }],
      [{ y: 2 }],
    ]);
    const frames = JSON.parse(text) as { FrameType: string; TableKind?: string; TableId?: number }[];
    expect(frames.filter((f) => f.TableKind === 'PrimaryResult').map((f) => f.TableId)).toEqual([1, 2, 3]);
  });

  it("answers the batches page's materialize example, one table per statement (v1 with its table of contents)", async () => {
    // Act
    const text = await kustoQuery(
      'v1',
      {
        db: 'acme',
        csl:
          'let m = materialize(datatable(State:string)["A","A","A","B"] | summarize n=count() by State);\n' +
          'm | where n > 2;\nm | where n < 2',
      },
      caller,
      engine,
      settings,
      trace,
    );
    // Assess
    const data = parseSdk(text, 'queryv1');
    expect(data.primaryResults.map((t) => t.toJSON().data)).toEqual([[{ State: 'A', n: 3 }], [{ State: 'B', n: 1 }]]);
    const tables = (JSON.parse(text) as { Tables: { TableName: string; Rows: unknown[][] }[] }).Tables;
    expect(tables.map((t) => t.TableName)).toEqual(['Table_0', 'Table_1', 'Table_2', 'Table_3', 'Table_4']);
    expect(tables[4]!.Rows.map((r) => [r[0], r[1], r[2]])).toEqual([
      [0, 'QueryResult', 'PrimaryResult'],
      [1, 'QueryResult', 'PrimaryResult'],
      [2, 'QueryProperties', '@ExtendedProperties'],
      [3, 'QueryStatus', 'QueryStatus'],
    ]);
  });

  it('computes a materialize() value once per request: every table of the batch reads the same rows', async () => {
    // Prepare: rand() differs at each evaluation; a third statement a fork of two legs over it.
    const csl =
      'let m = materialize(range x from 1 to 20 step 1 | extend r = rand());\n' +
      'm | summarize s = sum(r);\nm | where x > 10 | summarize s = sum(r);\n' +
      'm | fork (where x <= 10 | summarize s = sum(r)) (summarize s = sum(r))';
    // Act
    const text = await kustoQuery('v2', { db: 'acme', csl }, caller, engine, settings, trace);
    // Assess: the whole sum in tables 1 and 4, its halves in tables 2 and 3.
    const sums = parseSdk(text, 'query').primaryResults.map((t) => (t.toJSON().data[0] as { s: number }).s);
    expect(sums).toHaveLength(4);
    expect(sums[3]).toBe(sums[0]);
    expect(sums[1]! + sums[2]!).toBeCloseTo(sums[0]!, 9);
  });

  it('stores a materialize() value that reads a graph: the graph tables it reads go with its own SQL', async () => {
    // Prepare: the graph's edges and nodes are CTEs of the value's SQL.
    const csl =
      'let E = datatable(s:string, t:string)["A","B", "B","C"];\n' +
      'let m = materialize(E | make-graph s --> t with_node_id=id | graph-to-table nodes);\nm | count; m';
    // Act
    const text = await kustoQuery('v2', { db: 'acme', csl }, caller, engine, settings, trace);
    // Assess
    const tables = parseSdk(text, 'query').primaryResults.map((t) => t.toJSON().data);
    expect(tables[0]).toEqual([{ Count: 3 }]);
    expect(tables[1]).toHaveLength(3);
  });

  it('computes an as hint.materialized=true name once: its own table and a later statement read the same rows', async () => {
    // Prepare: rand() differs at each evaluation; the as names the first table and union's withsource=.
    const csl =
      'range x from 1 to 20 step 1 | extend r = rand() | as hint.materialized=true M;\n' +
      'M | summarize s = sum(r); union withsource=T M | summarize s = sum(r) by T';
    // Act
    const text = await kustoQuery('v2', { db: 'acme', csl }, caller, engine, settings, trace);
    // Assess
    const tables = parseSdk(text, 'query').primaryResults;
    expect(tables.map((t) => t.name)).toEqual(['M', 'PrimaryResult', 'PrimaryResult']);
    const first = tables[0]!.toJSON().data as { r: number }[];
    const whole = first.reduce((sum, row) => sum + row.r, 0);
    expect((tables[1]!.toJSON().data[0] as { s: number }).s).toBeCloseTo(whole, 9);
    expect(tables[2]!.toJSON().data).toEqual([{ T: 'M', s: (tables[1]!.toJSON().data[0] as { s: number }).s }]);
  });

  it("computes an as hint.materialized=true name once in a query of one statement: the as page's join form", async () => {
    // Act: the as page's example; each row of T meets itself, r the same on both sides.
    const text = await kustoQuery(
      'v2',
      {
        db: 'acme',
        csl:
          'range x from 1 to 10 step 1 | extend r=rand() | as hint.materialized=true T\n' +
          '| where x<5 | join (T | where x<5) on x | where r != r1 | count',
      },
      caller,
      engine,
      settings,
      trace,
    );
    // Assess: the page's result
    expect(parseSdk(text, 'query').primaryResults[0]!.toJSON().data).toEqual([{ Count: 0 }]);
  });

  it('computes an as hint.materialized=true name once for the legs of a fork in a query of one statement', async () => {
    // Act: each leg a result table of its own.
    const csl =
      'range x from 1 to 20 step 1 | extend r=rand() | as hint.materialized=true X\n' +
      '| fork (summarize s = sum(r)) (summarize s = sum(r))';
    const text = await kustoQuery('v2', { db: 'acme', csl }, caller, engine, settings, trace);
    // Assess: both legs sum the same stored rows.
    const sums = parseSdk(text, 'query').primaryResults.map((t) => (t.toJSON().data[0] as { s: number }).s);
    expect(sums).toHaveLength(2);
    expect(sums[1]).toBe(sums[0]);
  });

  it('drops the stored values at the end of the request, after success and after a failure', async () => {
    // Prepare: the temporary tables left; an engine whose second run of a session fails.
    const left = async (): Promise<unknown[][]> => {
      const rows: unknown[][] = [];
      await engine.run(
        'SELECT count(*) FROM duckdb_tables() WHERE temporary',
        ['long'],
        { remainingBytes: 1e6, push: (row) => rows.push(row) > 0, oversized: () => false },
        { signal: new AbortController().signal },
      );
      return rows;
    };
    const failing: QueryEngine = {
      ...engine,
      session: (work) =>
        engine.session!((session) => {
          let runs = 0;
          return work({
            dialect: 'duckdb',
            store: (value, options) => session.store(value, options),
            run: (...args) => (++runs === 2 ? Promise.reject(new Error('the engine stopped')) : session.run(...args)),
          });
        }),
    };
    const csl = 'let m = materialize(print v = 1); m; m | extend w = 2';
    // Act
    await kustoQuery('v2', { db: 'acme', csl }, caller, engine, settings, trace);
    const afterSuccess = await left();
    const error = await kustoQuery('v2', { db: 'acme', csl }, caller, failing, settings, trace).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    const afterFailure = await left();
    // Assess
    expect(afterSuccess).toEqual([[0]]);
    expect(error?.message).toBe('the engine stopped');
    expect(afterFailure).toEqual([[0]]);
  });

  it('fails the whole batch with the error of a statement that does not compile, at its position', async () => {
    const error = await kustoQuery(
      'v2',
      { db: 'acme', csl: 'print 1; print nope' },
      caller,
      engine,
      settings,
      trace,
    ).then(() => undefined, failed);
    expect(error?.code).toBe('QUERY_SEMANTIC');
    expect(error?.message).toMatch(/^1:16: /);
  });

  it('compiles every statement before running any: a statement that does not compile runs nothing', async () => {
    // Prepare: an engine that counts its runs.
    let runs = 0;
    const counting: QueryEngine = {
      dialect: 'duckdb',
      run: async (sql, types, sink, options) => {
        runs++;
        await engine.run(sql, types, sink, options);
      },
    };
    // Act
    const error = await kustoQuery(
      'v2',
      { db: 'acme', csl: 'range x from 1 to 3 step 1; print nope' },
      caller,
      counting,
      settings,
      trace,
    ).then(() => undefined, failed);
    // Assess
    expect(error?.status).toBe(400);
    expect(error?.message).toMatch(/^1:35: /);
    expect(runs).toBe(0);
  });

  it("charges the compile budget only the statements' compile time, not the engine's run time", async () => {
    // Prepare: an engine that takes longer than the whole compile budget (500 ms) per statement,
    // and a second statement whose compile reads the budget's clock (60 extends).
    const slow: QueryEngine = {
      dialect: 'duckdb',
      run: async (sql, types, sink, options) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        await engine.run(sql, types, sink, options);
      },
    };
    const extends_ = Array.from({ length: 60 }, (_, i) => `b${i + 1} = a + ${i + 1}`).join(', ');
    const csl = `print 1; print a = 1 | extend ${extends_}, z = 1`;
    // Act
    const text = await kustoQuery('v2', { db: 'acme', csl }, caller, slow, settings, trace);
    // Assess
    const [, second] = parseSdk(text, 'query').primaryResults.map((t) => t.toJSON().data);
    expect(second).toEqual([expect.objectContaining({ a: 1, b60: 61, z: 1 })]);
  });

  it('runs the tables within the time limit of one query, not one limit each', async () => {
    // Prepare: an engine that takes 250 ms per statement; five statements (1,250 ms) under a 1,000 ms
    // limit, which one statement meets with room to spare on a loaded machine.
    const slow: QueryEngine = {
      dialect: 'duckdb',
      run: async (sql, types, sink, options) => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await engine.run(sql, types, sink, options);
      },
    };
    const csl = 'print 1; print 2; print 3; print 4; print 5';
    // Act
    const one = await kustoQuery(
      'v2',
      { db: 'acme', csl: 'print 1' },
      caller,
      slow,
      { ...settings, timeoutMs: 1000 },
      trace,
    );
    const error = await kustoQuery(
      'v2',
      { db: 'acme', csl },
      caller,
      slow,
      { ...settings, timeoutMs: 1000 },
      trace,
    ).then(() => undefined, failed);
    // Assess
    expect(parseSdk(one, 'query').primaryResults).toHaveLength(1);
    expect(error?.code).toBe('QUERY_TIMEOUT');
    expect(error?.message).toMatch(/^the query ran longer than 1000 ms;/);
  });

  it('refuses a batch on /query/table at its second statement, naming the Kusto routes', async () => {
    const error = await runTableQuery(
      {
        query: 'range x from 1 to 3 step 1; print 1',
        startTime: '2026-03-01T00:00:00.000Z',
        endTime: '2026-03-02T00:00:00.000Z',
      },
      caller,
      engine,
      settings,
    ).then(() => undefined, failed);
    expect(error?.code).toBe('QUERY_UNSUPPORTED');
    expect(error?.status).toBe(400);
    expect(error?.message).toMatch(/^1:29: the query is a batch of 2 tabular statements, .* \(\/v2\/rest\/query, /);
    expect(error?.data).toEqual([expect.objectContaining({ line: 1, column: 29 })]);
  });
});
