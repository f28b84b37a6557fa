// The management commands Kusto tools send to discover the database, answered from the logical tables.
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../../lib/kusto/mgmt';
import { TABLES } from '../../../lib/telemetry/tables';
import { refusal } from '../../support/refusal';

const context = { database: 'acme', serviceVersion: '1.2.3' };
const names = (r: ReturnType<typeof runCommand>) => r.columns.map((c) => c.name);

describe('runCommand', () => {
  it('.show version and .show databases', () => {
    const version = runCommand('.show version', context);
    expect(names(version)).toEqual(['BuildVersion', 'BuildTime', 'ServiceType', 'ProductVersion', 'ServiceOffering']);
    expect(version.rows[0]![0]).toBe('1.2.3');
    const databases = runCommand('  .SHOW   databases ; ', context);
    expect(databases.rows).toHaveLength(1);
    expect(databases.rows[0]!.slice(0, 5)).toEqual(['acme', '', 'v1.0', true, 'ReadOnly']);
    expect(databases.rows[0]![7]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(runCommand('.show databases', { ...context, database: 'globex' }).rows[0]![7]).not.toBe(
      databases.rows[0]![7],
    );
  });

  it('.show tables and an empty .show functions', () => {
    expect(runCommand('.show tables', context).rows).toEqual([
      ['States', 'acme', '', ''],
      ['Events', 'acme', '', ''],
    ]);
    const functions = runCommand('.show functions', context);
    expect(names(functions)).toEqual(['Name', 'Parameters', 'Body', 'Folder', 'DocString']);
    expect(functions.rows).toEqual([]);
  });

  it('.show database schema as json (and the databases and named forms) describes both tables with CLR and KQL types', () => {
    for (const command of [
      '.show database schema as json',
      '.show databases schema as json',
      '.show database acme schema as json',
      ".show database ['acme'] schema as json",
    ]) {
      const result = runCommand(command, context);
      expect(names(result), command).toEqual(['DatabaseSchema']);
      const schema = JSON.parse(result.rows[0]![0] as string) as {
        Databases: Record<
          string,
          {
            Name: string;
            Tables: Record<string, { OrderedColumns: { Name: string; Type: string; CslType: string }[] }>;
          }
        >;
      };
      expect(Object.keys(schema.Databases)).toEqual(['acme']);
      const states = schema.Databases.acme!.Tables.States!.OrderedColumns;
      expect(states).toHaveLength(TABLES.States.length);
      expect(states[0]).toEqual({ Name: 'Timestamp', Type: 'System.DateTime', CslType: 'datetime' });
      expect(schema.Databases.acme!.Tables.Events!.OrderedColumns.find((c) => c.Name === 'Active')).toEqual({
        Name: 'Active',
        Type: 'System.SByte',
        CslType: 'bool',
      });
    }
    expect(refusal(() => runCommand('.show database globex schema as json', context)).code).toBe('FORBIDDEN');
  });

  it('.show database schema without json lists every column', () => {
    const result = runCommand('.show database schema', context);
    expect(names(result).slice(0, 4)).toEqual(['DatabaseName', 'TableName', 'ColumnName', 'ColumnType']);
    expect(result.rows.filter((r) => r[2] !== '')).toHaveLength(TABLES.States.length + TABLES.Events.length);
  });

  it('.show table T schema as json, and 404 for an unknown table', () => {
    const result = runCommand(".show table ['Events'] schema as json", context);
    expect(result.rows[0]![0]).toBe('Events');
    expect((JSON.parse(result.rows[0]![1] as string) as { OrderedColumns: unknown[] }).OrderedColumns).toHaveLength(
      TABLES.Events.length,
    );
    expect(runCommand('.show table States schema as json', context).rows[0]![2]).toBe('acme');
    expect(refusal(() => runCommand('.show table Nope schema as json', context))).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
  });

  it('refuses every other command as not supported', () => {
    for (const command of [
      '.drop table States',
      '.ingest inline into table States <| x',
      '.show cluster',
      '.show table States schema',
    ]) {
      const error = refusal(() => runCommand(command, context));
      expect(error.code, command).toBe('QUERY_UNSUPPORTED');
      expect(error.message).toMatch(/is not supported/);
    }
  });
});
