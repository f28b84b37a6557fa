// Task creation and stock levels on fakes of the repository and the registry (test/support/fakes):
// lookups, the asset check, Idempotency-Key replays (sequential and racing), If-Match decisions and
// a concurrent writer. The same services behind HTTP on the offline stack are in
// test/integration/maintenance-api.test.ts.
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../lib/auth/caller';
import type { MaintenanceDeps } from '../../../lib/maintenance/deps';
import { parseIfMatch, setStockLevel } from '../../../lib/maintenance/stock';
import { createTask } from '../../../lib/maintenance/tasks';
import { fakeMaintenanceRepository } from '../../support/fakes/maintenance';
import { fakeRegistry } from '../../support/fakes/registry';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const caller: Caller = { kind: 'plant-token', customerId: 'acme', plantIds: ['p1'], allPlants: false, tokenId: 'tok1' };
const body = { taskTitle: 'Replace filter', activityKind: 'Repair', assignedToRole: 'Mechanic', priority: 'High' };

async function setup(options: { lookups?: boolean } = {}) {
  const registry = fakeRegistry();
  const created = NOW.toISOString();
  await registry.createCustomer({ customerId: 'acme', name: 'Acme', createdAt: created });
  await registry.createCustomer({ customerId: 'other', name: 'Other', createdAt: created });
  await registry.createPlant({ plantId: 'p1', customerId: 'acme', name: 'P1', createdAt: created });
  await registry.createPlant({ plantId: 'x1', customerId: 'other', name: 'X1', createdAt: created });
  if (options.lookups !== false) {
    for (const [kind, values] of [
      ['activityKind', ['Repair', 'Inspection']],
      ['assignedToRole', ['Mechanic']],
      ['priority', ['High', 'Low']],
    ] as const) {
      await registry.setLookupList({ customerId: 'acme', kind, values, updatedAt: created });
    }
  }
  await registry.putParts([
    { customerId: 'acme', plantId: null, partNumber: 'BOLT-8', description: 'Bolt', unit: 'PIECE' },
  ]);
  const repository = fakeMaintenanceRepository();
  await repository.putAssets('p1', [
    {
      tagNumber: 'PUMP-1',
      plantId: 'p1',
      serialNumber: 'SN1',
      externalReference: null,
      description: null,
      manufacturer: null,
      model: null,
      location: null,
    },
  ]);
  let ids = 0;
  const deps: MaintenanceDeps = { repository, registry, now: () => NOW, newId: () => `task-${++ids}` };
  return { deps, repository, registry };
}

describe('createTask on fakes', () => {
  it('creates a PENDING task dated today, with the asset copied from the register', async () => {
    // Prepare
    const { deps, repository } = await setup();
    // Act
    const created = await createTask(deps, caller, 'p1', { ...body, asset: { tagNumber: 'PUMP-1' } }, undefined);
    // Assess
    expect(created).toEqual({ id: 'task-1', replayed: false });
    expect([...repository.tasks.values()]).toEqual([
      expect.objectContaining({
        id: 'task-1',
        plantId: 'p1',
        taskStatus: 'PENDING',
        createdDate: '2026-03-01',
        dueDate: null,
        asset: { tagNumber: 'PUMP-1', serialNumber: 'SN1', externalReference: null },
      }),
    ]);
  });

  it('refuses an unknown plant (404), a plant of another customer (403) and an unknown asset (400)', async () => {
    const { deps, repository } = await setup();
    await expect(createTask(deps, caller, 'nope', body, undefined)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(createTask(deps, caller, 'x1', body, undefined)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      createTask(deps, caller, 'p1', { ...body, asset: { tagNumber: 'NO-SUCH' } }, undefined),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', data: [{ field: 'asset.tagNumber' }] });
    expect(repository.tasks.size).toBe(0);
  });

  it('answers 412 naming every lookup list the company has not configured', async () => {
    const { deps } = await setup({ lookups: false });
    await expect(createTask(deps, caller, 'p1', body, undefined)).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      data: [
        expect.objectContaining({ field: 'activityKind' }),
        expect.objectContaining({ field: 'assignedToRole' }),
        expect.objectContaining({ field: 'priority' }),
      ],
    });
  });

  it('refuses a value not in the list, compared exactly', async () => {
    const { deps } = await setup();
    await expect(createTask(deps, caller, 'p1', { ...body, priority: 'high' }, undefined)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      data: [expect.objectContaining({ field: 'priority', value: 'high' })],
    });
  });

  it('replays a retry with the same Idempotency-Key and body: the first task, nothing new', async () => {
    const { deps, repository } = await setup();
    const first = await createTask(deps, caller, 'p1', body, 'key-1');
    const again = await createTask(deps, caller, 'p1', { ...body }, 'key-1');
    expect(first).toEqual({ id: 'task-1', replayed: false });
    expect(again).toEqual({ id: 'task-1', replayed: true });
    expect(repository.tasks.size).toBe(1);
  });

  it('answers 412 for a key reused with another body, and keeps keys apart per caller', async () => {
    const { deps, repository } = await setup();
    await createTask(deps, caller, 'p1', body, 'key-1');
    await expect(createTask(deps, caller, 'p1', { ...body, taskTitle: 'Other' }, 'key-1')).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      data: [{ field: 'Idempotency-Key', taskId: 'task-1' }],
    });
    const otherCaller: Caller = { ...caller, tokenId: 'tok2' };
    expect(await createTask(deps, otherCaller, 'p1', body, 'key-1')).toEqual({ id: 'task-2', replayed: false });
    expect(repository.tasks.size).toBe(2);
  });

  it('replays when a racing request stored the same key between the check and the write', async () => {
    const { deps, repository } = await setup();
    repository.beforeCreateTask = async (write) => {
      await repository.createTask({ ...write, task: { ...write.task, id: 'task-racer' } });
    };
    expect(await createTask(deps, caller, 'p1', body, 'key-1')).toEqual({ id: 'task-racer', replayed: true });
    expect([...repository.tasks.values()].map((t) => t.id)).toEqual(['task-racer']);
  });

  it('refuses an Idempotency-Key that is not visible ASCII before touching the repository', async () => {
    const { deps, repository } = await setup();
    await expect(createTask(deps, caller, 'p1', body, 'key with spaces')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      data: [{ field: 'Idempotency-Key' }],
    });
    expect(repository.tasks.size).toBe(0);
  });
});

describe('setStockLevel on fakes', () => {
  const level = (quantity: number) => ({ id: 'BOLT-8', quantity });

  it('creates version 1 with the part unit, then version 2 with the history of both', async () => {
    const { deps, repository } = await setup();
    const first = await setStockLevel(deps, caller, 'p1', 'BOLT-8', level(10), undefined);
    const second = await setStockLevel(deps, caller, 'p1', 'BOLT-8', level(7), '"1"');
    expect(first).toMatchObject({
      version: 1,
      quantity: 10,
      unit: 'PIECE',
      updatedBy: 'plant-token:tok1',
      isShort: false,
    });
    expect(second).toMatchObject({ version: 2, quantity: 7 });
    expect(await repository.listStockHistory('p1', 'BOLT-8')).toEqual([
      expect.objectContaining({ version: 1, oldQuantity: null, newQuantity: 10 }),
      expect.objectContaining({ version: 2, oldQuantity: 10, newQuantity: 7 }),
    ]);
  });

  it('answers 412 when If-Match names another version; * matches any existing level', async () => {
    const { deps } = await setup();
    await setStockLevel(deps, caller, 'p1', 'BOLT-8', level(10), undefined);
    await expect(setStockLevel(deps, caller, 'p1', 'BOLT-8', level(9), '"2"')).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      data: [{ field: 'If-Match', currentVersion: 1 }],
    });
    expect(await setStockLevel(deps, caller, 'p1', 'BOLT-8', level(9), '*')).toMatchObject({ version: 2, quantity: 9 });
  });

  it.each(['"1"', '*'])('answers 412 for If-Match %s on a level that does not exist yet', async (ifMatch) => {
    const { deps, repository } = await setup();
    await expect(setStockLevel(deps, caller, 'p1', 'BOLT-8', level(1), ifMatch)).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'the stock level does not exist yet; send it without If-Match',
    });
    expect(repository.stock.size).toBe(0);
  });

  it('with If-Match, fails when another writer came between read and write', async () => {
    const { deps, repository } = await setup();
    await setStockLevel(deps, caller, 'p1', 'BOLT-8', level(10), undefined);
    repository.beforePutStockLevel = async (mine) => {
      repository.beforePutStockLevel = undefined;
      repository.writeStockLevel({ ...mine, quantity: 99, updatedBy: 'someone else' });
    };
    await expect(setStockLevel(deps, caller, 'p1', 'BOLT-8', level(5), '"1"')).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'the stock level changed meanwhile; read it again before changing it',
    });
  });

  it('without If-Match, applies on top of a concurrent change and keeps it in the history', async () => {
    const { deps, repository } = await setup();
    await setStockLevel(deps, caller, 'p1', 'BOLT-8', level(10), undefined);
    repository.beforePutStockLevel = async (mine) => {
      repository.beforePutStockLevel = undefined;
      repository.writeStockLevel({ ...mine, quantity: 99, updatedBy: 'someone else' });
    };
    const result = await setStockLevel(deps, caller, 'p1', 'BOLT-8', level(5), undefined);
    expect(result).toMatchObject({ version: 3, quantity: 5 });
    expect((await repository.listStockHistory('p1', 'BOLT-8')).map((c) => [c.version, c.newQuantity])).toEqual([
      [1, 10],
      [2, 99],
      [3, 5],
    ]);
  });

  it('gives up with 503 when the level keeps changing', async () => {
    const { deps, repository } = await setup();
    repository.beforePutStockLevel = async (mine) => repository.writeStockLevel({ ...mine, updatedBy: 'someone else' });
    await expect(setStockLevel(deps, caller, 'p1', 'BOLT-8', level(5), undefined)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('refuses an id differing from the path and a part unknown to the plant and the company', async () => {
    const { deps } = await setup();
    await expect(
      setStockLevel(deps, caller, 'p1', 'BOLT-8', { id: 'NUT-1', quantity: 1 }, undefined),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', data: [{ field: 'id' }] });
    await expect(
      setStockLevel(deps, caller, 'p1', 'NUT-1', { id: 'NUT-1', quantity: 1 }, undefined),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', data: [{ field: 'partId' }] });
  });

  it.each([
    [undefined, undefined],
    ['*', '*'],
    ['"3"', 3],
    ['W/"3"', 3],
    ['3', 3],
  ])('reads If-Match %s as %s', (raw, expected) => {
    expect(parseIfMatch(raw)).toBe(expected);
  });

  it.each(['"0"', '"abc"', '', '"1", "2"'])('refuses If-Match %j with 400', (raw) => {
    expect(() => parseIfMatch(raw)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
