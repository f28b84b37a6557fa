// Plugins whose output columns come from the data (bag_unpack and pivot without an output schema,
// bag_unpack and pivot plugin docs) are compiled in two passes: the first compile stops at such a
// plugin with a key-discovery relation (its input reduced to the distinct keys, in Kusto's column
// order); the caller runs that SQL on the engine, within the query's own limits, and compiles again
// with the keys it found. Each schema-less plugin of a query is one pass, in the order the analyzer
// meets them (the same for the same text), so the i-th pass's keys go to the i-th plugin.
import type { QueryError } from './errors';
import type { KqlType, Rel } from './ir';
import type { Span } from './tokens';

/** Distinct keys a discovery may find; beyond, the query must give its output schema. */
export const MAX_DISCOVERED_KEYS = 1000;

/** One column a schema-less plugin adds: its key (bag slot or pivot value) and type. */
export interface DiscoveredKey {
  readonly key: string;
  /** bag_unpack's slot type; a pivot's column type comes from its aggregation. */
  readonly type?: KqlType;
}

/** The keys found by each discovery pass so far, in the order the plugins are met. */
export interface DiscoveryState {
  readonly found: readonly (readonly DiscoveredKey[])[];
  /** Schema-less plugins met by this compile so far. */
  met: number;
}

/** Thrown by the analyzer at a schema-less plugin whose keys are not known yet (caught in compilePlan). */
export class DiscoveryNeeded {
  constructor(
    readonly plugin: 'bag_unpack' | 'pivot',
    readonly span: Span,
    /** The plugin's input reduced to its keys: bag_unpack (key, types), pivot (key). */
    readonly rel: Rel,
    /** The refusal when keys cannot be discovered here (compile(), /explain): give the output schema. */
    readonly refusal: QueryError,
    /** Too many keys: the refusal at the plugin naming the bound. */
    readonly tooMany: QueryError,
  ) {}
}

/** gettype() names of a bag slot's values (as the discovery returns them) -> the column's KQL type. */
const SLOT_TYPES: Readonly<Record<string, KqlType>> = {
  int: 'long',
  long: 'long',
  real: 'real',
  string: 'string',
  bool: 'bool',
  datetime: 'datetime',
  timespan: 'timespan',
  guid: 'guid',
};

/**
 * A slot's column type (bag_unpack docs): the type of its values when they all have the same one,
 * else dynamic; null values are ignored (a slot holding only nulls is dynamic).
 */
export function slotType(types: readonly string[]): KqlType {
  const present = new Set(types.filter((t) => t !== 'null').map((t) => SLOT_TYPES[t] ?? 'dynamic'));
  return present.size === 1 ? [...present][0]! : 'dynamic';
}
