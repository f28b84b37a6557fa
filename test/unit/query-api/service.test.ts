// The query endpoint's rules outside the compiler: request checks, the plant scope taken from the
// caller (never from the query text), truncation, and the column type pairs of the response.
import { DuckDBInstance } from '@duckdb/node-api';
import { PLAN_OPTIONS } from '../../../lib/adapters/duckdb/database';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { refusal } from '../../support/refusal';
import type { Caller } from '../../../lib/auth/caller';
import { AppError } from '../../../lib/core/errors';
import { convertRows, type KqlType } from '../../../lib/query';
import { responseColumn } from '../../../lib/query-api/columns';
import { QueryAdmission } from '../../../lib/query-api/admission';
import type { QueryEngine } from '../../../lib/query-api/ports';
import { parseQueryRequest } from '../../../lib/query-api/request';
import { explainQuery, plantScope, runTableQuery } from '../../../lib/query-api/service';
import { TELEMETRY_DDL } from '../../../lib/telemetry/duckdb-layout';

const limited: Caller = { kind: 'jwt', customerId: 'acme', plantIds: ['p1', 'p2'], allPlants: false, clientId: 'c1' };
const everything: Caller = {
  kind: 'jwt',
  customerId: 'acme',
  plantIds: ['p1', 'p2', 'p3'],
  allPlants: true,
  clientId: 'c2',
};
const body = (extra: Record<string, unknown> = {}) => ({
  query: 'States | project Name, Value',
  startTime: '2026-01-01T00:00:00.000Z',
  endTime: '2026-01-02T00:00:00.000Z',
  ...extra,
});
const settings = { rowLimit: 3, timeoutMs: 5000, maxWindowDays: 31, now: () => new Date('2026-01-01T12:00:00Z') };

describe('query request', () => {
  it('accepts the spec format and refuses others, naming the field', () => {
    expect(parseQueryRequest(body(), 31).query).toBe('States | project Name, Value');
    expect(refusal(() => parseQueryRequest(body({ startTime: '2026-01-01T00:00:00Z' }), 31)).data).toEqual([
      expect.objectContaining({ field: 'startTime' }),
    ]);
    expect(refusal(() => parseQueryRequest(body({ query: '' }), 31)).code).toBe('INVALID_INPUT');
    expect(refusal(() => parseQueryRequest({ ...body(), query: undefined }, 31)).data[0]).toMatchObject({
      field: 'query',
    });
    expect(refusal(() => parseQueryRequest(body({ plantIds: 'p1' }), 31)).data[0]).toMatchObject({ field: 'plantIds' });
  });

  it('says which bound of the window is missing or not a string, and shows its format', () => {
    expect(refusal(() => parseQueryRequest({ ...body(), startTime: undefined }, 31)).message).toBe(
      "startTime: is required: the window's bound in ISO 8601 UTC with milliseconds, e.g. 2026-01-01T00:00:00.000Z",
    );
    expect(refusal(() => parseQueryRequest({ ...body(), endTime: 1767225600000 }, 31)).message).toBe(
      'endTime: must be a string in ISO 8601 UTC with milliseconds, e.g. 2026-01-02T00:00:00.000Z',
    );
    // Fields without a message of their own still read "is required".
    expect(refusal(() => parseQueryRequest({ ...body(), query: undefined }, 31)).message).toBe('query: is required');
  });

  it('requires endTime after startTime and a window within the maximum', () => {
    expect(refusal(() => parseQueryRequest(body({ endTime: '2026-01-01T00:00:00.000Z' }), 31)).message).toMatch(
      /after startTime/,
    );
    expect(refusal(() => parseQueryRequest(body({ endTime: '2026-03-01T00:00:00.000Z' }), 31)).message).toMatch(
      /longer than 31 days/,
    );
    expect(
      refusal(() =>
        parseQueryRequest(body({ startTime: '2026-02-30T00:00:00.000Z', endTime: '2026-03-01T00:00:00.000Z' }), 31),
      ).code,
    ).toBe('INVALID_INPUT');
  });
});

describe('plant scope', () => {
  it("uses the caller's plants, or none of the filter for a client of all plants", () => {
    expect(plantScope(limited, undefined)).toEqual(['p1', 'p2']);
    expect(plantScope(everything, undefined)).toBeNull();
    expect(plantScope(limited, ['p2'])).toEqual(['p2']);
    expect(plantScope(everything, ['p3', 'p3'])).toEqual(['p3']);
  });

  it('refuses a plant the client may not see with 403', () => {
    const error = refusal(() => plantScope(limited, ['p1', 'p3']));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.data).toEqual([{ field: 'plantIds', plantId: 'p3' }]);
    expect(refusal(() => plantScope(everything, ['other-customers-plant'])).code).toBe('FORBIDDEN');
  });
});

describe('response columns', () => {
  it('writes the ADX type pairs', () => {
    const pairs = (
      ['string', 'datetime', 'dynamic', 'long', 'int', 'real', 'bool', 'timespan', 'guid', 'decimal'] as KqlType[]
    ).map((type) => responseColumn({ name: 'x', type }).dataType);
    expect(pairs).toEqual([
      'String',
      'DateTime',
      'Object',
      'Int64',
      'Int32',
      'Double',
      'Boolean',
      'TimeSpan',
      'Guid',
      'Decimal',
    ]);
  });
});

describe('runTableQuery on DuckDB', () => {
  let instance: DuckDBInstance;
  let engine: QueryEngine;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:', { ...PLAN_OPTIONS });
    const c = await instance.connect();
    for (const ddl of TELEMETRY_DDL) await c.run(ddl);
    const insert = (customer: string, plant: string, name: string, value: number, ts: string) =>
      c.run(
        `INSERT INTO "States" ("CustomerId", "Timestamp", "PlantId", "Name", "Value") VALUES ('${customer}', TIMESTAMP '${ts}', '${plant}', '${name}', '${value}')`,
      );
    await insert('acme', 'p1', 'a', 1, '2026-01-01 01:00:00');
    await insert('acme', 'p2', 'b', 2, '2026-01-01 02:00:00');
    await insert('acme', 'p3', 'c', 3, '2026-01-01 03:00:00');
    await insert('acme', 'p1', 'd', 4, '2026-01-01 04:00:00');
    await insert('acme', 'p1', 'e', 5, '2026-01-03 00:00:00');
    await insert('other', 'p1', 'z', 9, '2026-01-01 05:00:00');
    engine = {
      dialect: 'duckdb',
      run: async (sql, types, sink) => {
        for (const row of convertRows((await c.runAndReadAll(sql)).getRowsJson() as unknown[][], [...types]))
          if (!sink.push(row)) return;
      },
    };
  });
  afterAll(() => instance?.closeSync());

  it("returns columns and rows of the caller's customer, plants and window only", async () => {
    const result = await runTableQuery(
      body({ query: 'States | project Name, Value | sort by Name asc' }),
      limited,
      engine,
      { ...settings, rowLimit: 100 },
    );
    expect(result.data.columns).toEqual([
      { name: 'Name', columnType: 'string', dataType: 'String' },
      { name: 'Value', columnType: 'dynamic', dataType: 'Object' },
    ]);
    expect(result.data.rows).toEqual([
      ['a', 1],
      ['b', 2],
      ['d', 4],
    ]);
    expect(result.meta.truncated).toBe(false);
    expect(result.meta).not.toHaveProperty('truncationReason');
  });

  it('cannot widen the scope from the query text', async () => {
    const result = await runTableQuery(
      body({ query: "States | where PlantId == 'p3' or true | count" }),
      limited,
      engine,
      settings,
    );
    expect(result.data.rows).toEqual([[3]]);
  });

  it('cuts at the row limit and says so', async () => {
    const result = await runTableQuery(body({ query: 'States | project Name' }), everything, engine, settings);
    expect(result.data.rows).toHaveLength(3);
    expect(result.meta).toMatchObject({ truncated: true, truncationReason: 'rowLimit', rowLimit: 3 });
  });

  it('turns compile errors into the envelope codes with line:col and positions', async () => {
    const error = await runTableQuery(body({ query: 'States | project Vaule' }), limited, engine, settings).then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error?.code).toBe('QUERY_SEMANTIC');
    expect(error?.message).toMatch(/^1:18: .*Vaule.*did you mean 'Value'/);
    expect(error?.data[0]).toMatchObject({ line: 1, column: 18 });
    const unsupported = await runTableQuery(
      body({ query: 'States | evaluate autocluster()' }),
      limited,
      engine,
      settings,
    ).then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    expect(unsupported?.code).toMatch(/QUERY_(UNSUPPORTED|SYNTAX)/);
    expect(unsupported?.status).toBe(400);
  });

  /** The engine, held back until the test opens the gate, deaf to the abort (as DuckDB is while planning). */
  function gated(inner: QueryEngine) {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let settled = false;
    const engine: QueryEngine = {
      dialect: inner.dialect,
      run: async (sql, types, sink, options) => {
        await gate;
        await inner.run(sql, types, sink, { signal: new AbortController().signal });
        settled = true;
        void options;
      },
    };
    return { engine, open, settled: () => settled };
  }

  it('answers QUERY_TIMEOUT at the limit though the engine has not stopped, and keeps its place until it has', async () => {
    const admission = new QueryAdmission({ concurrency: 1, perClient: 1, queueLength: 0, retryAfterSeconds: 1 });
    const slow = gated(engine);
    const error = await runTableQuery(body({ query: 'print 1' }), limited, slow.engine, {
      ...settings,
      timeoutMs: 50,
      admission,
    }).then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    expect(error).toMatchObject({ code: 'QUERY_TIMEOUT', status: 504 });
    expect(slow.settled()).toBe(false);
    expect(admission.load.running).toBe(1);
    await expect(
      runTableQuery(body({ query: 'print 1' }), everything, engine, { ...settings, admission }),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    slow.open();
    await vi.waitFor(() => expect(admission.load.running).toBe(0));
    expect(slow.settled()).toBe(true);
    expect(
      (await runTableQuery(body({ query: 'print 1' }), everything, engine, { ...settings, admission })).data.rows,
    ).toEqual([[1]]);
  });

  it("refuses a client over its share with 429 while another client's query runs", async () => {
    const admission = new QueryAdmission({ concurrency: 2, perClient: 1, queueLength: 2, retryAfterSeconds: 2 });
    const slow = gated(engine);
    const first = runTableQuery(body({ query: 'print 1' }), limited, slow.engine, { ...settings, admission });
    const second = await runTableQuery(body({ query: 'print 2' }), limited, engine, { ...settings, admission }).then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    expect(second).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429 });
    expect(second?.data).toContainEqual({ retryAfterSeconds: 2 });
    expect(
      (await runTableQuery(body({ query: 'print 3' }), everything, engine, { ...settings, admission })).data.rows,
    ).toEqual([[3]]);
    slow.open();
    expect((await first).data.rows).toEqual([[1]]);
  });

  it('cuts at the byte cap with reason responseBytes', async () => {
    const result = await runTableQuery(body({ query: 'range x from 1 to 5000 step 1' }), limited, engine, {
      ...settings,
      rowLimit: 10_000,
      maxResponseBytes: 10_000,
    });
    expect(result.meta).toMatchObject({ truncated: true, truncationReason: 'responseBytes', maxResponseBytes: 10_000 });
    expect(result.data.rows.length).toBeGreaterThan(1000);
    expect(result.data.rows.length).toBeLessThan(5000);
  });

  it('explains: the SQL of the active dialect and the output schema, without running', () => {
    const result = explainQuery(
      body({ query: 'States | summarize count() by Name' }),
      limited,
      { dialect: 'duckdb', run: () => Promise.reject(new Error('must not run')) },
      settings,
    );
    expect(result.data.dialect).toBe('duckdb');
    expect(result.data.sql).toContain('"CustomerId" = \'acme\'');
    expect(result.data.columns.map((c) => c.name)).toEqual(['Name', 'count_']);
  });
});
