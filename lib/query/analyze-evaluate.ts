// Semantic analysis of the evaluate plugins run here: bag_unpack and pivot in their own files
// (analyze-bag-unpack.ts, analyze-pivot.ts), narrow here (narrow plugin docs,
// https://learn.microsoft.com/en-us/kusto/query/narrow-plugin): `evaluate narrow()` unpivots each
// row into one row per column, Row (the row's 0-based number), Column (the column's name) and Value
// (its value as a string). Written as serialize (the row number), then one mv-expand of the names
// and the values side by side, so an engine without mv-expand refuses it (naming evaluate narrow).
import type { Expr, Operator } from './ast';
import type { MvApplyHost } from './analyze-mv-apply';
import { analyzeBagUnpack } from './analyze-bag-unpack';
import { analyzePivot } from './analyze-pivot';
import { analyzeActiveUsers } from './analyze-active-users';
import { analyzeActivityPlugin } from './analyze-activity-plugins';
import { analyzeWindowPlugin } from './analyze-window-plugins';
import { analyzeIpLookup } from './analyze-ip-lookup';
import { analyzeGeoLookup } from './analyze-geo-lookup';
import { analyzeRowsNear } from './analyze-rows-near';
import { analyzeDcountIntersect } from './analyze-dcount-intersect';
import { servesPlugin } from './plugin-rewrite';
import { analyzeNewActivityMetrics } from './analyze-new-activity-metrics';
import type { EvaluateSpec } from './ast';
import type { DiscoveryState } from './discovery';
import type { Rel } from './ir';
import type { Span } from './tokens';

export function analyzeEvaluate(
  h: MvApplyHost,
  input: Rel,
  spec: EvaluateSpec,
  span: Span,
  discovery?: DiscoveryState,
): Rel {
  if (spec.plugin === 'bag_unpack') return analyzeBagUnpack(h, input, spec, span, discovery);
  if (spec.plugin === 'pivot') return analyzePivot(h, input, spec, span, discovery);
  if (spec.plugin === 'new_activity_metrics')
    return analyzeNewActivityMetrics(h, input, spec.args, spec.argsSpan, span);
  if (spec.plugin === 'ipv4_lookup' || spec.plugin === 'ipv6_lookup')
    return servesPlugin(h, analyzeIpLookup(h, input, spec.plugin, spec.args, spec.argsSpan, span), spec.plugin, span);
  if (spec.plugin === 'geo_polygon_lookup' || spec.plugin === 'geo_line_lookup') {
    const rel = analyzeGeoLookup(h, input, spec.plugin, spec.args, spec.named ?? [], spec.argsSpan, span);
    return servesPlugin(h, rel, spec.plugin, span);
  }
  if (spec.plugin === 'rows_near')
    return servesPlugin(h, analyzeRowsNear(h, input, spec.args, spec.argsSpan, span), spec.plugin, span);
  if (spec.plugin === 'dcount_intersect')
    return servesPlugin(h, analyzeDcountIntersect(h, input, spec.args, spec.argsSpan, span), spec.plugin, span);
  if (spec.plugin === 'active_users_count') return analyzeActiveUsers(h, input, spec.args, spec.argsSpan, span);
  if (spec.plugin === 'activity_counts_metrics' || spec.plugin === 'activity_metrics')
    return analyzeActivityPlugin(h, input, spec.plugin, spec.args, spec.argsSpan, span);
  if (
    spec.plugin === 'sliding_window_counts' ||
    spec.plugin === 'rolling_percentile' ||
    spec.plugin === 'activity_engagement'
  )
    return analyzeWindowPlugin(h, input, { ...spec, plugin: spec.plugin }, span);
  const prefix = `\u0000narrow ${h.newRef()} `;
  const [row, names, values, name, value] = ['row', 'names', 'values', 'name', 'value'].map((n) => prefix + n) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const at = spec.pluginSpan;
  const ref = (n: string): Expr => ({ kind: 'name', name: n, span: at });
  const call = (n: string, args: readonly Expr[]): Expr => ({ kind: 'call', name: n, nameSpan: at, args, span: at });
  const str = (s: string): Expr => ({ kind: 'literal', type: 'string', value: s, span: at });
  const columns = input.columns.filter((c) => !c.name.startsWith('\u0000'));
  const ops: Operator[] = [
    {
      kind: 'serialize',
      items: [
        { name: row, expr: call('row_number', [{ kind: 'literal', type: 'long', value: 0n, span: at }]), span: at },
      ],
      span,
    },
    {
      kind: 'project',
      items: [
        { name: row, expr: ref(row), span: at },
        {
          name: names,
          expr: call(
            'pack_array',
            columns.map((c) => str(c.name)),
          ),
          span: at,
        },
        {
          name: values,
          expr: call(
            'pack_array',
            columns.map((c) => call('tostring', [ref(c.name)])),
          ),
          span: at,
        },
      ],
      span,
    },
    {
      kind: 'mvExpand',
      mvExpand: {
        bagKind: 'array',
        items: [
          { name, expr: ref(names), span: at, toType: { name: 'string', span: at } },
          { name: value, expr: ref(values), span: at, toType: { name: 'string', span: at } },
        ],
      },
      span,
    },
    {
      kind: 'project',
      items: [
        { name: 'Row', expr: ref(row), span: at },
        { name: 'Column', expr: ref(name), span: at },
        { name: 'Value', expr: ref(value), span: at },
      ],
      span,
    },
  ];
  const table = `${prefix}input`;
  h.bindTable(table, input);
  let rel: Rel;
  try {
    rel = h.subquery({ kind: 'pipeline', source: { kind: 'table', name: table, span }, operators: ops, span });
  } finally {
    h.bindTable(table, undefined);
  }
  // An engine without mv-expand refuses it as evaluate narrow, at the operator.
  const tag = (r: Rel): Rel => {
    if (r.kind === 'project') return { ...r, input: tag(r.input) };
    if (r.kind !== 'mvExpand') return r;
    const expand: Rel = { ...r, origin: 'evaluate narrow' };
    h.env([]).records.spans.set(expand, span);
    return expand;
  };
  return tag(rel);
}
