// The maintenance API end to end on the offline stack (DynamoDB Local, the maintenance authorizer,
// serverless-offline): every endpoint, every status, paging edges, lookups, units, idempotency,
// stock history. Records are written through the same repository the admin import uses.
// On the run's shared stack (vitest.config.ts), with customers and plants of this file's own:
// the lookup lists and parts of the demo tenant, under ids no other file uses.
import { randomBytes } from 'node:crypto';
import { DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMaintenance } from '../../lib/adapters/dynamodb/maintenance';
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import { createCustomer, createPlant, setLookupList } from '../../lib/registry/admin';
import type { Registry } from '../../lib/registry/ports';
import { issueMaintenanceToken, redeemTokenLink } from '../../lib/registry/tokens';
import { INVENTORY_UNITS } from '../../lib/registry/units';
import type { MaintenanceRepository } from '../../lib/maintenance/ports';
import type { JobDone, Task } from '../../lib/maintenance/records';
import { demoAssets } from '../../lib/maintenance/demo';
import type { OfflineStack } from '../support/offline-stack';
import { sharedOfflineStack } from '../support/shared-stack';

const TABLE = 'industrial-insights-local-main';
const CUSTOMER = `maintenance-${randomBytes(3).toString('hex')}`;
const P1 = `${CUSTOMER}-plant-1`;
const P2 = `${CUSTOMER}-plant-2`;
const GONE = `${CUSTOMER}-gone`;
/** A customer without lookup lists. */
const ACME = `${CUSTOMER}-acme`;
const ACME1 = `${ACME}-1`;
/** The demo tenant's lookup lists (lib/registry/seed.ts), which the requests below use. */
const LOOKUPS = {
  activityKind: ['Inspection', 'Preventive maintenance', 'Corrective maintenance', 'Calibration'],
  assignedToRole: ['Mechanic', 'Electrician', 'Operator', 'Maintenance planner'],
  priority: ['Low', 'Medium', 'High', 'Urgent'],
  department: ['Production', 'Maintenance', 'Utilities'],
};
const BASE = `/maintenance/v1/plants/${P1}`;
const JOB_FIELDS = [
  'activityKind',
  'asset',
  'carriedOutByUser',
  'department',
  'doneDate',
  'dueDate',
  'id',
  'isFinal',
  'jobTitle',
  'partsUsed',
  'plantId',
  'requiredPersonCount',
  'totalTimeUsedInHours',
  'workOrder',
];

/** 250 jobs: 5 a day from 2025-01-20 to 2025-03-10 (50 days), ids sortable. */
function jobs(): JobDone[] {
  return Array.from({ length: 250 }, (_, i) => {
    const date = new Date(Date.UTC(2025, 0, 20) + Math.floor(i / 5) * 86_400_000).toISOString().slice(0, 10);
    return {
      id: `J${String(i).padStart(4, '0')}`,
      plantId: P1,
      jobTitle: `Job ${i}`,
      doneDate: date,
      dueDate: i % 2 ? date : null,
      activityKind: 'Inspection',
      department: 'Maintenance',
      totalTimeUsedInHours: '1.5',
      requiredPersonCount: 2,
      isFinal: true,
      asset: { tagNumber: 'P-101', serialNumber: 'SN-44871', externalReference: 'ERP-10001' },
      workOrder: { id: `WO-${i}`, remark: null },
      carriedOutByUser: { firstname: 'Anna', lastname: 'Jansen', username: 'ajansen' },
      partsUsed: i % 10 === 0 ? [{ partNumber: 'BRG-6204-2RS', description: null, quantity: 1, unit: 'PIECE' }] : [],
    };
  });
}

describe('maintenance API on the offline stack', () => {
  let stack: OfflineStack;
  let registry: Registry;
  let repository: MaintenanceRepository;
  const closers: Array<() => void> = [];
  let token: string;
  let otherPlantToken: string;
  let goneToken: string;
  let noLookupsToken: string;

  async function tokenFor(plantId: string): Promise<string> {
    const issued = await issueMaintenanceToken(registry, { plantId, now: new Date() });
    return (await redeemTokenLink(registry, issued.linkId, new Date())).accessToken;
  }

  const call = (
    method: string,
    route: string,
    options: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${stack.httpUrl}${route}`, {
      method,
      headers: {
        ...(options.token === null ? {} : { Authorization: `Bearer ${options.token ?? token}` }),
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined
        ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
        : {}),
    });
  const getJson = async (route: string, t?: string) => {
    const response = await call('GET', route, { token: t });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown> & { data: Array<Record<string, unknown>> },
    };
  };
  async function expectError(
    response: Response,
    status: number,
    code: string,
    field?: string,
  ): Promise<Record<string, unknown>> {
    const body = (await response.json()) as { data: Array<{ field?: string }> };
    expect({ status: response.status, body }).toMatchObject({
      status,
      body: { status: 'ERROR', code, message: expect.any(String), data: expect.any(Array) },
    });
    if (field !== undefined) expect(body.data.map((d) => d.field)).toContain(field);
    return body;
  }

  beforeAll(async () => {
    stack = await sharedOfflineStack();
    const where = { endpoint: `http://127.0.0.1:${stack.ports.dynamodb}`, tableName: TABLE, region: 'eu-west-1' };
    const r = openRegistry(where);
    const m = openMaintenance(where);
    registry = r.registry;
    repository = m.repository;
    closers.push(r.close, m.close);
    const now = new Date();
    await createCustomer(registry, { customerId: CUSTOMER, now });
    for (const plantId of [P1, P2, GONE]) await createPlant(registry, { customerId: CUSTOMER, plantId, now });
    for (const [kind, values] of Object.entries(LOOKUPS))
      await setLookupList(registry, { customerId: CUSTOMER, kind, values, now });
    // The demo tenant's parts: two of the customer, one of each plant.
    await registry.putParts([
      { customerId: CUSTOMER, plantId: null, partNumber: 'BRG-6204-2RS', description: 'Bearing', unit: 'PIECE' },
      { customerId: CUSTOMER, plantId: null, partNumber: 'OIL-ISO-VG46', description: 'Oil', unit: 'LITER' },
      { customerId: CUSTOMER, plantId: P1, partNumber: 'BELT-SPA-1250', description: 'V-belt', unit: 'PIECE' },
      { customerId: CUSTOMER, plantId: P2, partNumber: 'FLT-HYD-10U', description: 'Filter', unit: 'PIECE' },
    ]);
    await createCustomer(registry, { customerId: ACME, now });
    await createPlant(registry, { customerId: ACME, plantId: ACME1, now });
    [token, otherPlantToken, goneToken, noLookupsToken] = await Promise.all([
      tokenFor(P1),
      tokenFor(P2),
      tokenFor(GONE),
      tokenFor(ACME1),
    ]);
    // An operator removed the plant after issuing its token: the token still authenticates.
    const raw = new DynamoDBClient({
      endpoint: where.endpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    await DynamoDBDocumentClient.from(raw).send(
      new DeleteCommand({ TableName: TABLE, Key: { PK: `PLANT#${GONE}`, SK: 'PLANT' } }),
    );
    raw.destroy();
    await repository.putAssets(P1, demoAssets(P1));
    await repository.putJobsDone(P1, jobs());
    await repository.putJobsPlanned(P1, [
      {
        id: 'PL1',
        plantId: P1,
        jobTitle: 'Pump check',
        dueDate: '2025-06-01',
        activityKind: 'Inspection',
        department: null,
        estimatedTimeInHours: '2',
        requiredPersonCount: 1,
        asset: { tagNumber: 'P-101', serialNumber: 'SN-44871', externalReference: 'ERP-10001' },
        workOrder: null,
      },
      {
        id: 'PL2',
        plantId: P1,
        jobTitle: 'Pump service',
        dueDate: '2025-06-15',
        activityKind: 'Preventive maintenance',
        department: 'Maintenance',
        estimatedTimeInHours: null,
        requiredPersonCount: null,
        asset: { tagNumber: 'P-101', serialNumber: 'SN-44871', externalReference: 'ERP-10001' },
        workOrder: null,
      },
      {
        id: 'PL3',
        plantId: P1,
        jobTitle: 'Conveyor belt',
        dueDate: '2025-06-10',
        activityKind: 'Inspection',
        department: null,
        estimatedTimeInHours: '1',
        requiredPersonCount: 2,
        asset: { tagNumber: 'C-201', serialNumber: 'SN-90210', externalReference: 'ERP-20001' },
        workOrder: null,
      },
      {
        id: 'PL4',
        plantId: P1,
        jobTitle: 'No asset',
        dueDate: '2025-07-01',
        activityKind: null,
        department: null,
        estimatedTimeInHours: null,
        requiredPersonCount: null,
        asset: null,
        workOrder: null,
      },
    ]);
    const base: Omit<Task, 'id' | 'taskStatus'> = {
      plantId: P1,
      taskTitle: 'Imported',
      taskDescription: null,
      activityKind: 'Inspection',
      assignedToRole: 'Mechanic',
      priority: 'Low',
      createdDate: '2024-12-01',
      dueDate: null,
      incidentDate: null,
      asset: null,
    };
    await repository.putTasks(P1, [
      { ...base, id: 'T-CLOSED-1', taskStatus: 'CLOSED' },
      { ...base, id: 'T-CLOSED-2', taskStatus: 'CLOSED', createdDate: '2024-12-02' },
      { ...base, id: 'T-POSTPONED', taskStatus: 'POSTPONED' },
    ]);
  });
  afterAll(async () => {
    for (const close of closers) close();
    await stack?.stop();
  });

  describe('jobs-done', () => {
    it('answers the jobs of an inclusive date range with exactly the spec fields', async () => {
      const { status, body } = await getJson(`${BASE}/jobs-done?startDate=2025-01-21&endDate=2025-01-22`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ page: 1, pageSize: 100, totalPages: 1 });
      expect(body.data.map((j) => j.id)).toEqual([
        'J0005',
        'J0006',
        'J0007',
        'J0008',
        'J0009',
        'J0010',
        'J0011',
        'J0012',
        'J0013',
        'J0014',
      ]);
      expect(Object.keys(body.data[0] ?? {}).sort()).toEqual(JOB_FIELDS);
      expect(body.data[0]).toMatchObject({
        totalTimeUsedInHours: '1.5',
        partsUsed: [],
        asset: { tagNumber: 'P-101' },
        workOrder: { id: 'WO-5' },
        carriedOutByUser: { username: 'ajansen' },
      });
    });

    it('pages through every job once, in order, across month boundaries', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 7; page++) {
        const { body } = await getJson(
          `${BASE}/jobs-done?startDate=2025-01-25&endDate=2025-03-03&pageSize=37&page=${page}`,
        );
        expect(body).toMatchObject({ page, pageSize: 37, totalPages: 6 });
        seen.push(...body.data.map((j) => String(j.id)));
      }
      const expected = jobs()
        .filter((j) => j.doneDate >= '2025-01-25' && j.doneDate <= '2025-03-03')
        .map((j) => j.id);
      expect(seen).toEqual(expected);
    });

    it('answers the dates decisions: no dates is the whole history, zero records is totalPages 0', async () => {
      expect((await getJson(`${BASE}/jobs-done?pageSize=1000`)).body).toMatchObject({ totalPages: 1, page: 1 });
      expect((await getJson(`${BASE}/jobs-done?pageSize=1000`)).body.data).toHaveLength(250);
      expect((await getJson(`${BASE}/jobs-done?startDate=2030-01-01`)).body).toEqual({
        data: [],
        page: 1,
        totalPages: 0,
        pageSize: 100,
      });
      expect((await getJson(`${BASE}/jobs-done?endDate=2025-01-20&pageSize=2&page=3`)).body).toEqual({
        data: [expect.objectContaining({ id: 'J0004' })],
        page: 3,
        totalPages: 3,
        pageSize: 2,
      });
    });

    it('answers a page past the end with no data and the true totalPages', async () => {
      expect((await getJson(`${BASE}/jobs-done?page=4`)).body).toEqual({
        data: [],
        page: 4,
        totalPages: 3,
        pageSize: 100,
      });
      expect((await getJson(`${BASE}/jobs-done?page=9999999`)).body).toMatchObject({ data: [], totalPages: 3 });
    });

    it.each([
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['page=', 'page'],
      ['page=1e2', 'page'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=1001', 'pageSize'],
      ['pageSize=ten', 'pageSize'],
      ['startDate=2025-02-30', 'startDate'],
      ['startDate=20250101', 'startDate'],
      ['endDate=yesterday', 'endDate'],
      ['startDate=2025-03-01&endDate=2025-02-01', 'endDate'],
      ['pagesize=10', 'pagesize'],
    ])('answers 400 INVALID_INPUT naming the parameter for %s', async (query, field) => {
      await expectError(await call('GET', `${BASE}/jobs-done?${query}`), 400, 'INVALID_INPUT', field);
    });
  });

  describe('authentication and plants', () => {
    it('answers 401 without a token or with a wrong one', async () => {
      await expectError(await call('GET', `${BASE}/jobs-done`, { token: null }), 401, 'UNAUTHORIZED');
      await expectError(await call('GET', `${BASE}/assets`, { token: 'not-a-token' }), 401, 'UNAUTHORIZED');
      await expectError(await call('POST', `${BASE}/tasks`, { token: null, body: {} }), 401, 'UNAUTHORIZED');
    });

    it('answers 403 for a token of another plant, on every route', async () => {
      for (const [method, route] of [
        ['GET', 'jobs-done'],
        ['GET', 'jobs-planned'],
        ['GET', 'assets'],
        ['GET', 'tasks'],
      ])
        await expectError(
          await call(method as string, `${BASE}/${route}`, { token: otherPlantToken }),
          403,
          'FORBIDDEN',
        );
      await expectError(
        await call('PUT', `${BASE}/parts/BELT-SPA-1250/stock-level`, {
          token: otherPlantToken,
          body: { id: 'BELT-SPA-1250', quantity: 1 },
        }),
        403,
        'FORBIDDEN',
      );
    });

    it('answers 404 for a plant that does not exist (any more)', async () => {
      await expectError(
        await call('GET', `/maintenance/v1/plants/${GONE}/jobs-done`, { token: goneToken }),
        404,
        'NOT_FOUND',
        'plantId',
      );
      await expectError(
        await call('GET', `/maintenance/v1/plants/${GONE}/assets`, { token: goneToken }),
        404,
        'NOT_FOUND',
        'plantId',
      );
      await expectError(
        await call('POST', `/maintenance/v1/plants/${GONE}/tasks`, {
          token: goneToken,
          body: { taskTitle: 't', activityKind: 'Inspection', assignedToRole: 'Mechanic', priority: 'Low' },
        }),
        404,
        'NOT_FOUND',
        'plantId',
      );
    });
  });

  describe('jobs-planned, assets, tasks', () => {
    it('lists planned jobs by dueDate and filters on the asset fields', async () => {
      expect((await getJson(`${BASE}/jobs-planned`)).body.data.map((j) => j.id)).toEqual(['PL1', 'PL3', 'PL2', 'PL4']);
      expect(
        (await getJson(`${BASE}/jobs-planned?startDate=2025-06-05&endDate=2025-06-30`)).body.data.map((j) => j.id),
      ).toEqual(['PL3', 'PL2']);
      expect((await getJson(`${BASE}/jobs-planned?assetTagNumber=P-101`)).body.data.map((j) => j.id)).toEqual([
        'PL1',
        'PL2',
      ]);
      expect((await getJson(`${BASE}/jobs-planned?assetSerialNumber=SN-90210`)).body.data.map((j) => j.id)).toEqual([
        'PL3',
      ]);
      expect(
        (await getJson(`${BASE}/jobs-planned?assetExternalReference=ERP-10001&endDate=2025-06-10`)).body.data.map(
          (j) => j.id,
        ),
      ).toEqual(['PL1']);
      expect((await getJson(`${BASE}/jobs-planned?assetTagNumber=P-101&assetSerialNumber=SN-90210`)).body).toEqual({
        data: [],
        page: 1,
        totalPages: 0,
        pageSize: 100,
      });
      const page2 = await getJson(`${BASE}/jobs-planned?assetTagNumber=P-101&pageSize=1&page=2`);
      expect(page2.body).toMatchObject({
        data: [{ id: 'PL2', estimatedTimeInHours: null, requiredPersonCount: null }],
        totalPages: 2,
      });
      await expectError(
        await call('GET', `${BASE}/jobs-planned?assetTagNumber=`),
        400,
        'INVALID_INPUT',
        'assetTagNumber',
      );
    });

    it('lists assets by tag number, paged', async () => {
      const first = await getJson(`${BASE}/assets?pageSize=3`);
      expect(first.body).toMatchObject({ page: 1, totalPages: 3, pageSize: 3 });
      expect(first.body.data.map((a) => a.tagNumber)).toEqual(['B-601', 'C-201', 'C-202']);
      expect(Object.keys(first.body.data[0] ?? {}).sort()).toEqual([
        'description',
        'externalReference',
        'location',
        'manufacturer',
        'model',
        'plantId',
        'serialNumber',
        'tagNumber',
      ]);
      expect((await getJson(`${BASE}/assets?pageSize=3&page=3`)).body.data.map((a) => a.tagNumber)).toEqual([
        'P-101',
        'P-102',
      ]);
      expect((await getJson(`${BASE}/assets?page=4&pageSize=3`)).body).toEqual({
        data: [],
        page: 4,
        totalPages: 3,
        pageSize: 3,
      });
      await expectError(await call('GET', `${BASE}/assets?pageSize=1001`), 400, 'INVALID_INPUT', 'pageSize');
    });

    it('lists tasks, filtered by status', async () => {
      expect((await getJson(`${BASE}/tasks?taskStatus=CLOSED`)).body).toMatchObject({
        data: [{ id: 'T-CLOSED-1' }, { id: 'T-CLOSED-2' }],
        totalPages: 1,
      });
      expect((await getJson(`${BASE}/tasks?taskStatus=NEED_APPROVAL`)).body).toEqual({
        data: [],
        page: 1,
        totalPages: 0,
        pageSize: 100,
      });
      await expectError(await call('GET', `${BASE}/tasks?taskStatus=closed`), 400, 'INVALID_INPUT', 'taskStatus');
      await expectError(await call('GET', `${BASE}/tasks?taskStatus=DONE`), 400, 'INVALID_INPUT', 'taskStatus');
    });
  });

  describe('POST tasks', () => {
    const minimal = {
      taskTitle: 'Leak at pump',
      activityKind: 'Corrective maintenance',
      assignedToRole: 'Mechanic',
      priority: 'High',
    };

    it('creates a PENDING task with every optional field absent', async () => {
      const response = await call('POST', `${BASE}/tasks`, { body: minimal });
      const body = (await response.json()) as { data: Array<{ id: string }> };
      expect(response.status).toBe(200);
      expect(body).toEqual({ status: 'SUCCESS', code: 'SUCCESS', message: null, data: [{ id: expect.any(String) }] });
      const id = body.data[0]?.id;
      const listed = (await getJson(`${BASE}/tasks?taskStatus=PENDING&pageSize=1000`)).body.data.find(
        (t) => t.id === id,
      );
      expect(listed).toEqual({
        id,
        plantId: P1,
        ...minimal,
        taskDescription: null,
        taskStatus: 'PENDING',
        createdDate: new Date().toISOString().slice(0, 10),
        dueDate: null,
        incidentDate: null,
        asset: null,
      });
    });

    it('creates a task with every field, the asset completed from the register', async () => {
      const full = {
        ...minimal,
        taskDescription: 'Drips',
        createdDate: '2025-05-01',
        dueDate: '2025-05-03',
        incidentDate: '2025-04-30',
        asset: { tagNumber: 'P-101' },
      };
      const response = await call('POST', `${BASE}/tasks`, { body: full });
      const id = ((await response.json()) as { data: Array<{ id: string }> }).data[0]?.id;
      const listed = (await getJson(`${BASE}/tasks?pageSize=1000`)).body.data.find((t) => t.id === id);
      expect(listed).toMatchObject({
        ...full,
        asset: { tagNumber: 'P-101', serialNumber: 'SN-44871', externalReference: 'ERP-10001' },
        taskStatus: 'PENDING',
      });
    });

    it.each(['activityKind', 'assignedToRole', 'priority'])(
      'answers 400 naming %s when it is not exactly a configured value',
      async (field) => {
        await expectError(
          await call('POST', `${BASE}/tasks`, { body: { ...minimal, [field]: 'Not configured' } }),
          400,
          'INVALID_INPUT',
          field,
        );
        await expectError(
          await call('POST', `${BASE}/tasks`, {
            body: { ...minimal, [field]: (minimal as Record<string, string>)[field]?.toLowerCase() },
          }),
          400,
          'INVALID_INPUT',
          field,
        );
        const { [field]: _gone, ...without } = minimal as Record<string, string>;
        await expectError(await call('POST', `${BASE}/tasks`, { body: without }), 400, 'INVALID_INPUT', field);
      },
    );

    it('answers 400 for bad bodies, naming the field', async () => {
      await expectError(
        await call('POST', `${BASE}/tasks`, { body: { ...minimal, asset: { tagNumber: 'NOPE-1' } } }),
        400,
        'INVALID_INPUT',
        'asset.tagNumber',
      );
      await expectError(
        await call('POST', `${BASE}/tasks`, { body: { ...minimal, department: 'Production' } }),
        400,
        'INVALID_INPUT',
        'department',
      );
      await expectError(
        await call('POST', `${BASE}/tasks`, { body: { ...minimal, dueDate: '2025-13-01' } }),
        400,
        'INVALID_INPUT',
        'dueDate',
      );
      await expectError(
        await call('POST', `${BASE}/tasks`, { body: { ...minimal, taskTitle: 42 } }),
        400,
        'INVALID_INPUT',
        'taskTitle',
      );
      await expectError(await call('POST', `${BASE}/tasks`, { body: '{"taskTitle": ' }), 400, 'INVALID_INPUT', 'body');
      await expectError(await call('POST', `${BASE}/tasks`, { body: '[1,2]' }), 400, 'INVALID_INPUT');
      await expectError(
        await call('POST', `${BASE}/tasks`, {
          body: JSON.stringify(minimal),
          headers: { 'Content-Type': 'text/plain' },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });

    it('answers 412 when the company has no lookup lists configured', async () => {
      await expectError(
        await call('POST', `/maintenance/v1/plants/${ACME1}/tasks`, { token: noLookupsToken, body: minimal }),
        412,
        'PRECONDITION_FAILED',
        'activityKind',
      );
    });

    it('returns the first result for a retried Idempotency-Key, and 412 for the key with another body', async () => {
      const headers = { 'Idempotency-Key': `key-${Date.now()}` };
      const first = await call('POST', `${BASE}/tasks`, { body: { ...minimal, taskTitle: 'Once' }, headers });
      const again = await call('POST', `${BASE}/tasks`, { body: { ...minimal, taskTitle: 'Once' }, headers });
      const a = (await first.json()) as { data: Array<{ id: string }> };
      const b = (await again.json()) as { data: Array<{ id: string }> };
      expect(again.status).toBe(200);
      expect(b.data[0]?.id).toBe(a.data[0]?.id);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(
        (await getJson(`${BASE}/tasks?pageSize=1000`)).body.data.filter((t) => t.taskTitle === 'Once'),
      ).toHaveLength(1);
      await expectError(
        await call('POST', `${BASE}/tasks`, { body: { ...minimal, taskTitle: 'Other' }, headers }),
        412,
        'PRECONDITION_FAILED',
        'Idempotency-Key',
      );
      await expectError(
        await call('POST', `${BASE}/tasks`, { body: minimal, headers: { 'Idempotency-Key': 'x'.repeat(201) } }),
        400,
        'INVALID_INPUT',
        'Idempotency-Key',
      );
    });
  });

  describe('PUT stock-level', () => {
    const put = (partId: string, body: unknown, headers: Record<string, string> = {}) =>
      call('PUT', `${BASE}/parts/${encodeURIComponent(partId)}/stock-level`, { body, headers });

    it('accepts every unit of the fixed list', async () => {
      for (const unit of INVENTORY_UNITS) {
        const response = await put('OIL-ISO-VG46', { id: 'OIL-ISO-VG46', quantity: 12.5, unit });
        expect({ unit, status: response.status }).toEqual({ unit, status: 200 });
        expect(((await response.json()) as { data: Array<{ unit: string }> }).data[0]?.unit).toBe(unit);
      }
      await expectError(
        await put('OIL-ISO-VG46', { id: 'OIL-ISO-VG46', quantity: 1, unit: 'liter' }),
        400,
        'INVALID_INPUT',
        'unit',
      );
      await expectError(
        await put('OIL-ISO-VG46', { id: 'OIL-ISO-VG46', quantity: 1, unit: 'GALLON' }),
        400,
        'INVALID_INPUT',
        'unit',
      );
    });

    it('sets a level with only the required fields and keeps every change in the history', async () => {
      const first = await put('BELT-SPA-1250', { id: 'BELT-SPA-1250', quantity: 10 });
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({
        status: 'SUCCESS',
        code: 'SUCCESS',
        message: null,
        data: [
          expect.objectContaining({
            id: 'BELT-SPA-1250',
            quantity: 10,
            unit: 'PIECE',
            remark: null,
            isShort: false,
            version: 1,
          }),
        ],
      });
      expect(first.headers.get('etag')).toBe('"1"');
      await put('BELT-SPA-1250', { id: 'BELT-SPA-1250', quantity: 4, remark: 'used 6', isShort: true });
      await put('BELT-SPA-1250', { id: 'BELT-SPA-1250', quantity: 0, unit: 'SET' });
      const history = await repository.listStockHistory(P1, 'BELT-SPA-1250');
      expect(history.map((h) => [h.version, h.oldQuantity, h.newQuantity])).toEqual([
        [1, null, 10],
        [2, 10, 4],
        [3, 4, 0],
      ]);
      expect(history[2]).toMatchObject({
        oldUnit: 'PIECE',
        newUnit: 'SET',
        by: expect.stringMatching(/^plant-token:/),
        at: expect.any(String),
      });
    });

    it('answers 412 when If-Match names another version, and applies it when current', async () => {
      await expectError(
        await put('BELT-SPA-1250', { id: 'BELT-SPA-1250', quantity: 1 }, { 'If-Match': '"1"' }),
        412,
        'PRECONDITION_FAILED',
        'If-Match',
      );
      await expectError(
        await put('BRG-6204-2RS', { id: 'BRG-6204-2RS', quantity: 1 }, { 'If-Match': '*' }),
        412,
        'PRECONDITION_FAILED',
        'If-Match',
      );
      const ok = await put('BELT-SPA-1250', { id: 'BELT-SPA-1250', quantity: 1 }, { 'If-Match': '"3"' });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('etag')).toBe('"4"');
    });

    it('answers 400 for bad bodies and 404 for an unknown part', async () => {
      await expectError(await put('BELT-SPA-1250', { id: 'OTHER', quantity: 1 }), 400, 'INVALID_INPUT', 'id');
      await expectError(await put('BELT-SPA-1250', { quantity: 1 }), 400, 'INVALID_INPUT', 'id');
      await expectError(await put('BELT-SPA-1250', { id: 'BELT-SPA-1250' }), 400, 'INVALID_INPUT', 'quantity');
      await expectError(
        await put('BELT-SPA-1250', { id: 'BELT-SPA-1250', quantity: -1 }),
        400,
        'INVALID_INPUT',
        'quantity',
      );
      await expectError(
        await put('BELT-SPA-1250', { id: 'BELT-SPA-1250', quantity: '5' }),
        400,
        'INVALID_INPUT',
        'quantity',
      );
      await expectError(
        await put('BELT-SPA-1250', '{"id":"BELT-SPA-1250","quantity":1e999}'),
        400,
        'INVALID_INPUT',
        'quantity',
      );
      await expectError(
        await put('BELT-SPA-1250', { id: 'BELT-SPA-1250', quantity: 1, isShort: 'yes' }),
        400,
        'INVALID_INPUT',
        'isShort',
      );
      await expectError(
        await put('BELT-SPA-1250', { id: 'BELT-SPA-1250', quantity: 1 }, { 'If-Match': 'v3' }),
        400,
        'INVALID_INPUT',
        'If-Match',
      );
      await expectError(await put('NO-SUCH-PART', { id: 'NO-SUCH-PART', quantity: 1 }), 404, 'NOT_FOUND', 'partId');
      // A plant-2 part is not a part of plant 1.
      await expectError(await put('FLT-HYD-10U', { id: 'FLT-HYD-10U', quantity: 1 }), 404, 'NOT_FOUND', 'partId');
    });
  });

  it('never answers 500 for odd requests', async () => {
    const routes = [
      `${BASE}/jobs-done?page=%FF`,
      `${BASE}/jobs-done?page=1&page=2`,
      `${BASE}/jobs-done?startDate=%00`,
      `${BASE}/jobs-planned?assetTagNumber=${'x'.repeat(5000)}`,
      `${BASE}/tasks?taskStatus=`,
      `${BASE}/assets?page=99999999999999999999`,
      `/maintenance/v1/plants/%23%23/assets`,
      `/maintenance/v1/plants/${'p'.repeat(300)}/tasks`,
    ];
    for (const route of routes) {
      const { status } = await call('GET', route);
      expect({ route, clientError: status >= 400 && status < 500 }).toEqual({ route, clientError: true });
    }
    for (const body of ['null', '"x"', '{"quantity": null}', '{"id": {}}'])
      expect((await call('PUT', `${BASE}/parts/BELT-SPA-1250/stock-level`, { body })).status).toBe(400);
  });

  it('serves the OpenAPI document without a token', async () => {
    const response = await call('GET', '/maintenance/v1/openapi.json', { token: null });
    const doc = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(response.status).toBe(200);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/maintenance/v1/plants/{plantId}/parts/{partId}/stock-level');
  });
});
