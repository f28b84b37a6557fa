// series_stats(x [, ignore_nonfinite]) in extend or project yields one column per statistic, named
// series_stats_<x>_<stat> in the docs' printed order (https://learn.microsoft.com/en-us/kusto/query/series-stats-function).
// Rewritten here, before analysis, into one item per statistic read from series_stats_dynamic().
// `(Name, ...) = series_stats(...)` names the statistics in that order; fewer names keep only the
// first statistics ("If you provide a limited number of names, the table will show only those columns").
// Throws QueryError QUERY_UNSUPPORTED for `Name = series_stats(...)` (one name for several columns),
// QUERY_SEMANTIC for more names than statistics or `(a, b) =` before any other expression.
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
    if (item.name !== undefined)
      throw errors.unsupported(
        'series_stats() gives several columns and cannot be named with Name =; use (min, min_idx, ...) = series_stats(...) or series_stats_dynamic()',
        item.nameSpan ?? item.span,
      );
    if (item.names !== undefined && item.names.length > STATS.length)
      throw errors.semantic(
        `series_stats() gives ${STATS.length} columns, but ${item.names.length} names are given`,
        item.span,
      );
    const base = aggregateArgumentName(call.args[0]);
    const bag: Expr = { ...call, name: 'series_stats_dynamic' };
    const stats = item.names === undefined ? STATS : STATS.slice(0, item.names.length);
    return stats.map(([stat, conversion], i): NamedExpr => {
      const key: Expr = { kind: 'literal', type: 'string', value: stat, span: call.span };
      const value: Expr = { kind: 'index', target: bag, index: key, span: call.span };
      const named = item.names?.[i];
      return {
        name: named?.name ?? `series_stats_${base === '' ? '' : `${base}_`}${stat}`,
        ...(named && { nameSpan: named.span }),
        expr: { kind: 'call', name: conversion, nameSpan: call.nameSpan, args: [value], span: call.span },
        span: item.span,
      };
    });
  });
}
