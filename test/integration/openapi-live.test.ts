// Live answers of the maintenance API match the OpenAPI document the stack serves: each route's
// 200 body and an error body validate against the document's own schemas (JSON Schema 2020-12, as
// OpenAPI 3.1 says), and the document names the address it was served from.
import { randomBytes } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMaintenance } from '../../lib/adapters/dynamodb/maintenance';
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import { demoAssets } from '../../lib/maintenance/demo';
import { createCustomer, createPlant, setLookupList } from '../../lib/registry/admin';
import { issueMaintenanceToken, redeemTokenLink } from '../../lib/registry/tokens';
import type { OfflineStack } from '../support/offline-stack';
import { sharedOfflineStack } from '../support/shared-stack';

// A customer and plant of this file's own on the run's shared stack (vitest.config.ts).
const CUSTOMER = `openapi-${randomBytes(3).toString('hex')}`;
const P1 = `${CUSTOMER}-plant-1`;
const PLANT = '/maintenance/v1/plants/{plantId}';
const asset = { tagNumber: 'P-101', serialNumber: 'SN-44871', externalReference: 'ERP-10001' };

describe('maintenance API answers match its served OpenAPI document', () => {
  let stack: OfflineStack;
  let token: string;
  let document: { servers?: Array<{ url: string }> };
  const closers: Array<() => void> = [];
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);

  /** The schema of one documented response, resolved inside the document (its $refs point there). */
  const schemaOf = (path: string, method: string, status: number) => {
    const pointer = ['paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema']
      .map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1'))
      .join('/');
    const validate = ajv.getSchema(`openapi#/${pointer}`);
    if (!validate) throw new Error(`no schema for ${method} ${path} ${status}`);
    return validate;
  };

  async function expectDocumented(method: string, path: string, url: string, init: RequestInit = {}): Promise<number> {
    const response = await fetch(`${stack.httpUrl}${url}`, {
      method: method.toUpperCase(),
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
    });
    const body = (await response.json()) as unknown;
    const validate = schemaOf(path, method, response.status);
    expect({ url, status: response.status, valid: validate(body), errors: validate.errors ?? null }).toEqual({
      url,
      status: response.status,
      valid: true,
      errors: null,
    });
    return response.status;
  }

  beforeAll(async () => {
    stack = await sharedOfflineStack();
    const where = {
      endpoint: `http://127.0.0.1:${stack.ports.dynamodb}`,
      tableName: 'industrial-insights-local-main',
      region: 'eu-west-1',
    };
    const { registry, close } = openRegistry(where);
    const { repository, close: closeMaintenance } = openMaintenance(where);
    closers.push(close, closeMaintenance);
    const now = new Date();
    await createCustomer(registry, { customerId: CUSTOMER, now });
    await createPlant(registry, { customerId: CUSTOMER, plantId: P1, now });
    // The lookups the task below is checked against, as the demo tenant has them.
    await setLookupList(registry, {
      customerId: CUSTOMER,
      kind: 'activityKind',
      values: ['Corrective maintenance'],
      now,
    });
    await setLookupList(registry, { customerId: CUSTOMER, kind: 'assignedToRole', values: ['Mechanic'], now });
    await setLookupList(registry, { customerId: CUSTOMER, kind: 'priority', values: ['High'], now });
    await repository.putAssets(P1, demoAssets(P1));
    await repository.putJobsDone(P1, [
      {
        id: 'J1',
        plantId: P1,
        jobTitle: 'Pump check',
        doneDate: '2025-01-21',
        dueDate: null,
        activityKind: 'Inspection',
        department: 'Maintenance',
        totalTimeUsedInHours: '1.5',
        requiredPersonCount: 2,
        isFinal: true,
        asset,
        workOrder: { id: 'WO-1', remark: null },
        carriedOutByUser: { firstname: 'Anna', lastname: 'Jansen', username: 'ajansen' },
        partsUsed: [{ partNumber: 'BRG-6204-2RS', description: null, quantity: 1, unit: 'PIECE' }],
      },
    ]);
    await repository.putJobsPlanned(P1, [
      {
        id: 'PL1',
        plantId: P1,
        jobTitle: 'Pump service',
        dueDate: '2025-06-01',
        activityKind: 'Inspection',
        department: null,
        estimatedTimeInHours: '2',
        requiredPersonCount: 1,
        asset,
        workOrder: null,
      },
    ]);
    const issued = await issueMaintenanceToken(registry, { plantId: P1, now: new Date() });
    token = (await redeemTokenLink(registry, issued.linkId, new Date())).accessToken;
    document = (await (await fetch(`${stack.httpUrl}/maintenance/v1/openapi.json`)).json()) as typeof document;
    ajv.addSchema(document, 'openapi');
  });
  afterAll(async () => {
    for (const close of closers) close();
    await stack?.stop();
  });

  it('names the local stack as its server', () => {
    expect(document.servers).toEqual([{ url: stack.httpUrl }]);
  });

  it('every list route answers a page the document describes', async () => {
    expect(
      await expectDocumented(
        'get',
        `${PLANT}/jobs-done`,
        `/maintenance/v1/plants/${P1}/jobs-done?startDate=2025-01-01&endDate=2025-01-31`,
      ),
    ).toBe(200);
    expect(
      await expectDocumented(
        'get',
        `${PLANT}/jobs-planned`,
        `/maintenance/v1/plants/${P1}/jobs-planned?startDate=2025-06-01&endDate=2025-06-30`,
      ),
    ).toBe(200);
    expect(await expectDocumented('get', `${PLANT}/assets`, `/maintenance/v1/plants/${P1}/assets`)).toBe(200);
    expect(await expectDocumented('get', `${PLANT}/tasks`, `/maintenance/v1/plants/${P1}/tasks`)).toBe(200);
  });

  it('writes answer the documented envelope, and refusals the documented error', async () => {
    const task = {
      taskTitle: 'Leak at pump',
      activityKind: 'Corrective maintenance',
      assignedToRole: 'Mechanic',
      priority: 'High',
    };
    expect(
      await expectDocumented('post', `${PLANT}/tasks`, `/maintenance/v1/plants/${P1}/tasks`, {
        body: JSON.stringify(task),
      }),
    ).toBe(200);
    expect(await expectDocumented('post', `${PLANT}/tasks`, `/maintenance/v1/plants/${P1}/tasks`, { body: '{}' })).toBe(
      400,
    );
    expect(
      await expectDocumented(
        'get',
        `${PLANT}/jobs-done`,
        `/maintenance/v1/plants/${P1}/jobs-done?startDate=2025-13-01&endDate=2025-01-31`,
      ),
    ).toBe(400);
    expect(
      await expectDocumented('get', `${PLANT}/assets`, `/maintenance/v1/plants/${P1}/assets`, {
        headers: { authorization: 'Bearer nope' },
      }),
    ).toBe(401);
  });
});
