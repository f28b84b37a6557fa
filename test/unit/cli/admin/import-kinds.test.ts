// The import kinds as the admin CLI composes them: each kind writes where its own area says, given
// the command's scope (recording fakes of the two repositories stand in for DynamoDB here; the real
// tables are exercised by test/integration/maintenance-import.test.ts).
import { describe, expect, it } from 'vitest';
import { IMPORT_KINDS, type ImportScope } from '../../../../lib/cli/admin/import-kinds';
import { runImport } from '../../../../lib/import/run';
import type { MaintenanceRepository } from '../../../../lib/maintenance/ports';
import type { Registry } from '../../../../lib/registry/ports';

function scope(plant: ImportScope['plant']) {
  const calls: Array<[string, ...unknown[]]> = [];
  const record =
    (name: string) =>
    async (...args: unknown[]) =>
      void calls.push([name, ...args]);
  const registry = { putParts: record('putParts') } as unknown as Registry;
  const maintenance = {
    putAssets: record('putAssets'),
    putTasks: record('putTasks'),
  } as unknown as MaintenanceRepository;
  const customer = { customerId: 'acme', name: 'Acme', createdAt: '2026-01-01T00:00:00Z' };
  return { calls, scope: { registry, maintenance, customer, plant } satisfies ImportScope };
}

const PLANT = { plantId: 'p1', customerId: 'acme', name: 'P1', createdAt: '2026-01-01T00:00:00Z' };

describe('IMPORT_KINDS', () => {
  it('offers the registry and maintenance kinds under their command names', () => {
    expect(Object.keys(IMPORT_KINDS)).toEqual(['parts', 'assets', 'jobs-done', 'jobs-planned', 'tasks']);
    expect(Object.entries(IMPORT_KINDS).map(([name, kind]) => [name, kind.companyWideAllowed])).toEqual([
      ['parts', true],
      ['assets', false],
      ['jobs-done', false],
      ['jobs-planned', false],
      ['tasks', false],
    ]);
  });

  it('writes company-wide parts to the registry with the customer and no plant', async () => {
    // Prepare
    const { calls, scope: noPlant } = scope(null);
    // Act
    const report = await runImport(IMPORT_KINDS.parts!, noPlant, 'partNumber;unit\nA-1;piece\n', {
      format: 'csv',
      skipInvalid: false,
    });
    // Assess
    expect(report).toMatchObject({ written: 1, wrote: true });
    expect(calls).toEqual([
      ['putParts', [{ customerId: 'acme', plantId: null, partNumber: 'A-1', description: '', unit: 'PIECE' }]],
    ]);
  });

  it('writes maintenance records to the maintenance repository for the plant', async () => {
    // Prepare
    const { calls, scope: inPlant } = scope(PLANT);
    // Act
    await runImport(IMPORT_KINDS.assets!, inPlant, '[{"tagNumber": "P-1", "model": "X"}]', {
      format: 'json',
      skipInvalid: false,
    });
    // Assess
    expect(calls).toEqual([
      [
        'putAssets',
        'p1',
        [expect.objectContaining({ tagNumber: 'P-1', plantId: 'p1', model: 'X', serialNumber: null })],
      ],
    ]);
  });

  it('refuses to write maintenance records without a plant', async () => {
    // Prepare
    const { calls, scope: noPlant } = scope(null);
    // Act
    const run = runImport(IMPORT_KINDS.assets!, noPlant, '[{"tagNumber": "P-1"}]', {
      format: 'json',
      skipInvalid: false,
    });
    // Assess
    await expect(run).rejects.toThrow(/--plant/);
    expect(calls).toEqual([]);
  });
});
