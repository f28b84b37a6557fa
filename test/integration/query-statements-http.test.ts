// Set statements and query parameters through HTTP on the offline stack: the native endpoint's
// `parameters` and the Kusto SDK's ClientRequestProperties.setParameter reach the query as literals
// (a hostile string comes back as itself), a missing or ill-typed value is a 400 with the envelope,
// and a set statement lowers the row limit. The run's shared stack (vitest.config.ts), with a
// customer of this file's own and no data.
import { randomBytes } from 'node:crypto';
import { Client, ClientRequestProperties, KustoConnectionStringBuilder } from 'azure-kusto-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfflineStack } from '../support/offline-stack';
import { sharedOfflineStack } from '../support/shared-stack';
import { query, tenantAccess, windowAroundNow, type TenantAccess } from '../support/stack-client';

const HOSTILE = `it's; DROP TABLE "States"; -- '' \\' end`;
const DECLARED = 'declare query_parameters(s:string, n:long = 2, d:datetime);\nprint s, n, d, len = strlen(s)';

describe('set and declare query_parameters over HTTP', () => {
  let stack: OfflineStack;
  let access: TenantAccess;
  let client: Client;

  beforeAll(async () => {
    stack = await sharedOfflineStack();
    access = await tenantAccess(stack, `statements-${randomBytes(3).toString('hex')}`);
    client = new Client(KustoConnectionStringBuilder.withAccessToken(stack.httpUrl, access.accessToken));
  });
  afterAll(async () => {
    client?.close();
    await stack?.stop();
  });

  it('binds the body parameters as literals: the hostile string comes back as itself', async () => {
    // Act
    const answer = await query(stack, access.accessToken, DECLARED, windowAroundNow(), {
      parameters: { s: HOSTILE, d: 'datetime(1970-05-11)', notDeclared: 'x' },
    });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.data?.rows).toEqual([[HOSTILE, 2, '1970-05-11T00:00:00Z', HOSTILE.length]]);
  });

  it('refuses a parameter without a value with a positioned 400, and a body value of another type naming the field', async () => {
    // Act
    const missing = await query(stack, access.accessToken, DECLARED, windowAroundNow(), { parameters: { s: 'a' } });
    const wrongType = await query(stack, access.accessToken, DECLARED, windowAroundNow(), {
      parameters: { s: 'a', d: { at: 1 } },
    });
    const notLiteral = await query(stack, access.accessToken, DECLARED, windowAroundNow(), {
      parameters: { s: 'a', d: 'datetime(2020-01-01)); print 1' },
    });
    // Assess
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      status: 'ERROR',
      code: 'QUERY_SEMANTIC',
      message:
        "1:48: the query parameter 'd' has no value: send it in the request's parameters (properties.Parameters on the Kusto routes) or give it a default",
      data: [{ line: 1, column: 48, start: 47, end: 48 }],
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({
      code: 'INVALID_INPUT',
      data: [expect.objectContaining({ field: 'parameters.d' })],
    });
    expect(notLiteral.status).toBe(400);
    expect(notLiteral.body.code).toBe('QUERY_SEMANTIC');
  });

  it('lowers the row limit with set truncationmaxrecords, and fixes now() with set query_now', async () => {
    // Act
    const truncated = await query(
      stack,
      access.accessToken,
      'set truncationmaxrecords = 2;\nrange x from 1 to 5 step 1',
      windowAroundNow(),
    );
    const now = await query(
      stack,
      access.accessToken,
      'set query_now = datetime(2020-02-03);\nprint now()',
      windowAroundNow(),
    );
    // Assess
    expect(truncated.status).toBe(200);
    expect(truncated.body.data?.rows).toEqual([[1], [2]]);
    expect(truncated.body.meta).toMatchObject({ truncated: true, rowLimit: 2 });
    expect(now.body.data?.rows).toEqual([['2020-02-03T00:00:00Z']]);
  });

  it("takes the Kusto SDK's setParameter values as the same literals", async () => {
    // Prepare
    const properties = new ClientRequestProperties();
    properties.setParameter('s', HOSTILE);
    properties.setParameter('n', 200000000);
    properties.setParameter('d', 'datetime(1970-05-11)');
    // Act
    const result = await client.execute(access.customerId, DECLARED, properties);
    // Assess
    const table = result.primaryResults[0] as unknown as { _rows: unknown[][] };
    expect(table._rows).toEqual([[HOSTILE, 200000000, '1970-05-11T00:00:00Z', HOSTILE.length]]);
  });

  it("takes the Kusto SDK's setOption request properties as the same set statements, and refuses a wrong type", async () => {
    // Prepare: servertimeout through the SDK's setTimeout (sent as "00:04:00.000"), an option of the SDK's own
    const properties = new ClientRequestProperties();
    properties.setOption('query_now', '2020-02-03T00:00:00Z');
    properties.setOption('query_take_max_records', 2);
    properties.setOption('notruncation', true);
    properties.setOption('some_client_side_option', { any: 'thing' });
    properties.setTimeout(240_000);
    const wrong = new ClientRequestProperties();
    wrong.setOption('truncationmaxrecords', 'many');
    // Act
    const result = await client.execute(access.customerId, 'range x from 1 to 5 step 1 | extend t = now()', properties);
    const refused = await client.execute(access.customerId, 'print 1', wrong).catch((e: unknown) => e);
    // Assess
    const table = result.primaryResults[0] as unknown as { _rows: unknown[][] };
    expect(table._rows).toEqual([
      [1, '2020-02-03T00:00:00Z'],
      [2, '2020-02-03T00:00:00Z'],
    ]);
    const response = (refused as { response?: { status: number; data: { error: Record<string, unknown> } } }).response;
    expect(response?.status).toBe(400);
    expect(response?.data.error).toMatchObject({
      '@errorCode': 'INVALID_INPUT',
      '@message': expect.stringContaining('properties.Options.truncationmaxrecords must be a long'),
    });
  });
});
