// The management commands that Kusto tools send to discover a database (Kusto.Explorer, the
// Grafana plugin, the SDK samples), answered from the logical tables (lib/telemetry/tables.ts).
// Anything else is refused with QUERY_UNSUPPORTED: this service has no ingestion, policies or
// functions to manage. Column names follow Kusto's own output of each command.
import { createHash } from 'node:crypto';
import { AppError } from '../core/errors';
import { TABLE_NAMES, TABLES, isTableName, type TableName } from '../telemetry/tables';
import { clrType, type KustoColumn } from './types';

export interface CommandResult {
  readonly columns: readonly KustoColumn[];
  readonly rows: readonly (readonly unknown[])[];
}

export interface CommandContext {
  /** The caller's database (its customer id). */
  readonly database: string;
  readonly serviceVersion: string;
}

const str = (name: string): KustoColumn => ({ name, type: 'string' });
const SCHEMA_VERSION = 'v1.0';

/** A stable guid for a database name (the name's SHA-1 in the guid layout), since Kusto lists one. */
function databaseId(name: string): string {
  const h = createHash('sha1').update(`insights-database:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

function orderedColumns(table: TableName) {
  return TABLES[table].map((c) => ({ Name: c.name, Type: clrType(c.type), CslType: c.type }));
}

function databaseSchemaJson(database: string): string {
  const tables = Object.fromEntries(
    TABLE_NAMES.map((t) => [
      t,
      { Name: t, EntityType: 'Table', OrderedColumns: orderedColumns(t), Folder: '', DocString: '' },
    ]),
  );
  return JSON.stringify({
    Databases: {
      [database]: {
        Name: database,
        Tables: tables,
        ExternalTables: {},
        MaterializedViews: {},
        Functions: {},
        MajorVersion: 1,
        MinorVersion: 0,
        DatabaseAccessMode: 'ReadOnly',
      },
    },
  });
}

function showDatabaseSchema(database: string): CommandResult {
  const columns: KustoColumn[] = [
    str('DatabaseName'),
    str('TableName'),
    str('ColumnName'),
    str('ColumnType'),
    { name: 'IsDefaultTable', type: 'bool' },
    { name: 'IsDefaultColumn', type: 'bool' },
    str('PrettyName'),
    str('Version'),
    str('Folder'),
    str('DocString'),
  ];
  const rows: unknown[][] = [[database, '', '', '', false, false, '', SCHEMA_VERSION, '', '']];
  for (const t of TABLE_NAMES) {
    rows.push([database, t, '', '', false, false, '', SCHEMA_VERSION, '', '']);
    for (const c of TABLES[t]) rows.push([database, t, c.name, clrType(c.type), false, false, '', '', '', '']);
  }
  return { columns, rows };
}

function showTableSchema(name: string, database: string): CommandResult {
  if (!isTableName(name))
    throw new AppError('NOT_FOUND', `table '${name}' was not found; the tables are ${TABLE_NAMES.join(', ')}`, {
      table: name,
    });
  return {
    columns: [str('TableName'), str('Schema'), str('DatabaseName'), str('Folder'), str('DocString')],
    rows: [[name, JSON.stringify({ Name: name, OrderedColumns: orderedColumns(name) }), database, '', '']],
  };
}

/** A table name as written in a command: bare, or bracketed and quoted (`['States']`). */
const TABLE_NAME = String.raw`(?:\[\s*(?:'([^']+)'|"([^"]+)")\s*\]|([A-Za-z_][\w]*))`;

/**
 * Answers one management command.
 * @throws AppError QUERY_UNSUPPORTED for any command not listed in docs/kusto-protocol.md;
 * NOT_FOUND for an unknown table.
 */
export function runCommand(text: string, context: CommandContext): CommandResult {
  const command = text.trim().replace(/;$/, '').trim().replace(/\s+/g, ' ');
  const { database } = context;
  if (/^\.show version$/i.test(command)) {
    return {
      columns: [
        str('BuildVersion'),
        { name: 'BuildTime', type: 'datetime' },
        str('ServiceType'),
        str('ProductVersion'),
        str('ServiceOffering'),
      ],
      rows: [
        [
          context.serviceVersion,
          null,
          'Engine',
          `industrial-insights ${context.serviceVersion}`,
          '{"Type":"Industrial insights (Kusto protocol)"}',
        ],
      ],
    };
  }
  if (/^\.show databases$/i.test(command)) {
    return {
      columns: [
        str('DatabaseName'),
        str('PersistentStorage'),
        str('Version'),
        { name: 'IsCurrent', type: 'bool' },
        str('DatabaseAccessMode'),
        str('PrettyName'),
        { name: 'CurrentUserIsUnrestrictedViewer', type: 'bool' },
        { name: 'DatabaseId', type: 'guid' },
      ],
      rows: [[database, '', SCHEMA_VERSION, true, 'ReadOnly', '', false, databaseId(database)]],
    };
  }
  if (/^\.show tables$/i.test(command)) {
    return {
      columns: [str('TableName'), str('DatabaseName'), str('Folder'), str('DocString')],
      rows: TABLE_NAMES.map((t) => [t, database, '', '']),
    };
  }
  if (/^\.show functions$/i.test(command)) {
    return { columns: [str('Name'), str('Parameters'), str('Body'), str('Folder'), str('DocString')], rows: [] };
  }
  const dbSchema = new RegExp(
    String.raw`^\.show (?:databases|database(?: ${TABLE_NAME})?) schema( as json)?$`,
    'i',
  ).exec(command);
  if (dbSchema) {
    const named = dbSchema[1] ?? dbSchema[2] ?? dbSchema[3];
    if (named !== undefined && named !== database)
      throw new AppError('FORBIDDEN', `database '${named}' is not this client's; your database is '${database}'`, {
        database: named,
      });
    return dbSchema[4]
      ? { columns: [str('DatabaseSchema')], rows: [[databaseSchemaJson(database)]] }
      : showDatabaseSchema(database);
  }
  const tableSchema = new RegExp(String.raw`^\.show table ${TABLE_NAME} schema as json$`, 'i').exec(command);
  if (tableSchema) return showTableSchema((tableSchema[1] ?? tableSchema[2] ?? tableSchema[3])!, database);
  const shown = command.length > 80 ? `${command.slice(0, 80)}...` : command;
  throw new AppError(
    'QUERY_UNSUPPORTED',
    `the management command '${shown}' is not supported; supported: .show version, .show databases, .show tables, .show functions, .show database schema [as json], .show databases schema as json, .show table T schema as json`,
    { field: 'csl' },
  );
}
