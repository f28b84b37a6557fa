// evaluate geo_polygon_lookup(LookupTable, SourceLongitude, SourceLatitude, LookupPolygonKey [, radius]
// [, return_unmatched] [, join_hint]) and geo_line_lookup(LookupTable, SourceLongitude, SourceLatitude,
// LookupLineKey, Radius [, return_unmatched] [, join_hint]) (geo-polygon-lookup-plugin and
// geo-line-lookup-plugin docs): each input row joined with every lookup row whose shape holds its point,
// tested as the pages say by geo_point_in_polygon, or with a radius by geo_distance_point_to_polygon
// <= radius; for lines by geo_distance_point_to_line <= Radius. A point in several shapes gives a row
// per shape ("as many records as matching results"); an invalid shape, a null or out-of-range
// coordinate match nothing (the geo functions give null there). Schema as the lookup operator's: the
// input's columns, then the lookup's (a taken name suffixed). With return_unmatched the rows matching
// none are kept once each, the lookup columns null. join_hint only tunes Kusto's matching: checked,
// then not used.
// Written as a join of every input row with every lookup row (the pages assume a small lookup table),
// then a filter; the unmatched rows are an anti-join on the coordinates. The geometry functions are
// DuckDB's only, so on Timestream the plugin is refused, naming itself (servesPlugin).
// Throws QUERY_SEMANTIC at the argument for a missing or mistyped column, a non-constant option.
import type { Expr, NamedArgument, Operator, Pipeline } from './ast';
import { binary, call, long, name } from './ast-build';
import type { MvApplyHost } from './analyze-mv-apply';
import { lookupTable } from './analyze-ip-lookup';
import { clip } from './errors';
import type { IrColumn, KqlType, Rel } from './ir';
import { GEO_LOOKUP_OPTIONS, type GeoLookupPlugin } from './parser-geo-lookup';
import { projected, runOver, withUnmatchedRows } from './plugin-rewrite';
import { analyzeScalar } from './scalars';
import type { Span } from './tokens';

const NUMERIC: ReadonlySet<KqlType> = new Set(['real', 'long', 'int', 'decimal']);

interface Options {
  readonly radius?: Expr;
  readonly unmatched: boolean;
}

export function analyzeGeoLookup(
  h: MvApplyHost,
  input: Rel,
  plugin: GeoLookupPlugin,
  args: readonly Expr[],
  named: readonly NamedArgument[],
  argsSpan: Span,
  span: Span,
): Rel {
  const line = plugin === 'geo_line_lookup';
  const key = line ? 'LookupLineKey' : 'LookupPolygonKey';
  if (args.length < 4)
    throw h.errors.semantic(
      `${plugin}() takes LookupTable, SourceLongitude, SourceLatitude, ${key}${line ? ' and Radius' : ''}`,
      argsSpan,
    );
  const [tableArg, lngArg, latArg, keyArg, ...rest] = args as [Expr, Expr, Expr, Expr, ...Expr[]];
  const table = lookupTable(h, plugin, tableArg);
  const lookup = h.subquery(table);
  const lng = column(h, plugin, lngArg, input.columns, 'SourceLongitude', NUMERIC, 'the input');
  const lat = column(h, plugin, latArg, input.columns, 'SourceLatitude', NUMERIC, 'the input');
  const shapeColumn = column(h, plugin, keyArg, lookup.columns, key, new Set(['dynamic']), 'the lookup table');
  const { radius, unmatched } = options(h, plugin, input, rest, named);
  if (line && radius === undefined) throw h.errors.semantic(`${plugin}() takes the Radius after ${key}`, argsSpan);

  const at = span;
  const prefix = `\u0000${plugin} ${h.newRef()} `;
  const [one, shape] = [`${prefix}one`, `${prefix}shape`];
  const extend = (items: readonly [string, Expr][]): Operator => ({
    kind: 'extend',
    items: items.map(([n, e]) => ({ name: n, expr: e, span: at })),
    span: at,
  });
  // The shape under a hidden name: a lookup column named like an input column is renamed by the join.
  const shapes: Pipeline = {
    ...table,
    operators: [
      ...table.operators,
      extend([
        [one, long(1n, at)],
        [shape, name(shapeColumn, at)],
      ]),
    ],
  };
  const point = [name(lng, at), name(lat, at), name(shape, at)];
  const matches =
    radius === undefined
      ? call('geo_point_in_polygon', point, at)
      : binary(
          '<=',
          call(line ? 'geo_distance_point_to_line' : 'geo_distance_point_to_polygon', point, at),
          radius,
          at,
        );
  const on = (n: string) => ({ left: n, right: n, leftSpan: at, rightSpan: at, span: at });
  const matching: Operator[] = [
    extend([[one, long(1n, at)]]),
    { kind: 'join', join: { lookup: true, joinKind: 'inner', kindSpan: at, right: shapes, on: [on(one)] }, span: at },
    { kind: 'where', predicate: matches, span: at },
  ];
  // A null coordinate matches no shape and equals nothing in the anti-join, so its row is kept.
  const rel = unmatched
    ? withUnmatchedRows(h, input, matching, [lng, lat], `${prefix}input`, at)
    : runOver(h, input, matching, at);
  const visible = rel.columns.filter((c) => !c.name.startsWith('\u0000')).map((c) => c.name);
  return projected(h, rel, visible, at);
}

/** A column of `columns` named by `e`, of one of the `types`. */
function column(
  h: MvApplyHost,
  plugin: string,
  e: Expr,
  columns: readonly IrColumn[],
  what: string,
  types: ReadonlySet<KqlType>,
  where: string,
): string {
  if (e.kind !== 'name') throw h.errors.semantic(`${plugin}() takes ${what} as a column name of ${where}`, e.span);
  const c = columns.find((x) => x.name === e.name);
  if (!c) throw h.unknownColumn(e.name, columns, e.span, `in ${where}`);
  if (!types.has(c.type))
    throw h.errors.semantic(
      `${plugin}()'s ${what} '${clip(e.name)}' must be a ${[...types].join(' or ')} column, not ${c.type}`,
      e.span,
    );
  return e.name;
}

/** radius, return_unmatched and join_hint: positional after the key, or named; each a constant. */
function options(
  h: MvApplyHost,
  plugin: GeoLookupPlugin,
  input: Rel,
  positional: readonly Expr[],
  named: readonly NamedArgument[],
): Options {
  if (positional.length > GEO_LOOKUP_OPTIONS.length)
    throw h.errors.semantic(
      `${plugin}() takes at most ${4 + GEO_LOOKUP_OPTIONS.length} arguments`,
      positional[GEO_LOOKUP_OPTIONS.length]!.span,
    );
  const given = new Map<string, Expr>(positional.map((e, i) => [GEO_LOOKUP_OPTIONS[i]!, e]));
  for (const n of named) {
    if (given.has(n.name)) throw h.errors.semantic(`${plugin}()'s ${n.name} is given twice`, n.nameSpan);
    given.set(n.name, n.expr);
  }
  const constant = (option: string, test: (type: KqlType, value: unknown) => boolean, wanted: string) => {
    const e = given.get(option);
    if (e === undefined) return undefined;
    const ir = analyzeScalar(e, h.env(input.columns));
    if (ir.kind !== 'lit' || ir.value === null || !test(ir.type, ir.value))
      throw h.errors.semantic(`${plugin}()'s ${option} must be ${wanted}`, e.span);
    return { e, value: ir.value };
  };
  const nonNegative = (type: KqlType, value: unknown) => NUMERIC.has(type) && Number(value) >= 0;
  const radius = constant('radius', nonNegative, 'a constant non-negative number of metres');
  constant('join_hint', nonNegative, 'a constant non-negative number');
  const flag = constant('return_unmatched', (type) => type === 'bool', 'a constant bool');
  return { ...(radius ? { radius: radius.e } : {}), unmatched: flag?.value === true };
}
