// Parsing of evaluate after the operator's word (evaluate operator docs,
// https://learn.microsoft.com/en-us/kusto/query/evaluate-operator): `evaluate [hints] plugin(args)
// [: (OutputSchema)]`. The plugins run here are narrow (no arguments), bag_unpack and pivot
// (bag_unpack and pivot plugin docs), sliding_window_counts, rolling_percentile, activity_engagement,
// activity_counts_metrics, activity_metrics, new_activity_metrics, active_users_count, ipv4_lookup,
// ipv6_lookup, rows_near, dcount_intersect, geo_polygon_lookup and geo_line_lookup (parser-geo-lookup.ts),
// (positional arguments, checked by analyze-window-plugins.ts,
// analyze-activity-plugins.ts, analyze-new-activity-metrics.ts, analyze-active-users.ts, analyze-ip-lookup.ts,
// analyze-rows-near.ts and analyze-dcount-intersect.ts); any other plugin is refused at its name with QUERY_UNSUPPORTED (with
// the reason for those refusal-reasons.ts names).
// Throws QUERY_SYNTAX for malformed text, QUERY_SEMANTIC for arguments a plugin does not take.
import { WINDOW_PLUGINS, type EvaluateSpec, type Expr, type OutputSchema, type WindowPlugin } from './ast';
import { clip } from './errors';
import { geoLookupSpec, isGeoLookup } from './parser-geo-lookup';
import { refusedPlugin } from './refusal-reasons';
import type { OperatorCursor } from './parser-operators';
import { tabularOperand, type SubqueryCursor } from './parser-subquery';
import type { Span } from './tokens';
import { typeNamed } from './types';

const PLUGINS: ReadonlySet<string> = new Set(['narrow', 'bag_unpack', 'pivot', ...WINDOW_PLUGINS]);
const isWindowPlugin = (name: string): name is WindowPlugin => (WINDOW_PLUGINS as readonly string[]).includes(name);
/** bag_unpack's arguments that may be written `name = value` (bag_unpack plugin docs). */
const BAG_UNPACK_NAMED: ReadonlySet<string> = new Set(['OutputColumnPrefix', 'columnsConflict', 'ignoredProperties']);

/** The ip lookups' last argument may be written `return_unmatched = flag` (ipv4_lookup plugin docs); it stays last. */
const isReturnUnmatched = (plugin: string, a: Argument, i: number, count: number): boolean =>
  (plugin === 'ipv4_lookup' || plugin === 'ipv6_lookup') && a.name?.name === 'return_unmatched' && i === count - 1;

interface Argument {
  readonly name?: { readonly name: string; readonly span: Span };
  readonly expr: Expr;
}

export function parseEvaluate(p: SubqueryCursor): EvaluateSpec {
  while (p.peekIdent('hint') && p.peekAt(1)?.text === '.') {
    p.next();
    p.expectOp('.');
    p.expectName('a hint name');
    p.expectOp('=');
    const value = p.next();
    if (value.kind === 'eof') throw p.errors.syntax('expected the value of the hint', value.span);
  }
  const plugin = p.expectName('a plugin name');
  if (!PLUGINS.has(plugin.name)) throw p.errors.unsupported(refusedPlugin(plugin.name, clip(plugin.name)), plugin.span);
  const open = p.expectOp('(');
  if (plugin.name === 'narrow') {
    if (!p.peekOp(')')) throw p.errors.semantic(`${plugin.name}() takes no arguments`, p.peek().span);
    p.expectOp(')');
    return { plugin: 'narrow', pluginSpan: plugin.span };
  }
  if (isWindowPlugin(plugin.name)) {
    // The ip lookups' LookupTable may be a tabular expression (ipv4_lookup plugin docs).
    const table = plugin.name.endsWith('_lookup') ? tabularOperand(p) : undefined;
    if (table && !p.peekOp(')')) p.expectOp(',');
    const windowArgs = [...(table ? [{ expr: table }] : []), ...parseArguments(p)];
    const argsSpan = { start: open.span.start, end: p.prevEnd() };
    if (isGeoLookup(plugin.name)) return geoLookupSpec(p, plugin.name, plugin.span, windowArgs, argsSpan);
    const named = windowArgs.find((a, i) => a.name && !isReturnUnmatched(plugin.name, a, i, windowArgs.length));
    if (named) throw p.errors.semantic(`${plugin.name}() takes positional arguments only`, named.name!.span);
    // A flag written by name is the flag, never an extra key (a column there was taken for one); Kusto.Language
    // wants a bool literal there (KS131, KS107), so that is checked here, where the name is still known.
    const flag = windowArgs.at(-1);
    if (flag?.name?.name === 'return_unmatched' && !(flag.expr.kind === 'literal' && flag.expr.type === 'bool'))
      throw p.errors.semantic(
        `${plugin.name}()'s return_unmatched must be a bool literal (true or false)`,
        flag.expr.span,
      );
    return { plugin: plugin.name, pluginSpan: plugin.span, args: windowArgs.map((a) => a.expr), argsSpan };
  }
  const args = parseArguments(p);
  if (args.length === 0) throw p.errors.semantic(`${plugin.name}() takes the column to unpack or pivot`, open.span);
  const schema = p.acceptOp(':') ? parseSchema(p) : undefined;
  return plugin.name === 'bag_unpack' ? bagUnpack(p, plugin.span, args, schema) : pivot(p, plugin.span, args, schema);
}

function parseArguments(p: OperatorCursor): Argument[] {
  const args: Argument[] = [];
  while (!p.peekOp(')')) {
    const t = p.peek();
    if (t.kind === 'ident' && p.peekAt(1)?.text === '=') {
      p.next();
      p.next();
      args.push({ name: { name: t.text, span: t.span }, expr: p.expression() });
    } else args.push({ expr: p.expression() });
    if (!p.acceptOp(',')) break;
  }
  p.expectOp(')');
  return args;
}

/** `( [*,] Name:type, ... )`: the types are checked here, the names against the plugin's output later. */
function parseSchema(p: OperatorCursor): OutputSchema {
  p.expectOp('(');
  const wildcard = p.acceptOp('*') !== undefined;
  const columns: { name: string; type: string; span: Span }[] = [];
  if (!wildcard || p.acceptOp(','))
    do {
      const n = p.expectName('an output column name');
      p.expectOp(':');
      const t = p.expectName('a type');
      if (typeNamed(t.name, true) === undefined && t.name !== 'decimal')
        throw p.errors.syntax(`unknown type '${clip(t.name)}'`, t.span);
      columns.push({ name: n.name, type: t.name, span: { start: n.span.start, end: t.span.end } });
    } while (p.acceptOp(','));
  p.expectOp(')');
  return { wildcard, columns };
}

function bagUnpack(p: OperatorCursor, at: Span, args: readonly Argument[], schema?: OutputSchema): EvaluateSpec {
  // Positional order (bag_unpack plugin docs): Column, OutputColumnPrefix, columnsConflict, ignoredProperties.
  const slots: (Expr | undefined)[] = [];
  const order = ['Column', 'OutputColumnPrefix', 'columnsConflict', 'ignoredProperties'];
  args.forEach((a, i) => {
    if (a.name !== undefined && !BAG_UNPACK_NAMED.has(a.name.name))
      throw p.errors.semantic(`bag_unpack() has no argument '${clip(a.name.name)}'`, a.name.span);
    const slot = a.name ? order.indexOf(a.name.name) : i;
    if (slot >= order.length) throw p.errors.semantic('bag_unpack() takes at most 4 arguments', a.expr.span);
    if (slots[slot] !== undefined)
      throw p.errors.semantic(`bag_unpack()'s ${order[slot]} is given twice`, a.name?.span ?? a.expr.span);
    slots[slot] = a.expr;
  });
  const [column, prefix, conflict, ignored] = slots;
  if (column === undefined) throw p.errors.semantic('bag_unpack() takes the column to unpack first', at);
  return {
    plugin: 'bag_unpack',
    pluginSpan: at,
    column,
    ...(prefix ? { prefix } : {}),
    ...(conflict ? { conflict } : {}),
    ...(ignored ? { ignored } : {}),
    ...(schema ? { schema } : {}),
  };
}

function pivot(p: OperatorCursor, at: Span, args: readonly Argument[], schema?: OutputSchema): EvaluateSpec {
  const named = args.find((a) => a.name !== undefined);
  if (named?.name) throw p.errors.semantic('pivot() takes no named arguments', named.name.span);
  const [column, ...rest] = args.map((a) => a.expr);
  // The second argument is the aggregation when it is a call (pivot plugin docs); else the grouping columns start.
  const aggregation = rest[0]?.kind === 'call' ? rest[0] : undefined;
  return {
    plugin: 'pivot',
    pluginSpan: at,
    column: column!,
    ...(aggregation ? { aggregation } : {}),
    groups: aggregation ? rest.slice(1) : rest,
    ...(schema ? { schema } : {}),
  };
}
