// The service schema as monaco-kusto's setSchema takes it, and where the page finds its workers.
import { describe, expect, it } from 'vitest';
import { toKustoSchema } from '../../../lib/playground/web/editor-schema';
import { workerUrl } from '../../../lib/playground/web/editor-workers';

describe('toKustoSchema', () => {
  it('makes the service database the database in context, with its tables and typed columns', () => {
    const schema = toKustoSchema(
      {
        database: 'telemetry',
        tables: [{ name: 'States', columns: [{ name: 'Value', type: 'dynamic', docstring: 'the value' }] }],
      },
      3,
    );
    expect(schema.clusterType).toBe('Engine');
    expect(schema.database?.name).toBe('telemetry');
    expect(schema.cluster.databases).toEqual([schema.database]);
    expect(schema.database?.tables).toEqual([
      {
        name: 'States',
        entityType: 'Table',
        columns: [{ name: 'Value', type: 'dynamic', docstring: 'the value' }],
        docstring: undefined,
      },
    ]);
    expect(schema.database?.functions).toEqual([]);
    // The language service replaces a cached database only for a higher major version.
    expect(schema.database?.majorVersion).toBe(3);
  });
});

describe('workerUrl', () => {
  it('finds the workers next to app.js, one folder up from the chunk', () => {
    const chunk = 'https://x.example/insights/v1/telemetry/playground/chunks/editor-AB12.js';
    expect(workerUrl('kusto', chunk).href).toBe('https://x.example/insights/v1/telemetry/playground/kusto.worker.js');
    expect(workerUrl('editorWorkerService', chunk).pathname).toBe('/insights/v1/telemetry/playground/editor.worker.js');
    expect(workerUrl('anything-else', chunk).pathname).toBe('/insights/v1/telemetry/playground/editor.worker.js');
  });
});
