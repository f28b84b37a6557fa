// series_stats(x [, ignore_nonfinite]) in extend or project yields one column per statistic, named
// series_stats_<x>_<stat> in the docs' printed order (https://learn.microsoft.com/en-us/kusto/query/series-stats-function).
// Rewritten here, before analysis, into one item per statistic read from series_stats_dynamic().
// Throws QueryError QUERY_UNSUPPORTED for `Name = series_stats(...)` (Kusto names them with the
// `(Name, ...) =` form, which is not supported): series_stats_dynamic() gives one bag instead.
import type { Expr, NamedExpr } from './ast';
import type { ErrorFactory } from './errors';
import { aggregateArgumentName } from './naming';

/** The statistics and the conversion that types each (indexes are long, the rest real). */
const STATS: readonly (readonly [string, 'todouble' | 'tolong'])[] = [
  ['min', 'todouble'],
  ['min_idx', 'tolong'],
  ['max', 'todouble'],
  ['max_idx', 'tolong'],
  ['avg', 'todouble'],
  ['stdev', 'todouble'],
  ['variance', 'todouble'],
];

const isSeriesStats = (item: NamedExpr): boolean => item.expr.kind === 'call' && item.expr.name === 'series_stats';

/** The items with each top-level series_stats() call expanded; the same array when there is none. */
export function expandSeriesStats(items: readonly NamedExpr[], errors: ErrorFactory): readonly NamedExpr[] {
  if (!items.some(isSeriesStats)) return items;
  return items.flatMap((item) => {
    if (!isSeriesStats(item)) return [item];
    const call = item.expr as Expr & { kind: 'call' };
    if (item.name !== undefined)
      throw errors.unsupported(
        'series_stats() gives several columns and cannot be named with Name =; use series_stats_dynamic()',
        item.nameSpan ?? item.span,
      );
    const base = aggregateArgumentName(call.args[0]);
    const bag: Expr = { ...call, name: 'series_stats_dynamic' };
    return STATS.map(([stat, conversion]): NamedExpr => {
      const key: Expr = { kind: 'literal', type: 'string', value: stat, span: call.span };
      const value: Expr = { kind: 'index', target: bag, index: key, span: call.span };
      return {
        name: `series_stats_${base === '' ? '' : `${base}_`}${stat}`,
        expr: { kind: 'call', name: conversion, nameSpan: call.nameSpan, args: [value], span: call.span },
        span: item.span,
      };
    });
  });
}
