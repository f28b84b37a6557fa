// series_stats(x [, ignore_nonfinite]) in extend or project yields one column per statistic, named
// series_stats_<x>_<stat> in the docs' printed order (https://learn.microsoft.com/en-us/kusto/query/series-stats-function).
// Rewritten here, before analysis, into one item per statistic read from series_stats_dynamic().
// `(Name, ...) = series_stats(...)` names the statistics in that order; fewer names keep only the
// first statistics ("If you provide a limited number of names, the table will show only those columns").
// series_fit_line(x) is rewritten the same way over series_fit_line_dynamic().
// Throws QueryError QUERY_UNSUPPORTED for `Name = series_stats(...)` (one name for several columns),
// QUERY_SEMANTIC for more names than statistics or `(a, b) =` before any other expression.
import type { Expr, NamedExpr } from './ast';
import type { ErrorFactory } from './errors';
import { aggregateArgumentName } from './naming';

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
const MULTI: ReadonlyMap<string, typeof STATS> = new Map([
  ['series_stats', STATS],
  ['series_fit_line', FIT_LINE],
]);

const isSeriesStats = (item: NamedExpr): boolean => item.expr.kind === 'call' && MULTI.has(item.expr.name);

/** The items with each top-level series_stats() call expanded; the same array when there is none. */
export function expandSeriesStats(items: readonly NamedExpr[], errors: ErrorFactory): readonly NamedExpr[] {
  if (!items.some((i) => isSeriesStats(i) || i.names !== undefined)) return items;
  return items.flatMap((item) => {
    if (!isSeriesStats(item)) {
      if (item.names !== undefined)
        throw errors.semantic(
          '(a, b, ...) = names the columns of a function that gives several, such as series_stats()',
          item.span,
        );
      return [item];
    }
    const call = item.expr as Expr & { kind: 'call' };
    const fields = MULTI.get(call.name)!;
    if (item.name !== undefined)
      throw errors.unsupported(
        `${call.name}() gives several columns and cannot be named with Name =; use (${fields[0]![0]}, ${fields[1]![0]}, ...) = ${call.name}(...) or ${call.name}_dynamic()`,
        item.nameSpan ?? item.span,
      );
    if (item.names !== undefined && item.names.length > fields.length)
      throw errors.semantic(
        `${call.name}() gives ${fields.length} columns, but ${item.names.length} names are given`,
        item.span,
      );
    const base = aggregateArgumentName(call.args[0]);
    const bag: Expr = { ...call, name: `${call.name}_dynamic` };
    const stats = item.names === undefined ? fields : fields.slice(0, item.names.length);
    return stats.map(([stat, conversion], i): NamedExpr => {
      const key: Expr = { kind: 'literal', type: 'string', value: stat, span: call.span };
      const value: Expr = { kind: 'index', target: bag, index: key, span: call.span };
      const named = item.names?.[i];
      return {
        // An argument that names nothing leaves its place empty: series_stats__min (Kusto.Language's names).
        name: named?.name ?? `${call.name}_${base}_${stat}`,
        ...(named && { nameSpan: named.span }),
        expr: conversion
          ? { kind: 'call', name: conversion, nameSpan: call.nameSpan, args: [value], span: call.span }
          : value,
        span: item.span,
      };
    });
  });
}
