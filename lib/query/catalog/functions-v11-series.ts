// series_product (series_product page): the product of a series' numeric elements, as series_sum
// (functions-v4-series-more.ts) sums them: elements that are not numbers are left out, and a value
// that is no array gives null. An empty series gives 1, the product of no factors, as series_sum
// gives 0 for it. Timestream: refused with a 400, as the other series reductions.
import { bind, doubles } from './functions-v4-series-more';
import type { ScalarFunction } from './types';

export const SERIES_V11_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'series_product',
    family: 'series',
    summary: 'The product of the numeric elements (1 for an empty series).',
    signatures: [{ params: [{ name: 'series', type: 'dynamic' }], result: 'real' }],
    duckdb: ({ a }) =>
      bind(doubles(a[0]!), 's', `CASE WHEN s IS NULL THEN NULL ELSE coalesce(list_product(s), 1E0) END`),
    timestream: null,
  },
];
