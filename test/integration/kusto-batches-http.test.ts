// Batches over HTTP (https://learn.microsoft.com/kusto/query/batches): the official SDK against the
// offline stack reads one primary result per tabular statement from both protocol versions; the
// native /query/table refuses a batch with a 400 at its second statement. A later statement reads
// the names an earlier one gave with `as` (a fork leg's too) or graph-to-table's `nodes as N, edges as E`;
// a materialize() value is computed once for the whole batch.
import { randomBytes } from 'node:crypto';
import { Client, KustoConnectionStringBuilder, type KustoResponseDataSet } from 'azure-kusto-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfflineStack } from '../support/offline-stack';
import { sharedOfflineStack } from '../support/shared-stack';
import { query, tenantAccess, windowAroundNow } from '../support/stack-client';

type Table = { _rows: unknown[][]; name: string };
const tables = (data: KustoResponseDataSet) => data.primaryResults as unknown as Table[];

describe('batches over HTTP', () => {
  let stack: OfflineStack;
  let token: string;
  let customerId: string;
  let client: Client;

  beforeAll(async () => {
    stack = await sharedOfflineStack();
    const access = await tenantAccess(stack, `batch-${randomBytes(3).toString('hex')}`);
    token = access.accessToken;
    customerId = access.customerId;
    client = new Client(KustoConnectionStringBuilder.withAccessToken(stack.httpUrl, token));
  });
  afterAll(async () => {
    client?.close();
    await stack?.stop();
  });

  const batch = 'let k = 10; range x from 1 to 3 step 1; print y = k | as Tenth';

  it('answers every statement of a batch through execute (v2)', async () => {
    const result = tables(await client.execute(customerId, batch));
    expect(result.map((t) => t.name)).toEqual(['PrimaryResult', 'Tenth']);
    expect(result.map((t) => t._rows)).toEqual([[[1], [2], [3]], [[10]]]);
  });

  it('answers every statement of a batch through executeQueryV1', async () => {
    const result = tables(await client.executeQueryV1(customerId, batch));
    expect(result.map((t) => t._rows)).toEqual([[[1], [2], [3]], [[10]]]);
  });

  it('answers a later statement that reads a name an earlier one gave with as', async () => {
    const result = tables(await client.execute(customerId, 'print v = 7 | as Seven; Seven | extend w = v * 2'));
    expect(result.map((t) => t.name)).toEqual(['Seven', 'PrimaryResult']);
    expect(result.map((t) => t._rows)).toEqual([[[7]], [[7, 14]]]);
  });

  it("answers graph-to-table's nodes and edges read by the statements after it (graph-to-table page)", async () => {
    // The page's "Get nodes and edges" example, its data shortened: N; E print the two tables.
    const graph =
      'let nodes = datatable(name:string, age:long)["Alice", 23, "Bob", 31];\n' +
      'let edges = datatable(source:string, destination:string)["Alice", "Bob", "Mallory", "Alice"];\n' +
      'edges | make-graph source --> destination with nodes on name\n' +
      '| graph-to-table nodes as N, edges as E with_source_id=SourceId;\nN | project name, age; E | project source, destination';
    const v2 = tables(await client.execute(customerId, graph));
    const v1 = tables(await client.executeQueryV1(customerId, graph));
    for (const result of [v2, v1]) {
      expect(result).toHaveLength(2);
      expect(result[0]!._rows.map((r) => JSON.stringify(r)).sort()).toEqual([
        '["Alice",23]',
        '["Bob",31]',
        '["Mallory",null]',
      ]);
      expect(result[1]!._rows.map((r) => JSON.stringify(r)).sort()).toEqual(['["Alice","Bob"]', '["Mallory","Alice"]']);
    }
  });

  it('computes a materialize() value once for the whole batch (batches and materialize pages), in v2 and v1', async () => {
    // rand() differs at each evaluation: every table must read the one stored value.
    const csl =
      'let m = materialize(range x from 1 to 50 step 1 | extend r = rand());\n' +
      'm | summarize s = sum(r); m | summarize s = sum(r); m | where x % 2 == 0 | summarize s = sum(r)';
    for (const result of [
      tables(await client.execute(customerId, csl)),
      tables(await client.executeQueryV1(customerId, csl)),
    ]) {
      const [all, again, even] = result.map((t) => t._rows[0]![0] as number);
      expect(again).toBe(all);
      expect(even).toBeLessThan(all!);
    }
  });

  it('computes an as hint.materialized=true name once: its own table and the later statement agree', async () => {
    const csl =
      'range x from 1 to 30 step 1 | extend r = rand() | as hint.materialized=true M; M | summarize s = sum(r)';
    const [named, summed] = tables(await client.execute(customerId, csl));
    expect(named!.name).toBe('M');
    const whole = named!._rows.reduce((sum, row) => sum + (row[1] as number), 0);
    expect(summed!._rows[0]![0] as number).toBeCloseTo(whole, 9);
  });

  it("answers a later statement that reads the name a fork leg's as gave", async () => {
    const result = tables(
      await client.execute(customerId, 'range x from 1 to 5 step 1 | fork (where x > 3 | as Big) (count); Big | count'),
    );
    expect(result.map((t) => t.name)).toEqual(['Big', 'PrimaryResult', 'PrimaryResult']);
    expect(result.map((t) => t._rows)).toEqual([[[4], [5]], [[5]], [[2]]]);
  });

  it('refuses a batch that reads an as name on /query/table with a 400 at the second statement', async () => {
    const answer = await query(stack, token, 'print 1 | as X; X', windowAroundNow());
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'QUERY_UNSUPPORTED',
      message: expect.stringMatching(/^1:17: the query is a batch/),
    });
  });

  it('refuses a batch on /query/table with a 400 at the second statement', async () => {
    const answer = await query(stack, token, 'range x from 1 to 3 step 1; print 1', windowAroundNow());
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      status: 'ERROR',
      code: 'QUERY_UNSUPPORTED',
      message: expect.stringMatching(/^1:29: the query is a batch of 2 tabular statements, .*\/v1\/rest\/query/),
      data: [expect.objectContaining({ line: 1, column: 29 })],
    });
  });
});
