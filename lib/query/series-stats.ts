// series_stats(x [, ignore_nonfinite]) in extend or project yields one column per statistic, named
// series_stats_<x>_<stat> in the docs' printed order (https://learn.microsoft.com/en-us/kusto/query/series-stats-function).
// Rewritten here, before analysis, into one item per statistic read from series_stats_dynamic().
// `(Name, ...) = series_stats(...)` names the statistics in that order; fewer names keep only the
// first statistics ("If you provide a limited number of names, the table will show only those columns").
// series_fit_line(x) is rewritten the same way over series_fit_line_dynamic().
// series_fft, series_ifft and series_fit_poly become one call of their own per column, the column's
// part or field a last constant argument (FIELD_CALLS); series_decompose's columns each read their
// component of one call that gives all four (BAG_CALLS). An unnamed series_decompose_forecast is
// refused: its page returns one array, Kusto.Language four columns, so its column's name is open.
// Every column reads the operator's input, even when one of them is named as a column the call
// reads (analyzeInGroups); a default name already written in the operator is numbered (name1).
// Throws QueryError QUERY_UNSUPPORTED for `Name = series_stats(...)` (one name for several columns),
// QUERY_SEMANTIC for more names than statistics or `(a, b) =` before any other expression.
import type { Expr, NamedExpr } from './ast';
import type { Span } from './tokens';
import type { ErrorFactory } from './errors';
import { refusalReason } from './catalog/functions-v6-refused';
import { aggregateArgumentName, derivedName, NameAllocator } from './naming';

/** The statistics and the conversion that types each (indexes are long, the rest real). */
const STATS: readonly (readonly [string, 'todouble' | 'tolong' | null])[] = [
  ['min', 'todouble'],
  ['min_idx', 'tolong'],
  ['max', 'todouble'],
  ['max_idx', 'tolong'],
  ['avg', 'todouble'],
  ['stdev', 'todouble'],
  ['variance', 'todouble'],
];

/**
 * series_fit_line (series-fit-line-function docs) the same way over series_fit_line_dynamic: the
 * fit's figures are real, line_fit stays dynamic (no conversion).
 */
const FIT_LINE: typeof STATS = [
  ['rsquare', 'todouble'],
  ['slope', 'todouble'],
  ['variance', 'todouble'],
  ['rvariance', 'todouble'],
  ['interception', 'todouble'],
  ['line_fit', null],
];
/** series_fft / series_ifft: the real and imaginary parts (lib/query/catalog/functions-v6-series.ts). */
const FOURIER: typeof STATS = [
  ['real', null],
  ['imag', null],
];
/** series_fit_poly (lib/query/catalog/functions-v6-series-poly.ts). */
const FIT_POLY: typeof STATS = [
  ['rsquare', null],
  ['coefficients', null],
  ['variance', null],
  ['rvariance', null],
  ['poly_fit', null],
];
/** series_decompose (lib/query/catalog/functions-v10-series-decompose.ts): its page's four series. */
const DECOMPOSE: typeof STATS = [
  ['baseline', null],
  ['seasonal', null],
  ['trend', null],
  ['residual', null],
];
const dynamicNull = (span: Span): Expr => ({ kind: 'literal', type: 'dynamic', value: null, span });
const long = (value: bigint, span: Span): Expr => ({ kind: 'literal', type: 'long', value, span });
/**
 * Functions called once per column with the field as a last constant argument, each call giving
 * only its field, typed (a column reading a bag costs the whole bag: series_fit_poly's columns took
 * a second to bind when todouble() of a dynamic still wrote its argument four times). The optional
 * arguments the call leaves out are filled with their defaults first.
 */
const FIELD_CALLS: ReadonlyMap<string, (span: Span) => readonly Expr[]> = new Map([
  ['series_fft', (span: Span) => [dynamicNull(span)]],
  ['series_ifft', (span: Span) => [dynamicNull(span)]],
  ['series_fit_poly', (span: Span) => [dynamicNull(span), long(1n, span)]],
  // Seasonality -1 (autodetect) is the default, which the function's check refuses at the call.
  [
    'series_decompose',
    (span: Span) => [long(-1n, span), { kind: 'literal', type: 'string', value: 'avg', span }, long(0n, span)],
  ],
]);
/**
 * FIELD_CALLS whose columns read one bag of all the fields instead, the call given this last argument:
 * the same call text in each column is computed once (DuckDB shares a projection's common
 * subexpressions), where one call per field would decompose the series four times.
 */
const BAG_CALLS: ReadonlyMap<string, (span: Span) => Expr> = new Map([
  ['series_decompose', (span: Span): Expr => ({ kind: 'literal', type: 'string', value: 'all', span })],
]);
/**
 * Functions whose every column Kusto.Language keeps when `(a, b) =` gives fewer names, the others
 * under their default names (`extend (rsquare, slope) = series_fit_line(y)` has six columns). Not
 * series_stats: its page says "If you provide a limited number of names, the table will show only
 * those columns".
 */
const KEEPS_ALL: ReadonlySet<string> = new Set(['series_fit_line', 'series_fit_poly', 'series_decompose']);
/**
 * Functions whose `Name =` names the first column, the others keeping their default names, as `(Name) =`
 * does (Kusto.Language: `x = series_fit_line(y)` gives x, series_fit_line_y_slope, ...).
 */
const NAMES_FIRST: ReadonlySet<string> = new Set(['series_decompose', 'series_fit_line', 'series_fit_poly']);
const MULTI: ReadonlyMap<string, typeof STATS> = new Map([
  ['series_stats', STATS],
  ['series_fit_line', FIT_LINE],
  ['series_fft', FOURIER],
  ['series_ifft', FOURIER],
  ['series_fit_poly', FIT_POLY],
  ['series_decompose', DECOMPOSE],
]);

const isSeriesStats = (item: NamedExpr): boolean => item.expr.kind === 'call' && MULTI.has(item.expr.name);

/**
 * The arrays of an array_sort_asc/desc call that sorts several (the array_sort pages: "Returns the
 * same number of arrays as in the input"), undefined for a call that sorts one. nulls_last is a
 * constant (Kusto.Language), so a last bool literal is it and any other argument is an array.
 */
function sortedArrays(expr: Expr): readonly Expr[] | undefined {
  if (expr.kind !== 'call' || (expr.name !== 'array_sort_asc' && expr.name !== 'array_sort_desc')) return undefined;
  const last = expr.args[expr.args.length - 1];
  const arrays = last?.kind === 'literal' && last.type === 'bool' ? expr.args.slice(0, -1) : expr.args;
  return arrays.length > 1 ? arrays : undefined;
}
const isSeveralSorted = (item: NamedExpr): boolean => item.name === undefined && sortedArrays(item.expr) !== undefined;

/**
 * An unnamed array_sort_*(a, b, ...) gives one column per array, each its element of the call's
 * array of sorted arrays: named <array>_sorted (array<i>_sorted for one that names nothing, as
 * Kusto.Language names them), or by `(x, y) =`; with fewer names the others keep their default
 * names (Kusto.Language).
 */
function expandSorted(item: NamedExpr, errors: ErrorFactory, taken: NameAllocator): readonly NamedExpr[] {
  const arrays = sortedArrays(item.expr)!;
  if (item.names !== undefined && item.names.length > arrays.length)
    throw errors.semantic(
      `the call sorts ${arrays.length} arrays, but ${item.names.length} names are given`,
      item.span,
    );
  return arrays.map((array, i): NamedExpr => {
    const named = item.names?.[i];
    const index: Expr = { kind: 'literal', type: 'long', value: BigInt(i), span: item.expr.span };
    return {
      name: named?.name ?? taken.unique(`${derivedName(array, true) ?? `array${i}`}_sorted`),
      ...(named && { nameSpan: named.span }),
      ...(i > 0 && { sameInput: true }),
      expr: { kind: 'index', target: item.expr, index, span: item.expr.span },
      span: item.span,
    };
  });
}
const isUnnamedForecast = (item: NamedExpr): boolean =>
  item.expr.kind === 'call' && item.expr.name === 'series_decompose_forecast' && item.name === undefined;

/** The items with each top-level series_stats() call expanded; the same array when there is none. */
export function expandSeriesStats(items: readonly NamedExpr[], errors: ErrorFactory): readonly NamedExpr[] {
  if (!items.some((i) => isSeriesStats(i) || i.names !== undefined || isUnnamedForecast(i) || isSeveralSorted(i)))
    return items;
  // A default name already written before it in the operator, or in its own (a, b) =, takes a number
  // as Kusto.Language gives it (series_fit_line_x_variance1), rather than clashing.
  const taken = new NameAllocator();
  return items.flatMap((item) => {
    for (const n of item.names ?? []) taken.add(n.name);
    const expanded = expandItem(item, errors, taken);
    for (const e of expanded) if (e.name !== undefined) taken.add(e.name);
    return expanded;
  });
}

/**
 * Analyzes the items of one operator in order; the items expanded from one call (marked sameInput)
 * are analyzed together at the first of them, so that a name one of them writes (`(rsquare, x) =
 * series_fit_poly(x)` writes x) does not change what the others read: each is computed from the input.
 */
export function analyzeInGroups<T>(items: readonly NamedExpr[], analyze: (i: number) => T): (i: number) => T {
  const done = new Map<number, T>();
  return (i) => {
    if (!done.has(i))
      for (let j = i; j === i || (j < items.length && items[j]!.sameInput === true); j++) done.set(j, analyze(j));
    return done.get(i)!;
  };
}

function expandItem(item: NamedExpr, errors: ErrorFactory, taken: NameAllocator): readonly NamedExpr[] {
  if (isSeveralSorted(item)) return expandSorted(item, errors, taken);
  // Its page returns one array, Kusto.Language four columns: the unnamed column's name is not settled.
  if (isUnnamedForecast(item) && item.names === undefined)
    throw errors.unsupported(
      'name the column of series_decompose_forecast(): f = series_decompose_forecast(...)',
      item.span,
    );
  if (!isSeriesStats(item)) {
    // A refused function's own reason says more than the naming form's (the anomaly detection
    // page's (anomalies, score, baseline) = series_decompose_anomalies(...)).
    const refused = item.names !== undefined && item.expr.kind === 'call' ? refusalReason(item.expr.name) : undefined;
    if (refused !== undefined && item.expr.kind === 'call')
      throw errors.unsupported(`the function '${item.expr.name}' is not supported: ${refused}`, item.expr.nameSpan);
    // `(z) = x`: one name in parentheses names the one column, as Kusto.Language reads it.
    if (item.names?.length === 1) {
      const { names, ...rest } = item;
      return [{ ...rest, name: names[0]!.name, nameSpan: names[0]!.span }];
    }
    if (item.names !== undefined)
      throw errors.semantic(
        '(a, b, ...) = names the columns of a function that gives several, such as series_stats()',
        item.span,
      );
    return [item];
  }
  const call = item.expr as Expr & { kind: 'call' };
  const fields = MULTI.get(call.name)!;
  const keepsAll = KEEPS_ALL.has(call.name);
  // The default trend and test points leave room for no more: the fifth is Seasonality_threshold.
  if (call.name === 'series_decompose' && call.args.length > 4)
    throw errors.unsupported(
      'series_decompose(): Seasonality_threshold applies only to seasonality -1 (autodetect), which is not supported',
      call.args[4]!.span,
    );
  if (item.name !== undefined && !NAMES_FIRST.has(call.name))
    throw errors.unsupported(
      `${call.name}() gives several columns and cannot be named with Name =; use (${fields[0]![0]}, ${fields[1]![0]}, ...) = ${call.name}(...)${FIELD_CALLS.has(call.name) ? '' : ` or ${call.name}_dynamic()`}`,
      item.nameSpan ?? item.span,
    );
  if (item.names !== undefined && item.names.length > fields.length)
    throw errors.semantic(
      `${call.name}() gives ${fields.length} columns, but ${item.names.length} names are given`,
      item.span,
    );
  const base = aggregateArgumentName(call.args[0]);
  const bag: Expr = { ...call, name: `${call.name}_dynamic` };
  const defaults = FIELD_CALLS.get(call.name)?.(call.span);
  const names = item.name !== undefined ? [{ name: item.name, span: item.nameSpan ?? item.span }] : item.names;
  const stats = names === undefined || keepsAll ? fields : fields.slice(0, names.length);
  return stats.map(([stat, conversion], i): NamedExpr => {
    const key: Expr = { kind: 'literal', type: 'string', value: stat, span: call.span };
    const filled = defaults && [...call.args, ...defaults.slice(call.args.length - 1)];
    const value: Expr = !filled
      ? { kind: 'index', target: bag, index: key, span: call.span }
      : BAG_CALLS.has(call.name)
        ? {
            kind: 'index',
            target: { ...call, args: [...filled, BAG_CALLS.get(call.name)!(call.span)] },
            index: key,
            span: call.span,
          }
        : { ...call, args: [...filled, key] };
    const named = names?.[i];
    return {
      // An argument that names nothing leaves its place empty: series_stats__min (Kusto.Language's names).
      name: named?.name ?? taken.unique(`${call.name}_${base}_${stat}`),
      ...(named && { nameSpan: named.span }),
      ...(i > 0 && { sameInput: true }),
      expr: conversion
        ? { kind: 'call', name: conversion, nameSpan: call.nameSpan, args: [value], span: call.span }
        : value,
      span: item.span,
    };
  });
}
