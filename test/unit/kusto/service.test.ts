// The Kusto endpoints over the native query service, with an engine that records the SQL and hands
// out rows: the scope and window reach the engine, the byte cap holds for the Kusto body, and the
// database rule and command routing apply.
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../lib/auth/caller';
import { lambdaBytes } from '../../../lib/query-api/answer';
import type { QueryEngine } from '../../../lib/query-api/ports';
import { kustoCommand, kustoQuery } from '../../../lib/kusto/service';
import { settings, trace } from './fixtures';

const caller: Caller = { kind: 'jwt', customerId: 'acme', plantIds: ['p1', 'p2'], allPlants: false, clientId: 'c1' };

/** Pushes `count` rows of one wide string column (or `x` as a long) until the answer is full. */
function engine(count: number, cell: (i: number) => unknown = (i) => i): QueryEngine & { sql: string[] } {
  const sql: string[] = [];
  return {
    dialect: 'duckdb',
    sql,
    run: async (text, _types, sink) => {
      sql.push(text);
      for (let i = 1; i <= count; i++) if (!sink.push([cell(i)])) return;
    },
  };
}

type Frame = { FrameType: string; TableKind?: string; Rows?: unknown[][]; HasErrors?: boolean };

describe('kustoQuery', () => {
  it("runs the query in the caller's scope and the window of Kusto's datetime-scope options", async () => {
    // Prepare
    const e = engine(1);
    const body = {
      db: 'acme',
      csl: 'States | count',
      properties: {
        Options: { query_datetimescope_from: '2026-03-01T00:00:00Z', query_datetimescope_to: '2026-03-02T00:00:00Z' },
      },
    };
    // Act
    const frames = JSON.parse(await kustoQuery('v2', body, caller, e, settings, trace)) as Frame[];
    // Assess
    expect(e.sql[0]).toContain(`"CustomerId" = 'acme'`);
    expect(e.sql[0]).toContain(`list_contains(['p1', 'p2'], "PlantId")`);
    expect(e.sql[0]).toMatch(/"Timestamp" >= .*2026-03-01 00:00:00.*"Timestamp" < .*2026-03-02 00:00:00/);
    expect(frames.find((f) => f.TableKind === 'PrimaryResult')?.Rows).toEqual([[1]]);
  });

  it('defaults the window to the longest allowed, ending now', async () => {
    const e = engine(1);
    await kustoQuery('v1', { db: 'acme', csl: 'States | count' }, caller, e, settings, trace);
    expect(e.sql[0]).toMatch(/"Timestamp" >= .*2026-02-07 12:00:00.*"Timestamp" < .*2026-03-10 12:00:00/);
  });

  it('keeps the whole Kusto body within the byte cap, cutting the rows as a partial failure', async () => {
    // Prepare: rows of 1 KB, a cap of 100 KB
    const capped = { ...settings, rowLimit: 10_000, maxResponseBytes: 100_000 };
    // Act
    const text = await kustoQuery(
      'v2',
      { db: 'acme', csl: 'print x = "a"' },
      caller,
      engine(500, () => 'x'.repeat(1000)),
      capped,
      trace,
    );
    // Assess
    expect(lambdaBytes(text)).toBeLessThanOrEqual(100_000);
    const frames = JSON.parse(text) as Frame[];
    expect(frames.find((f) => f.TableKind === 'PrimaryResult')!.Rows!.length).toBeGreaterThan(70);
    expect(frames.at(-1)).toMatchObject({
      HasErrors: true,
      OneApiErrors: [{ error: { '@message': expect.stringContaining('data size limit') } }],
    });
  });

  it('binds properties.Parameters as literals and honours a set truncationmaxrecords as a partial failure', async () => {
    // Prepare
    const e = engine(5);
    const body = {
      db: 'acme',
      csl: 'set truncationmaxrecords = 2;\ndeclare query_parameters(s:string);\nprint x = strlen(s)',
      properties: JSON.stringify({ Parameters: { s: `a'; DROP TABLE "States"; --` } }),
    };
    // Act
    const frames = JSON.parse(await kustoQuery('v2', body, caller, e, settings, trace)) as Frame[];
    // Assess
    expect(e.sql[0]).toContain(`'a''; DROP TABLE "States"; --'`);
    expect(frames.find((f) => f.TableKind === 'PrimaryResult')?.Rows).toEqual([[1], [2]]);
    expect(frames.at(-1)).toMatchObject({ HasErrors: true });
  });

  it('still answers a small query under the smallest configurable cap', async () => {
    const text = await kustoQuery(
      'v2',
      { db: 'acme', csl: 'print x = 1' },
      caller,
      engine(1),
      { ...settings, maxResponseBytes: 10_000 },
      trace,
    );
    expect(lambdaBytes(text)).toBeLessThanOrEqual(10_000);
    expect((JSON.parse(text) as Frame[]).at(-1)).toMatchObject({ HasErrors: false });
  });

  it('refuses a foreign database and a management command, before running anything', async () => {
    const e = engine(1);
    await expect(kustoQuery('v2', { db: 'globex', csl: 'print 1' }, caller, e, settings, trace)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      kustoQuery('v2', { db: 'acme', csl: '.show tables' }, caller, e, settings, trace),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(e.sql).toEqual([]);
  });
});

describe('kustoCommand', () => {
  it("answers in the caller's database and refuses a foreign one", () => {
    const body = JSON.parse(kustoCommand({ db: 'NetDefaultDB', csl: '.show databases' }, caller, '0.1.0')) as {
      Tables: { Rows: unknown[][] }[];
    };
    expect(body.Tables[0]!.Rows[0]![0]).toBe('acme');
    expect(() => kustoCommand({ db: 'globex', csl: '.show tables' }, caller, '0.1.0')).toThrow(/not this client's/);
  });
});
