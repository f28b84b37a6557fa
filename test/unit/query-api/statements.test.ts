// Set statements and query parameters through the query service: the limits a query asks for only
// lower the service's own (rows, bytes, time), query_take_max_records cuts without a truncation, and
// the body's `parameters` reach the query as literals, never as SQL text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../lib/auth/caller';
import { AppError } from '../../../lib/core/errors';
import type { QueryEngine } from '../../../lib/query-api/ports';
import { parseQueryRequest } from '../../../lib/query-api/request';
import { runTableQuery } from '../../../lib/query-api/service';
import { refusal } from '../../support/refusal';
import { memoryEngine, type MemoryEngine } from '../../support/memory-engine';

const caller: Caller = { kind: 'jwt', customerId: 'acme', plantIds: ['p1'], allPlants: false, clientId: 'c1' };
const settings = { rowLimit: 3, timeoutMs: 5000, maxWindowDays: 31, now: () => new Date('2026-01-01T12:00:00Z') };
const body = (query: string, extra: Record<string, unknown> = {}) => ({
  query,
  startTime: '2026-01-01T00:00:00.000Z',
  endTime: '2026-01-02T00:00:00.000Z',
  ...extra,
});

describe('set statements and parameters in the query service', () => {
  const sql: string[] = [];
  let memory: MemoryEngine;
  let engine: QueryEngine;
  beforeAll(async () => {
    memory = await memoryEngine({ seen: (text) => sql.push(text) });
    engine = memory.engine;
  });
  afterAll(() => memory?.close());

  it('truncationmaxrecords lowers the row limit and says so', async () => {
    // Act
    const result = await runTableQuery(
      body('set truncationmaxrecords=2; range x from 1 to 5 step 1'),
      caller,
      engine,
      settings,
    );
    // Assess
    expect(result.data.rows).toEqual([[1], [2]]);
    expect(result.meta).toMatchObject({ truncated: true, rowLimit: 2 });
  });

  it('truncationmaxrecords above the service limit keeps the service limit; notruncation lifts nothing', async () => {
    // Act
    const result = await runTableQuery(
      body('set notruncation; set truncationmaxrecords=1000; range x from 1 to 5 step 1'),
      caller,
      engine,
      settings,
    );
    // Assess
    expect(result.data.rows).toEqual([[1], [2], [3]]);
    expect(result.meta).toMatchObject({ truncated: true, rowLimit: 3 });
  });

  it('query_take_max_records cuts the rows without a truncation; the lower of two statements wins', async () => {
    // Act
    const result = await runTableQuery(
      body('set query_take_max_records=2; set query_take_max_records=5; range x from 1 to 5 step 1 | sort by x asc'),
      caller,
      engine,
      settings,
    );
    // Assess
    expect(result.data.rows).toEqual([[1], [2]]);
    expect(result.meta.truncated).toBe(false);
  });

  it('truncationmaxsize lowers the byte cap of the answer', async () => {
    // Act
    const result = await runTableQuery(
      body('set truncationmaxsize=400; range x from 1 to 3 step 1 | extend s = strrep("a", 100)'),
      caller,
      engine,
      { ...settings, rowLimit: 100 },
    );
    // Assess
    expect(result.meta).toMatchObject({ truncated: true, truncationReason: 'responseBytes', maxResponseBytes: 400 });
    expect(result.data.rows.length).toBeLessThan(3);
  });

  it('servertimeout lowers the time limit, and never raises it', async () => {
    // Prepare: an engine that only stops when aborted.
    const hanging: QueryEngine = {
      dialect: 'duckdb',
      run: (_sql, _types, _sink, options) =>
        new Promise((_resolve, reject) =>
          options?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    };
    // Act
    const lowered = await runTableQuery(body('set servertimeout=50ms; print 1'), caller, hanging, settings).catch(
      (e: unknown) => e,
    );
    const raised = await runTableQuery(body('set servertimeout=1h; print 1'), caller, hanging, {
      ...settings,
      timeoutMs: 60,
    }).catch((e: unknown) => e);
    // Assess
    expect(lowered).toBeInstanceOf(AppError);
    expect((lowered as AppError).code).toBe('QUERY_TIMEOUT');
    expect((lowered as AppError).message).toContain('50 ms');
    expect((raised as AppError).message).toContain('60 ms');
  });

  it('binds the body parameters as literals: quotes, semicolons and comments stay text', async () => {
    // Prepare
    const hostile = `x'; DROP TABLE "States"; -- "quoted" \\' end`;
    sql.length = 0;
    // Act
    const result = await runTableQuery(
      body('declare query_parameters(s:string, n:long = 7, d:datetime); print s, n, d', {
        parameters: { s: hostile, d: 'datetime(1970-05-11)', unused: 'ignored' },
      }),
      caller,
      engine,
      settings,
    );
    // Assess
    expect(result.data.rows).toEqual([[hostile, 7, '1970-05-11T00:00:00Z']]);
    expect(sql[0]).toContain(`'x''; DROP TABLE "States"; -- "quoted" \\'' end'`);
  });

  it('refuses a parameter without a value, and a value that is no literal of its type, naming the parameter', async () => {
    // Act
    const missing = (await runTableQuery(
      body('declare query_parameters(n:long); print n'),
      caller,
      engine,
      settings,
    ).catch((e: unknown) => e)) as AppError;
    const wrong = (await runTableQuery(
      body('declare query_parameters(n:long); print n', { parameters: { n: '1; print 2' } }),
      caller,
      engine,
      settings,
    ).catch((e: unknown) => e)) as AppError;
    // Assess
    expect(missing.code).toBe('QUERY_SEMANTIC');
    expect(missing.message).toBe(
      "1:26: the query parameter 'n' has no value: send it in the request's parameters (properties.Parameters on the Kusto routes) or give it a default",
    );
    expect(missing.data).toEqual([{ line: 1, column: 26, start: 25, end: 26 }]);
    expect(wrong.code).toBe('QUERY_SEMANTIC');
    expect(wrong.message).toContain(
      `the value of the query parameter 'n' ("1; print 2") is not a literal of type long`,
    );
  });

  it("answers current_principal() and current_database() with the caller's client and customer", async () => {
    // Act
    const result = await runTableQuery(body('print current_principal(), current_database()'), caller, engine, settings);
    // Assess
    expect(result.data.rows).toEqual([['app=c1;acme', 'acme']]);
  });

  it('takes numbers and bools as their text, and refuses other parameter values in the body', () => {
    // Act
    const request = parseQueryRequest(body('print 1', { parameters: { n: 200000000, b: true, s: 'x' } }), 31);
    // Assess
    expect(request.parameters).toEqual({ n: '200000000', b: 'true', s: 'x' });
    expect(refusal(() => parseQueryRequest(body('print 1', { parameters: { n: [1] } }), 31)).data[0]).toMatchObject({
      field: 'parameters.n',
    });
    expect(refusal(() => parseQueryRequest(body('print 1', { parameters: 'n=1' }), 31)).code).toBe('INVALID_INPUT');
  });
});
