// What the bag_unpack and pivot analyzers share: running operators the compiler already has over a
// plugin's input, the conversion of a value to an output schema's type, and the key discovery's
// bookkeeping (discovery.ts).
import type { Expr, Operator, Pipeline } from './ast';
import { call, name } from './ast-build';
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
  if (fn === null) return value;
  // toguid() takes text only (as in Kusto.Language): a guid value goes through its text.
  return call(fn, [kql === 'guid' ? call('tostring', [value], span) : value], span);
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

/**
 * The rows `matching` gives over `input`, then the input rows it matches with nothing, once each, the
 * other columns null: those whose `keys` are not among the matched rows' (a lookup plugin's return_unmatched).
 * Told by their values, not by a row number: row_number() over an unsorted input is computed again at
 * each read and need not number the rows alike. `table`: the hidden name the input is read under.
 */
export function withUnmatchedRows(
  h: MvApplyHost,
  input: Rel,
  matching: readonly Operator[],
  keys: readonly string[],
  table: string,
  at: Span,
): Rel {
  const fromInput = (ops: readonly Operator[]): Pipeline => ({
    kind: 'pipeline',
    source: { kind: 'table', name: table, span: at },
    operators: ops,
    span: at,
  });
  const on = keys.map((n) => ({ left: n, right: n, leftSpan: at, rightSpan: at, span: at }));
  const matched = fromInput([
    ...matching,
    { kind: 'distinct', columns: keys.map((n) => ({ expr: name(n, at), span: at })), span: at },
  ]);
  const unmatchedRows = fromInput([
    { kind: 'join', join: { lookup: false, joinKind: 'leftanti', kindSpan: at, right: matched, on }, span: at },
  ]);
  return runOver(
    h,
    input,
    [
      ...matching,
      {
        kind: 'union',
        union: { unionKind: 'outer', legs: [{ kind: 'pipeline', pipeline: unmatchedRows }] },
        span: at,
      },
    ],
    at,
    table,
  );
}

/** `rel` with the columns `names` only, in that order (what a rewritten plugin shows, its hidden columns dropped). */
export function projected(h: MvApplyHost, rel: Rel, names: readonly string[], at: Span): Rel {
  const items = names.map((n) => ({ name: n, expr: name(n, at), span: at }));
  return runOver(h, rel, [{ kind: 'project', items, span: at }], at);
}
