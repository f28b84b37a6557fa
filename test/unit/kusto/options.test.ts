// The request properties of a Kusto body's properties.Options: read as literals of each property's
// type, checked with the set statements' rules (a 400 naming the option), and applied through the
// compiler exactly as the same `set` in the query text, combined with the text's own set statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../lib/auth/caller';
import type { AppError } from '../../../lib/core/errors';
import { optionStatements } from '../../../lib/kusto/request';
import { kustoQuery } from '../../../lib/kusto/service';
import type { QueryEngine } from '../../../lib/query-api/ports';
import { refusal } from '../../support/refusal';
import { memoryEngine, type MemoryEngine } from '../../support/memory-engine';
import { settings, trace } from './fixtures';

const caller: Caller = { kind: 'jwt', customerId: 'acme', plantIds: ['p1'], allPlants: false, clientId: 'c1' };

/** The literal each option became, by name. */
function literals(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    optionStatements(options).map((s) => [s.name, s.value?.kind === 'literal' ? s.value.value : undefined]),
  );
}

/** An engine that only stops when aborted. */
const hanging: QueryEngine = {
  dialect: 'duckdb',
  run: (_sql, _types, _sink, options) =>
    new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
};

describe('optionStatements', () => {
  it('reads each honoured property from its JSON value as a literal of its type', () => {
    // Act
    const read = literals({
      servertimeout: '00:04:00',
      query_now: '2021-01-01T00:00:00Z',
      truncationmaxrecords: 100,
      truncationmaxsize: '1000',
      query_take_max_records: 5,
      query_bin_auto_size: '1h',
      query_bin_auto_at: '2021-01-01T00:00:00Z',
      notruncation: true,
    });
    // Assess: timespans and datetimes (from the Unix epoch) in 100-ns ticks
    expect(read).toEqual({
      servertimeout: 2_400_000_000n,
      query_now: 16_094_592_000_000_000n,
      truncationmaxrecords: 100n,
      truncationmaxsize: 1000n,
      query_take_max_records: 5n,
      query_bin_auto_size: 36_000_000_000n,
      query_bin_auto_at: 16_094_592_000_000_000n,
      notruncation: true,
    });
  });

  it('takes the Node SDK\'s servertimeout text, a number as a bin size, and "false" as a bool', () => {
    expect(literals({ servertimeout: '00:00:00.050', query_bin_auto_size: 0.5, notruncation: 'false' })).toEqual({
      servertimeout: 500_000n,
      query_bin_auto_size: 0.5,
      notruncation: false,
    });
  });

  it('ignores names the property table does not know, null values and the time window', () => {
    expect(
      optionStatements({
        'x-ms-app': 'KNC',
        clientRequestId: 'KNC.execute;1',
        raw: true,
        truncationmaxrecords: null,
        query_datetimescope_from: '2026-03-01T00:00:00Z',
      }),
    ).toEqual([]);
  });

  it('takes any JSON value of a dynamic property, however deeply nested, without walking it', () => {
    // Prepare: 400,000 nested arrays, as a 1 MB body can hold (stringifying them overflows the stack).
    const deep = JSON.parse('['.repeat(400_000) + ']'.repeat(400_000)) as unknown;
    // Act / Assess: ignored, as the other execution-only properties.
    expect(optionStatements({ materialized_view_shuffle: deep, query_cursor_scoped_tables: ['States'] })).toEqual([]);
  });

  it.each([
    ['truncationmaxrecords', 'many', /properties\.Options\.truncationmaxrecords must be a long/],
    ['truncationmaxrecords', 2.5, /must be a long/],
    ['truncationmaxrecords', true, /must be a long/],
    ['truncationmaxrecords', -1, /count of 0 or more/],
    ['servertimeout', 240000, /must be a timespan/],
    ['servertimeout', '00:00:00', /positive timespan/],
    ['query_now', 'yesterday', /must be a datetime/],
    ['notruncation', 'yes', /must be a bool/],
    ['query_bin_auto_size', 'big', /must be a number, timespan or datetime literal/],
    ['request_app_name', 7, /must be a string/],
  ])('refuses %s = %j as INVALID_INPUT naming the option', (name, value, message) => {
    // Act
    const error = refusal(() => optionStatements({ [name]: value }));
    // Assess
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(message);
    expect(error.data).toEqual([{ field: `properties.Options.${name}` }]);
  });

  it('refuses what the service does not take, and accepts the values that ask for what it does anyway', () => {
    expect(refusal(() => optionStatements({ query_language: 'sql' }))).toMatchObject({
      code: 'QUERY_UNSUPPORTED',
      data: [{ field: 'properties.Options.query_language' }],
    });
    expect(optionStatements({ query_language: 'csl', validatepermissions: false })).toHaveLength(2);
  });
});

type Frame = { FrameType: string; TableKind?: string; Rows?: unknown[][]; HasErrors?: boolean };

describe('Options through the Kusto query route', () => {
  let memory: MemoryEngine;
  let engine: QueryEngine;
  beforeAll(async () => {
    memory = await memoryEngine();
    engine = memory.engine;
  });
  afterAll(() => memory?.close());

  /** The v2 answer's primary rows and whether it reports errors (a truncation). */
  async function run(csl: string, Options: Record<string, unknown>, s = settings) {
    const frames = JSON.parse(
      await kustoQuery('v2', { db: 'acme', csl, properties: { Options } }, caller, engine, s, trace),
    ) as Frame[];
    return { rows: frames.find((f) => f.TableKind === 'PrimaryResult')?.Rows, errors: frames.at(-1)?.HasErrors };
  }

  it('query_now changes now(); a query_now set in the query text wins', async () => {
    expect((await run('print now()', { query_now: '2021-01-01T00:00:00Z' })).rows).toEqual([['2021-01-01T00:00:00Z']]);
    expect(
      (await run('set query_now = datetime(2022-02-02); print now()', { query_now: '2021-01-01T00:00:00Z' })).rows,
    ).toEqual([['2022-02-02T00:00:00Z']]);
  });

  it('query_bin_auto_size gives bin_auto() its size', async () => {
    const { rows } = await run('print bin_auto(datetime(2021-01-01 01:30))', { query_bin_auto_size: '1h' });
    expect(rows).toEqual([['2021-01-01T01:00:00Z']]);
  });

  it('query_take_max_records cuts without a truncation; the lowest of the options and the text wins', async () => {
    expect(await run('range x from 1 to 10 step 1', { query_take_max_records: 3 })).toEqual({
      rows: [[1], [2], [3]],
      errors: false,
    });
    expect(
      (await run('set query_take_max_records = 2; range x from 1 to 10 step 1', { query_take_max_records: 3 })).rows,
    ).toEqual([[1], [2]]);
  });

  it('truncationmaxrecords lowers the row limit as a partial failure, the lowest wins, never above the service', async () => {
    expect(await run('range x from 1 to 10 step 1', { truncationmaxrecords: 2 })).toEqual({
      rows: [[1], [2]],
      errors: true,
    });
    expect(
      (await run('set truncationmaxrecords = 4; range x from 1 to 10 step 1', { truncationmaxrecords: 3 })).rows,
    ).toHaveLength(3);
    expect(
      (await run('set truncationmaxrecords = 3; range x from 1 to 10 step 1', { truncationmaxrecords: 4 })).rows,
    ).toHaveLength(3);
    expect(
      (await run('range x from 1 to 10 step 1', { truncationmaxrecords: 1000 }, { ...settings, rowLimit: 5 })).rows,
    ).toHaveLength(5);
  });

  it('servertimeout lowers the time limit (the lowest with the text) and never raises it', async () => {
    const call = (csl: string, servertimeout: string, timeoutMs = settings.timeoutMs) =>
      kustoQuery(
        'v2',
        { db: 'acme', csl, properties: { Options: { servertimeout } } },
        caller,
        hanging,
        { ...settings, timeoutMs },
        trace,
      ).catch((e: unknown) => e as AppError);
    // Act
    const lowered = await call('print 1', '00:00:00.050');
    const withText = await call('set servertimeout = 1h; print 1', '00:00:00.040');
    const raised = await call('print 1', '01:00:00', 60);
    // Assess
    expect(lowered).toMatchObject({ code: 'QUERY_TIMEOUT', message: expect.stringContaining('50 ms') });
    expect(withText).toMatchObject({ code: 'QUERY_TIMEOUT', message: expect.stringContaining('40 ms') });
    expect(raised).toMatchObject({ code: 'QUERY_TIMEOUT', message: expect.stringContaining('60 ms') });
  });

  it('names the servertimeout of a batch that cut it short, not the request limit', async () => {
    // Act
    const failed = await kustoQuery(
      'v2',
      { db: 'acme', csl: 'set servertimeout = 30ms; print 1; print 2' },
      caller,
      hanging,
      { ...settings, timeoutMs: 20_000 },
      trace,
    ).catch((e: unknown) => e as AppError);
    // Assess
    expect(failed).toMatchObject({ code: 'QUERY_TIMEOUT', message: expect.stringContaining(' 30 ms') });
  });

  it('refuses a wrong option before running anything', async () => {
    await expect(run('print 1', { servertimeout: 'soon' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      data: [{ field: 'properties.Options.servertimeout' }],
    });
  });
});
