// `insights-admin import assets|jobs-done|jobs-planned|tasks` and the repository's counters on
// DynamoDB Local: errors by line with nothing written, idempotent re-imports, records moving
// between dates and statuses keep totals right, and the demo seed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMaintenance } from '../../lib/adapters/dynamodb/maintenance';
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import { OPEN_RANGE } from '../../lib/maintenance/dates';
import { seedMaintenanceDemo } from '../../lib/maintenance/demo';
import type { MaintenanceRepository } from '../../lib/maintenance/ports';
import { createCustomer, createPlant } from '../../lib/registry/admin';
import { runAdmin } from '../../lib/cli/admin/main';
import type { DynamoDbLocal } from '../support/dynamodb-local';
import { sharedDynamoDb } from '../support/shared-dynamodb';

const ALL = { offset: 0, limit: 1000 };

describe('maintenance imports on DynamoDB Local', () => {
  let db: DynamoDbLocal;
  let repository: MaintenanceRepository;
  const closers: Array<() => void> = [];
  let dir: string;

  async function admin(...args: string[]): Promise<{ code: number; out: string }> {
    let out = '';
    const code = await runAdmin([...args, '--dynamodb-endpoint', db.endpoint, '--table', db.tableName], {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: () => undefined },
    });
    return { code, out };
  }
  async function file(name: string, text: string): Promise<string> {
    const full = path.join(dir, name);
    await writeFile(full, text);
    return full;
  }

  beforeAll(async () => {
    db = await sharedDynamoDb('maintenance-main');
    const where = { endpoint: db.endpoint, tableName: db.tableName, region: 'eu-west-1' };
    const r = openRegistry(where);
    const m = openMaintenance(where);
    closers.push(r.close, m.close);
    repository = m.repository;
    await createCustomer(r.registry, { customerId: 'acme', now: new Date() });
    await createPlant(r.registry, { customerId: 'acme', plantId: 'acme-1', now: new Date() });
    dir = await mkdtemp(path.join(tmpdir(), 'maintenance-import-'));
  });
  afterAll(async () => {
    for (const close of closers) close();
    await db?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('imports assets from CSV with dotted names and counts them once however often it runs', async () => {
    const csv = await file(
      'assets.csv',
      'tagNumber,serialNumber,externalReference,description\nP-1,S-1,R-1,Pump\nP-2,,,"Pump, standby"\n',
    );
    expect((await admin('import', 'assets', '--plant', 'acme-1', csv)).code).toBe(0);
    expect((await admin('import', 'assets', '--plant', 'acme-1', csv)).code).toBe(0);
    const slice = await repository.listAssets('acme-1', ALL);
    expect(slice.total).toBe(2);
    expect(slice.items[1]).toEqual({
      tagNumber: 'P-2',
      plantId: 'acme-1',
      serialNumber: null,
      externalReference: null,
      description: 'Pump, standby',
      manufacturer: null,
      model: null,
      location: null,
    });
  });

  it('reports bad job rows by line and writes nothing', async () => {
    const bad = await file(
      'jobs-bad.csv',
      'id,jobTitle,doneDate,totalTimeUsedInHours\nJ-1,Ok,2025-01-01,1.5\nJ-2,Bad date,2025-02-30,1\nJ#3,Bad id,2025-01-02,abc\n',
    );
    const result = await admin('import', 'jobs-done', '--plant', 'acme-1', bad);
    expect(result.code).toBe(1);
    expect(result.out).toContain('line 3: doneDate');
    expect(result.out).toContain('line 4: id');
    expect(result.out).toContain('line 4: totalTimeUsedInHours');
    expect((await repository.listJobsDone('acme-1', OPEN_RANGE, ALL)).total).toBe(0);
  });

  it('imports jobs done with nested fields and keeps day and month counters right when dates change', async () => {
    const rows = [
      {
        id: 'J-1',
        jobTitle: 'A',
        doneDate: '2025-01-31',
        asset: { tagNumber: 'P-1' },
        partsUsed: [{ partNumber: 'B-1', quantity: 2 }],
        carriedOutByUser: { username: 'an' },
      },
      { id: 'J-2', jobTitle: 'B', doneDate: '2025-02-01' },
    ];
    expect(
      (await admin('import', 'jobs-done', '--plant', 'acme-1', await file('jobs.json', JSON.stringify(rows)))).code,
    ).toBe(0);
    expect(
      (await repository.listJobsDone('acme-1', { start: '2025-01-01', end: '2025-01-31' }, ALL)).items.map((j) => j.id),
    ).toEqual(['J-1']);
    // J-1 moves to March: January is empty, the open range still counts 2.
    expect(
      (
        await admin(
          'import',
          'jobs-done',
          '--plant',
          'acme-1',
          await file('jobs2.json', JSON.stringify([{ ...rows[0], doneDate: '2025-03-15' }])),
        )
      ).code,
    ).toBe(0);
    expect((await repository.listJobsDone('acme-1', { start: '2025-01-01', end: '2025-01-31' }, ALL)).total).toBe(0);
    const all = await repository.listJobsDone('acme-1', OPEN_RANGE, ALL);
    expect(all.items.map((j) => j.id)).toEqual(['J-2', 'J-1']);
    expect(all.total).toBe(2);
    expect(all.items[1]).toMatchObject({
      asset: { tagNumber: 'P-1', serialNumber: null },
      partsUsed: [{ partNumber: 'B-1', quantity: 2, description: null, unit: null }],
      carriedOutByUser: { username: 'an', firstname: null },
      isFinal: false,
      dueDate: null,
    });
  });

  it('imports tasks and moves their status counters on a status change', async () => {
    const task = {
      id: 'T-1',
      taskTitle: 'X',
      activityKind: 'Inspection',
      assignedToRole: 'Mechanic',
      priority: 'Low',
      createdDate: '2025-01-05',
      taskStatus: 'PENDING',
    };
    expect(
      (await admin('import', 'tasks', '--plant', 'acme-1', await file('t1.json', JSON.stringify([task])))).code,
    ).toBe(0);
    expect(
      (
        await admin(
          'import',
          'tasks',
          '--plant',
          'acme-1',
          await file('t2.json', JSON.stringify([{ ...task, taskStatus: 'CLOSED' }])),
        )
      ).code,
    ).toBe(0);
    expect((await repository.listTasks('acme-1', 'PENDING', ALL)).total).toBe(0);
    expect((await repository.listTasks('acme-1', 'CLOSED', ALL)).items.map((t) => t.id)).toEqual(['T-1']);
    expect((await repository.listTasks('acme-1', undefined, ALL)).total).toBe(1);
  });

  it('imports planned jobs and seeds the demo records idempotently', async () => {
    const planned = await file(
      'planned.csv',
      'id,jobTitle,dueDate,asset.tagNumber,asset.serialNumber\nPL-1,Check,2025-06-01,P-1,S-1\n',
    );
    expect((await admin('import', 'jobs-planned', '--plant', 'acme-1', planned)).code).toBe(0);
    expect(
      (await repository.listJobsPlanned('acme-1', OPEN_RANGE, { serialNumber: 'S-1' }, ALL)).items.map((j) => j.id),
    ).toEqual(['PL-1']);
    const now = new Date('2026-01-15T00:00:00Z');
    const counts = await seedMaintenanceDemo(repository, { plantId: 'demo-1', now });
    await seedMaintenanceDemo(repository, { plantId: 'demo-1', now });
    expect((await repository.listJobsDone('demo-1', OPEN_RANGE, ALL)).total).toBe(counts.jobsDone);
    expect((await repository.listTasks('demo-1', undefined, ALL)).total).toBe(counts.tasks);
    expect((await repository.listAssets('demo-1', ALL)).total).toBe(counts.assets);
  });
});
