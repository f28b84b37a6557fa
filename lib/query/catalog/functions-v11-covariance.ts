// The covariance aggregations (covariance, covariancep, covarianceif, covariancepif aggregation
// function pages): the sample (n - 1) or population (n) covariance of two numbers over the rows,
// or over the rows where a predicate holds. A row where either value is null is left out ("ignore
// nulls"). Named from both arguments, as the pages print them: covariance_x_y (Kusto.Language names
// them from the first argument only, covariance_x; the pages' printed results win).
import { when } from './aggregations';
import type { AggregateFunction, SqlBuilder, SqlCall } from './types';

const num = (name: string) => ({ name, type: 'number' as const });
const pred = { name: 'predicate', type: 'bool' as const };

/** One value of the pair as a double, null where the predicate (argument 2) does not hold. */
const operand = (c: SqlCall, i: number, conditional: boolean): string =>
  conditional ? `CAST(${when(c, i, 2)} AS DOUBLE)` : `CAST(${c.a[i]} AS DOUBLE)`;

/**
 * covar_samp/covar_pop of both engines; a group of one row (or none) has no sample covariance in SQL,
 * and 0 here, as variance() gives for one value. A NaN or an infinity makes the result NaN in DuckDB
 * (IEEE arithmetic, as Kusto's), where its var_samp stops the query.
 */
const covarianceSql =
  (population: boolean, conditional: boolean): SqlBuilder =>
  (c) =>
    `coalesce(${population ? 'covar_pop' : 'covar_samp'}(${operand(c, 0, conditional)}, ${operand(c, 1, conditional)}), 0E0)`;

const covariance = (name: string, population: boolean, conditional: boolean): AggregateFunction => {
  const build = covarianceSql(population, conditional);
  return {
    name,
    family: 'aggregation',
    summary: `The ${population ? 'population' : 'sample'} covariance of expr1 and expr2${conditional ? ' where predicate holds' : ''}.`,
    defaultName: (first, second) => `${name}_${first}_${second}`,
    signatures: [
      { params: conditional ? [num('expr1'), num('expr2'), pred] : [num('expr1'), num('expr2')], result: 'real' },
    ],
    duckdb: build,
    timestream: build,
  };
};

export const COVARIANCE_V11_AGGREGATIONS: readonly AggregateFunction[] = [
  covariance('covariance', false, false),
  covariance('covariancep', true, false),
  covariance('covarianceif', false, true),
  covariance('covariancepif', true, true),
];
