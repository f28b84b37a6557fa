// The schema the playground's editor completes from (GET /insights/v1/telemetry/schema): the
// logical tables as the query compiler defines them and the names of every function and
// aggregation it compiles, taken from the compiler's own tables, never a second copy.
import { WINDOW_FUNCTIONS } from '../query/analyze-window';
import { AGGREGATE_CATALOG, SCALAR_CATALOG } from '../query/catalog';
import { CORE_AGGREGATES, CORE_SCALARS } from '../query/catalog/docs';
import { TABLES, TABLE_NAMES } from '../telemetry/tables';

// The same shape as PlaygroundSchema in lib/playground/web/contracts.ts (browser code, which
// imports nothing from the Node side).
export interface SchemaAnswer {
  readonly database: string;
  readonly tables: readonly {
    readonly name: string;
    readonly docstring: string;
    readonly columns: readonly { readonly name: string; readonly type: string }[];
  }[];
  readonly functions: readonly string[];
}

const TABLE_DOCS: Readonly<Record<string, string>> = {
  States: 'One row per value item of a state message.',
  Events: 'One row per value item of an alarm or event message.',
};

/** Names in the docs' list of core forms: "iff/iif, arg_min (with *), ..." gives iff, iif, arg_min. */
function coreNames(list: string): string[] {
  return list
    .replace(/\([^)]*\)/g, '')
    .split(/[,/]/)
    .map((name) => name.trim())
    .filter((name) => /^[a-z_][a-z0-9_]*$/.test(name));
}

function catalogNames(entries: readonly { readonly name: string; readonly aliases?: readonly string[] }[]): string[] {
  return entries.flatMap((e) => [e.name, ...(e.aliases ?? [])]);
}

/** The schema of the service's query API; the same for every caller (plants restrict rows, not columns). */
export function playgroundSchema(): SchemaAnswer {
  const functions = new Set([
    ...coreNames(CORE_SCALARS),
    ...coreNames(CORE_AGGREGATES),
    ...catalogNames(SCALAR_CATALOG),
    ...catalogNames(AGGREGATE_CATALOG),
    ...WINDOW_FUNCTIONS,
  ]);
  return {
    database: 'telemetry',
    tables: TABLE_NAMES.map((name) => ({
      name,
      docstring: TABLE_DOCS[name] ?? '',
      columns: TABLES[name].map((c) => ({ name: c.name, type: c.type })),
    })),
    functions: [...functions].sort(),
  };
}
