// percentilew / percentilesw (percentilesw-aggregation-function docs): the nearest-rank percentile
// with each value counted weight times, i.e. the smallest value whose cumulative weight (values in
// ascending order) reaches P% of the total weight; P = 0 gives the smallest value. Rows with a null
// value or a weight below 1 are skipped. Kusto estimates with a t-digest; this is the exact answer,
// which the estimate approximates. lib/query/aggregates.ts turns each percentile of a call into one
// column (percentile_x_50, ...), each computed by this entry with the percentile as a constant.
import type { IrExpr } from '../ir';
import { percentileCheck, percentilesOf } from './aggregations';
import { constantOf, type AggregateFunction, type ArgumentCheck, type SqlCall } from './types';

/**
 * DuckDB: the (value, weight) pairs sorted by value, folded left with a running sum that stops
 * moving once it reaches the target (one pass after the sort). An empty group gives null: list_reduce
 * refuses an empty list, so the CASE keeps it from being called.
 */
function weightedPercentile(c: SqlCall, p: number): string {
  const keep = `${c.a[0]} IS NOT NULL AND ${c.a[1]} > 0`;
  const pairs = `list_sort(list({'v': ${c.a[0]}, 'c': CAST(${c.a[1]} AS DOUBLE)}) FILTER (WHERE ${keep}))`;
  const fold = `list_reduce(${pairs}, (acc, e) -> CASE WHEN acc.c * 100 >= pw_total * ${c.d.real(p)} THEN acc ELSE {'v': e.v, 'c': acc.c + e.c} END)`;
  const total = `sum(CAST(${c.a[1]} AS DOUBLE)) FILTER (WHERE ${keep})`;
  return `list_transform([${total}], pw_total -> CASE WHEN pw_total IS NULL THEN NULL ELSE ${fold}.v END)[1]`;
}

/** The percentiles of percentilesw_array: constants after the weight, or one constant dynamic array. */
const arrayPercentiles = (args: readonly IrExpr[]): unknown[] => percentilesOf([args[0]!, ...args.slice(2)]);
const arrayCheck: ArgumentCheck = (args) => {
  const wrong = percentileCheck([args[0]!, ...args.slice(2)]);
  return wrong && [wrong[0] + 1, wrong[1]];
};

const sameAsValue = (args: readonly IrExpr[]) => args[0]!.type;

export const PERCENTILEW_V6_AGGREGATIONS: readonly AggregateFunction[] = [
  {
    name: 'percentilew',
    aliases: ['percentilesw'],
    family: 'aggregation',
    summary:
      'The nearest-rank percentile of expr with each value counted weight times (exact, where Kusto estimates); percentilesw gives one column per percentile, percentile_x_50 ...',
    defaultName: (n) => `percentile_${n}`,
    signatures: [
      {
        params: [
          { name: 'expr', type: 'scalar' },
          { name: 'weight', type: 'integer' },
          { name: 'percentile', type: 'number', constant: true },
        ],
        result: sameAsValue,
      },
    ],
    duckdb: (c) => weightedPercentile(c, Number(constantOf(c.args[2]))),
    timestream: null,
  },
  {
    name: 'percentilesw_array',
    family: 'aggregation',
    summary: 'The weighted nearest-rank percentiles of expr (as percentilesw) in one dynamic array.',
    // The page's printed column name: percentile_x, where percentiles_array names it percentiles_x.
    defaultName: (n) => `percentile_${n}`,
    // Of datetimes and timespans too, as percentilew (Kusto.Language types all three).
    signatures: (['number', 'datetime', 'timespan'] as const).flatMap((type) => [
      {
        params: [
          { name: 'expr', type },
          { name: 'weight', type: 'integer' as const },
          { name: 'percentile', type: 'number' as const, constant: true },
        ],
        variadic: true,
        result: 'dynamic' as const,
      },
      {
        params: [
          { name: 'expr', type },
          { name: 'weight', type: 'integer' as const },
          { name: 'percentiles', type: 'dynamic' as const, constant: true },
        ],
        result: 'dynamic' as const,
      },
    ]),
    check: arrayCheck,
    duckdb: (c) => {
      const values = arrayPercentiles(c.args).map((p) => weightedPercentile(c, Number(p)));
      const type = c.args[0]!.type;
      if (type !== 'datetime' && type !== 'timespan') return `to_json([${values.join(', ')}])`;
      // Inside a dynamic array these are ISO text and [d.]hh:mm:ss text, as pack_array writes them.
      const items = values
        .map((v) => `CASE WHEN ${v} IS NULL THEN 'null' ELSE ${c.jsonOfType(v, type)} END`)
        .join(" || ',' || ");
      return `CAST('[' || ${items} || ']' AS JSON)`;
    },
    timestream: null,
  },
];
