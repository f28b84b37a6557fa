// Issue 18: the official Kusto SDK (azure-kusto-data) against the offline stack, with nothing but
// the address and a token from our token endpoint: queries through execute (v2), executeQueryV1
// and executeMgmt, `render` in the visualization property, errors as the SDK raises them, the
// database rule, truncation, and the same answers as the native endpoint for a sample of the
// conformance corpus.
import { randomBytes } from 'node:crypto';
import {
  Client,
  ClientRequestProperties,
  KustoConnectionStringBuilder,
  type KustoResponseDataSet,
} from 'azure-kusto-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellJson } from '../../lib/kusto/values';
import type { KqlType } from '../../lib/query';
import { canonical, loadCases } from '../conformance/cases';
import type { OfflineStack } from '../support/offline-stack';
import { sharedOfflineStack } from '../support/shared-stack';
import { query, tenantAccess, windowAroundNow } from '../support/stack-client';

/** The shared stack's row limit: QUERY_ROW_LIMIT's default (lib/core/config.ts). */
const ROW_LIMIT = 10_000;
/**
 * Every 8th runnable documentation case: a spread over operators and functions. Not fork and facet:
 * they answer differently by design, several tables on the Kusto routes and a 400 on the one-table
 * endpoint (docs/query-api.md); test/unit/kusto/fork.test.ts covers them on these routes.
 */
const SAMPLE = loadCases()
  .filter(({ c }) => !c.knownGap && !/\b(States|Events)\b/.test(c.query) && !/\|\s*(fork|facet)\b/.test(c.query))
  .filter((_, i) => i % 8 === 0);

/** The SDK rethrows an HTTP failure as axios's error (its only HTTP client), with the response attached. */
interface SdkHttpError {
  readonly isAxiosError: true;
  readonly response?: {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly data: { error: Record<string, string> };
  };
}
const isAxiosError = (e: unknown): e is SdkHttpError =>
  typeof e === 'object' && e !== null && (e as { isAxiosError?: unknown }).isAxiosError === true;

type Table = {
  _rows: unknown[][];
  columns: { name: string | null; type: string | null }[];
  kind?: string;
  name: string;
};

describe('Kusto REST protocol through azure-kusto-data', () => {
  let stack: OfflineStack;
  let token: string;
  let customerId: string;
  let client: Client;

  beforeAll(async () => {
    // The run's shared stack (vitest.config.ts), with a customer of this file's own and no data.
    stack = await sharedOfflineStack();
    const access = await tenantAccess(stack, `kusto-${randomBytes(3).toString('hex')}`);
    token = access.accessToken;
    customerId = access.customerId;
    client = new Client(KustoConnectionStringBuilder.withAccessToken(stack.httpUrl, token));
  });
  afterAll(async () => {
    client?.close();
    await stack?.stop();
  });

  const primary = (data: KustoResponseDataSet) => data.primaryResults[0] as unknown as Table;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected the SDK to fail');
      },
      (e: unknown) => e,
    );

  it('answers the cloud metadata without authentication, naming our issuer and resource', async () => {
    const response = await fetch(`${stack.httpUrl}/v1/rest/auth/metadata`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ms-activity-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toMatchObject({
      AzureAD: {
        LoginEndpoint: stack.httpUrl,
        KustoServiceResourceId: 'api://industrial-insights',
        LoginMfaRequired: false,
      },
    });
  });

  it('runs a query through execute (v2) and executeQueryV1 with the same typed result', async () => {
    const text =
      'print n = 1, s = "a", t = datetime(2026-01-02 03:04:05), d = dynamic({"k": [1, 2]}), r = 2.5, b = true, span = 90m';
    const v2 = primary(await client.execute(customerId, text));
    const v1 = primary(await client.executeQueryV1(customerId, text));
    expect(v2.columns.map((c) => [c.name, c.type])).toEqual([
      ['n', 'long'],
      ['s', 'string'],
      ['t', 'datetime'],
      ['d', 'dynamic'],
      ['r', 'real'],
      ['b', 'bool'],
      ['span', 'timespan'],
    ]);
    expect(v2._rows).toEqual([[1, 'a', '2026-01-02T03:04:05Z', { k: [1, 2] }, 2.5, true, '01:30:00']]);
    expect(v1._rows).toEqual(v2._rows);
    expect(v1.columns.map((c) => c.type)).toEqual(v2.columns.map((c) => c.type));
  });

  it('answers the discovery commands through executeMgmt (and execute, which sends dot-commands there)', async () => {
    expect(primary(await client.executeMgmt(customerId, '.show tables'))._rows.map((r) => r[0])).toEqual([
      'States',
      'Events',
    ]);
    expect(primary(await client.executeMgmt(customerId, '.show databases'))._rows[0]![0]).toBe(customerId);
    expect(primary(await client.executeMgmt(customerId, '.show version'))._rows).toHaveLength(1);
    expect(primary(await client.execute(customerId, '.show functions'))._rows).toEqual([]);
    const schema = JSON.parse(
      primary(await client.executeMgmt(customerId, '.show database schema as json'))._rows[0]![0] as string,
    ) as { Databases: Record<string, { Tables: Record<string, unknown> }> };
    expect(Object.keys(schema.Databases[customerId]!.Tables)).toEqual(['States', 'Events']);
    const table = primary(await client.executeMgmt(customerId, '.show table States schema as json'))._rows[0]!;
    expect(JSON.parse(table[1] as string)).toMatchObject({
      Name: 'States',
      OrderedColumns: expect.arrayContaining([{ Name: 'Value', Type: 'System.Object', CslType: 'dynamic' }]),
    });
    const unsupported = await failure(client.executeMgmt(customerId, '.drop table States'));
    expect(isAxiosError(unsupported) && unsupported.response?.status).toBe(400);
    expect(isAxiosError(unsupported) && unsupported.response?.data.error['@message']).toMatch(/is not supported/);
  });

  it('puts render into the visualization property the SDK returns', async () => {
    const data = await client.execute(
      customerId,
      'range x from 1 to 3 step 1 | extend y = x * 2 | render timechart with (title="Doubling", ycolumns=y)',
    );
    const props = data.tables.find((t) => t.kind === 'QueryProperties') as unknown as Table;
    const [tableId, key, value] = props._rows[0]!;
    expect([tableId, key]).toEqual([1, 'Visualization']);
    expect(JSON.parse(value as string)).toMatchObject({ Visualization: 'timechart', Title: 'Doubling', YColumns: 'y' });
    expect(primary(data)._rows).toEqual([
      [1, 2],
      [2, 4],
      [3, 6],
    ]);
  });

  it('raises a syntax error as the SDK does for Kusto: HTTP 400 with OneApiErrors carrying our line:col message', async () => {
    const error = await failure(client.execute(customerId, 'print 1 | where'));
    expect(isAxiosError(error)).toBe(true);
    if (!isAxiosError(error)) return;
    expect(error.response?.status).toBe(400);
    expect(error.response?.headers['x-ms-activity-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.response?.headers['x-ms-client-request-id']).toMatch(/^KNC\.execute;/);
    expect(error.response?.data.error).toMatchObject({
      code: 'General_BadRequest',
      '@type': 'Kusto.Data.Exceptions.SyntaxException',
      '@message': expect.stringMatching(/^1:\d+: /),
      '@permanent': true,
      '@errorCode': 'QUERY_SYNTAX',
    });
  });

  it("refuses another customer's database with 403 and a request without a token with 401", async () => {
    const foreign = await failure(client.execute('someone-else', 'print 1'));
    expect(isAxiosError(foreign) && foreign.response?.status).toBe(403);
    expect(isAxiosError(foreign) && foreign.response?.data.error.code).toBe('Forbidden');
    const response = await fetch(`${stack.httpUrl}/v2/rest/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-ms-client-request-id': 'mine;1' },
      body: JSON.stringify({ db: customerId, csl: 'print 1' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-ms-client-request-id')).toBe('mine;1');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('Unauthorized');
  });

  it('reports a result over the row limit as Kusto does: the SDK raises the partial failure; raw frames hold the rows', async () => {
    const text = `range x from 1 to ${ROW_LIMIT + 1} step 1`;
    const error = await failure(client.execute(customerId, text));
    expect(String(error)).toMatch(new RegExp(`record count limit ${ROW_LIMIT} \\(E_QUERY_RESULT_SET_TOO_LARGE`));
    const properties = new ClientRequestProperties();
    properties.raw = true;
    const frames = (await client.execute(customerId, text, properties)) as unknown as {
      FrameType: string;
      TableKind?: string;
      Rows?: unknown[];
      HasErrors?: boolean;
    }[];
    expect(frames.find((f) => f.TableKind === 'PrimaryResult')?.Rows).toHaveLength(ROW_LIMIT);
    expect(frames.at(-1)).toMatchObject({ FrameType: 'DataSetCompletion', HasErrors: true });
    // truncationmaxrecords lowers the limit, as on Kusto.
    const lowered = new ClientRequestProperties({ truncationmaxrecords: 3 });
    lowered.raw = true;
    const few = (await client.execute(customerId, text, lowered)) as unknown as {
      TableKind?: string;
      Rows?: unknown[];
    }[];
    expect(few.find((f) => f.TableKind === 'PrimaryResult')?.Rows).toHaveLength(3);
  });

  it('takes the time window from query_datetimescope_from/_to and refuses one longer than allowed', async () => {
    const ok = new ClientRequestProperties({
      query_datetimescope_column: 'Timestamp',
      query_datetimescope_from: '2026-01-01T00:00:00Z',
      query_datetimescope_to: '2026-01-02T00:00:00Z',
    });
    expect(primary(await client.execute(customerId, 'States | count', ok))._rows).toEqual([[0]]);
    const tooLong = new ClientRequestProperties({
      query_datetimescope_from: '2020-01-01T00:00:00Z',
      query_datetimescope_to: '2026-01-02T00:00:00Z',
    });
    const error = await failure(client.execute(customerId, 'States | count', tooLong));
    expect(isAxiosError(error) && error.response?.data.error['@message']).toMatch(/longer than \d+ days/);
  });

  it(`gives the native endpoint's answers for ${SAMPLE.length} documentation cases`, async () => {
    expect(SAMPLE.length).toBeGreaterThanOrEqual(30);
    for (const { file, c } of SAMPLE) {
      const native = await query(stack, token, c.query, windowAroundNow());
      const viaSdk = await client.execute(customerId, c.query).then(
        (d) => primary(d),
        (e: unknown) => e,
      );
      if (native.status !== 200) {
        expect(isAxiosError(viaSdk) && viaSdk.response?.status, file).toBe(native.status);
        expect(isAxiosError(viaSdk) && viaSdk.response?.data.error['@message'], file).toBe(native.body.message);
        continue;
      }
      const table = viaSdk as Table;
      const columns = native.body.data!.columns;
      expect(
        table.columns.map((col) => [col.name, col.type]),
        file,
      ).toEqual(columns.map((col) => [col.name, col.columnType]));
      // Kusto writes decimal as text and a long beyond 2^53 as a number: the same value, Kusto's spelling.
      const expected = native.body.data!.rows.map((row) =>
        row.map((v, i) => JSON.parse(cellJson(v, columns[i]!.columnType as KqlType)) as unknown),
      );
      if (c.ordered) expect(table._rows, file).toEqual(expected);
      else expect(canonical(table._rows), file).toEqual(canonical(expected));
    }
  }, 180_000);
});
