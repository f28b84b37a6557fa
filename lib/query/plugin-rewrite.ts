// What the bag_unpack and pivot analyzers share: running operators the compiler already has over a
// plugin's input, the conversion of a value to an output schema's type, and the key discovery's
// bookkeeping (discovery.ts).
import type { Expr, Operator } from './ast';
import { call } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import type { DiscoveredKey, DiscoveryNeeded, DiscoveryState } from './discovery';
import type { KqlType, Rel } from './ir';
import type { Span } from './tokens';
import { typeNamed } from './types';

const CONVERSIONS: Readonly<Record<KqlType, string | null>> = {
  string: 'tostring',
  long: 'tolong',
  int: 'toint',
  real: 'todouble',
  bool: 'tobool',
  datetime: 'todatetime',
  timespan: 'totimespan',
  guid: 'toguid',
  decimal: 'todecimal',
  dynamic: null,
};

/** `value` converted to the KQL type `type` (a type name of an output schema, or a KqlType). */
export function convertedTo(type: string, value: Expr, span: Span): Expr {
  const kql: KqlType = type === 'decimal' ? 'decimal' : (typeNamed(type, true) ?? 'dynamic');
  const fn = CONVERSIONS[kql];
  return fn === null ? value : call(fn, [value], span);
}

/**
 * The operators run over `input`, bound under a hidden table name for the time of the analysis
 * (`table`: a name the operators also read, e.g. in a join of the input with itself).
 */
export function runOver(
  h: MvApplyHost,
  input: Rel,
  ops: readonly Operator[],
  span: Span,
  table = `\u0000plugin ${h.newRef()} input`,
): Rel {
  h.bindTable(table, input);
  try {
    return h.subquery({ kind: 'pipeline', source: { kind: 'table', name: table, span }, operators: ops, span });
  } finally {
    h.bindTable(table, undefined);
  }
}

/**
 * The keys found for the next schema-less plugin met in this compile.
 * @throws DiscoveryNeeded (made by `need`) when they are not known yet.
 */
export function discoveredKeys(
  state: DiscoveryState | undefined,
  need: () => DiscoveryNeeded,
): readonly DiscoveredKey[] {
  const index = state ? state.met++ : 0;
  const keys = state?.found[index];
  if (keys) return keys;
  throw need();
}

/** A rewritten relation whose mv-expand serves `origin`, so an engine without mv-expand names the plugin. */
export function expandsFor(h: MvApplyHost, rel: Rel, origin: 'evaluate bag_unpack', span: Span): Rel {
  if (rel.kind === 'mvExpand') {
    const tagged: Rel = { ...rel, origin };
    h.env([]).records.spans.set(tagged, span);
    return tagged;
  }
  if (!('input' in rel)) return rel;
  return { ...rel, input: expandsFor(h, rel.input, origin, span) } as Rel;
}

/** `rel` marked as serving `plugin` at `span`: an engine refusing a part of it names the plugin (sql/generator.ts). */
export function servesPlugin(h: MvApplyHost, rel: Rel, plugin: string, span: Span): Rel {
  // A copy, so that a relation shared with other uses is not marked.
  const marked: Rel = { ...rel };
  const { records } = h.env([]);
  records.spans.set(marked, span);
  records.origins.set(marked, `evaluate ${plugin}`);
  return marked;
}
