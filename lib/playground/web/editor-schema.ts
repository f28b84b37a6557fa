// The service's schema (PlaygroundSchema) in the shape monaco-kusto's setSchema takes: an Engine
// cluster holding one database, which is also the database in context, so `States` and `Events`
// complete without a `database()` prefix. Column types are Kusto type names (string, datetime,
// dynamic...), which monaco-kusto accepts as they are. Only types are imported from monaco-kusto,
// so this module stays pure and unit-tested in Node.
import type { Database, EngineSchema } from '@kusto/monaco-kusto';

/** What is read of contracts.ts's PlaygroundSchema, restated: contracts.ts names DOM types. */
export interface SchemaInput {
  readonly database: string;
  readonly tables: readonly {
    readonly name: string;
    readonly docstring?: string;
    readonly columns: readonly { readonly name: string; readonly type: string; readonly docstring?: string }[];
  }[];
}

/** A connection string is required by the type and shown nowhere; the service has one cluster. */
const CLUSTER = 'https://insights.local';

/**
 * `version` must grow with each schema given to the same worker: the language service keeps a
 * database it has seen until one of the same name comes with a higher major version.
 */
export function toKustoSchema(schema: SchemaInput, version: number): EngineSchema {
  const database: Database = {
    name: schema.database,
    tables: schema.tables.map((table) => ({
      name: table.name,
      entityType: 'Table',
      columns: table.columns.map((c) => ({ name: c.name, type: c.type, docstring: c.docstring })),
      docstring: table.docstring,
    })),
    // Database functions are stored functions (`.create function`); the service has none. Which
    // built-in functions it compiles is marked by editor-support.ts instead.
    functions: [],
    entityGroups: [],
    majorVersion: version,
    minorVersion: 0,
  };
  return { clusterType: 'Engine', cluster: { connectionString: CLUSTER, databases: [database] }, database };
}
