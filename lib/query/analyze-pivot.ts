// evaluate pivot (pivot plugin docs, https://learn.microsoft.com/en-us/kusto/query/pivot-plugin): one
// row per combination of the grouping columns (given, else every input column but the pivot column
// and those the aggregation reads), then one column per distinct value of the pivot column, holding
// the aggregation (count() when not given) over that group's rows with that value. Written as one
// summarize of `<agg>if(..., tostring(Pivot) == "value")` per value, so it runs on both engines.
// With an output schema the values are the schema's names that are not grouping columns, each
// column converted to the schema's type; without one they come from the data (discovery.ts), in
// the order of their first row (the docs' examples print ARKANSAS before ARIZONA: not sorted).
import type { Expr, NamedExpr, PivotSpec } from './ast';
import { binary, call, long, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import { DiscoveryNeeded, MAX_DISCOVERED_KEYS, type DiscoveryState } from './discovery';
import { clip } from './errors';
import type { Rel } from './ir';
import { convertedTo, discoveredKeys, runOver } from './plugin-rewrite';
import type { Span } from './tokens';

/** The aggregations the pivot docs list, each with its conditional form (make_bag has none here). */
const CONDITIONAL: Readonly<Record<string, string>> = {
  count: 'countif',
  sum: 'sumif',
  min: 'minif',
  max: 'maxif',
  take_any: 'take_anyif',
  any: 'take_anyif',
  dcount: 'dcountif',
  avg: 'avgif',
  stdev: 'stdevif',
  variance: 'varianceif',
  make_list: 'make_list_if',
  make_set: 'make_set_if',
};

export function analyzePivot(
  h: MvApplyHost,
  input: Rel,
  spec: PivotSpec,
  span: Span,
  discovery: DiscoveryState | undefined,
): Rel {
  const at = spec.pluginSpan;
  const aggregation = spec.aggregation ?? call('count', [], at);
  if (aggregation.kind !== 'call' || !(aggregation.name in CONDITIONAL))
    throw h.errors.unsupported(
      `pivot() aggregates with ${Object.keys(CONDITIONAL).join('(), ')}()` +
        (aggregation.kind === 'call' ? `, not ${clip(aggregation.name)}()` : ''),
      aggregation.span,
    );
  if (aggregation.name === 'count' && aggregation.args.length > 0)
    throw h.errors.semantic('count() takes no arguments', aggregation.args[0]!.span);
  const read = new Set<string>();
  namesIn(spec.column, read);
  namesIn(aggregation, read);
  for (const g of spec.groups)
    if (g.kind !== 'name') throw h.errors.semantic('pivot() groups by columns of the input', g.span);
  const groups: string[] =
    spec.groups.length > 0
      ? spec.groups.map((g) => (g as Expr & { kind: 'name' }).name)
      : input.columns.filter((c) => !c.name.startsWith('\u0000') && !read.has(c.name)).map((c) => c.name);
  const groupSet = new Set(groups);
  const key = call('tostring', [spec.column], spec.column.span);
  const cell = (value: string, column: string, colSpan: Span): NamedExpr => {
    const when = binary('==', key, { kind: 'literal', type: 'string', value, span: colSpan }, colSpan);
    const [first, ...more] = aggregation.args;
    const args = first === undefined ? [when] : [first, when, ...more];
    return {
      name: column,
      nameSpan: colSpan,
      expr: { ...call(CONDITIONAL[aggregation.name]!, args, aggregation.span) },
      span: colSpan,
    };
  };
  const by = groups.map((g): NamedExpr => ({ name: g, nameSpan: at, expr: name(g, at), span: at }));
  if (spec.schema) {
    const values = spec.schema.columns.filter((c) => !groupSet.has(c.name));
    const summarized = runOver(
      h,
      input,
      [{ kind: 'summarize', aggregates: values.map((v) => cell(v.name, v.name, v.span)), by, span }],
      span,
    );
    const items = spec.schema.columns.map((c): NamedExpr => ({
      name: c.name,
      nameSpan: c.span,
      expr: convertedTo(c.type, name(c.name, c.span), c.span),
      span: c.span,
    }));
    return runOver(h, summarized, [{ kind: 'project', items, span }], span);
  }
  // An empty (or null) value names no column: a column needs a name, and Kusto's name for it is not documented.
  const keys = discoveredKeys(discovery, () => needValues(h, input, key, at, span)).filter((k) => k.key !== '');
  if (keys.length === 0 && by.length === 0)
    throw h.errors.semantic('pivot() over no rows and no grouping columns has no output columns', at);
  return runOver(
    h,
    input,
    [{ kind: 'summarize', aggregates: keys.map((k) => cell(k.key, k.key, at)), by, span }],
    span,
  );
}

/** The names an expression reads (a column read by the pivot or the aggregation is not a group). */
function namesIn(e: unknown, into: Set<string>): void {
  if (Array.isArray(e)) for (const x of e) namesIn(x, into);
  else if (e !== null && typeof e === 'object') {
    const node = e as { kind?: unknown; name?: unknown };
    if (node.kind === 'name' && typeof node.name === 'string') into.add(node.name);
    for (const [k, v] of Object.entries(e)) if (k !== 'span' && k !== 'nameSpan') namesIn(v, into);
  }
}

/** The input reduced to the pivot's distinct values as strings, in the order of their first row. */
function needValues(h: MvApplyHost, input: Rel, key: Expr, at: Span, span: Span): DiscoveryNeeded {
  const n = `\u0000pivot ${h.newRef()} row`;
  const first = `${n} first`;
  const rel = runOver(
    h,
    input,
    [
      { kind: 'serialize', items: [{ name: n, expr: call('row_number', [long(0n, at)], at), span: at }], span },
      {
        kind: 'summarize',
        aggregates: [{ name: first, expr: call('min', [name(n, at)], at), span: at }],
        by: [{ name: 'key', expr: key, span: at }],
        span,
      },
      { kind: 'sort', keys: [{ expr: name(first, at), direction: 'asc', span: at }], span },
      { kind: 'project', items: [{ name: 'key', expr: name('key', at), span: at }], span },
    ],
    span,
  );
  return new DiscoveryNeeded(
    'pivot',
    at,
    rel,
    h.errors.unsupported(
      'evaluate pivot without an output schema takes its columns from the data, which this request cannot read first; ' +
        'give the output schema: pivot(Column, ...) : (Group:type, Value1:type, ...)',
      at,
    ),
    h.errors.unsupported(
      `evaluate pivot found more than ${MAX_DISCOVERED_KEYS} distinct values; give the output schema: pivot(Column, ...) : (Group:type, Value1:type, ...)`,
      at,
    ),
  );
}
