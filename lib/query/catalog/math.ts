// Math functions. DuckDB raises errors where Kusto answers NaN or infinity (sqrt(-1), log(0)), so
// those arguments are tested before the call.
import type { SqlDialect } from '../sql/dialect';
import { commonType } from '../types';
import { both, type ScalarFunction, type SqlBuilder } from './types';

const x1 = [{ name: 'x', type: 'number' as const }];
const dbl = (x: string): string => `CAST(${x} AS DOUBLE)`;

/** log-like f(x): NaN below zero, -infinity at zero (Kusto's answers; DuckDB would raise an error). */
const logLike =
  (fn: (x: string, d: SqlDialect) => string): SqlBuilder =>
  ({ a, d }) =>
    `CASE WHEN ${a[0]} < 0 THEN ${d.nan()} WHEN ${a[0]} = 0 THEN ${d.infinity(true)} ELSE ${fn(dbl(a[0]!), d)} END`;

const realFn = (
  name: string,
  summary: string,
  build: SqlBuilder,
  timestream: SqlBuilder | null = build,
): ScalarFunction => ({
  name,
  family: 'math',
  summary,
  signatures: [{ params: x1, result: 'real' }],
  duckdb: build,
  timestream,
});

export const MATH_FUNCTIONS: readonly ScalarFunction[] = [
  realFn(
    'sqrt',
    'The square root; NaN for a negative number.',
    ({ a, d }) => `CASE WHEN ${a[0]} < 0 THEN ${d.nan()} ELSE sqrt(${dbl(a[0]!)}) END`,
  ),
  {
    name: 'pow',
    family: 'math',
    summary: 'base raised to exponent.',
    signatures: [
      {
        params: [
          { name: 'base', type: 'number' },
          { name: 'exponent', type: 'number' },
        ],
        result: 'real',
      },
    ],
    ...both(({ a }) => `power(${dbl(a[0]!)}, ${dbl(a[1]!)})`),
  },
  realFn(
    'log',
    'The natural logarithm; NaN below zero, -infinity at zero.',
    logLike((x) => `ln(${x})`),
  ),
  realFn(
    'log10',
    'The base-10 logarithm.',
    logLike((x) => `log10(${x})`),
  ),
  realFn(
    'log2',
    'The base-2 logarithm.',
    logLike((x) => `log2(${x})`),
  ),
  realFn('exp', 'e raised to x.', ({ a }) => `exp(${dbl(a[0]!)})`),
  realFn('exp2', '2 raised to x.', ({ a }) => `power(2E0, ${dbl(a[0]!)})`),
  realFn('exp10', '10 raised to x.', ({ a }) => `power(10E0, ${dbl(a[0]!)})`),
  {
    name: 'ceiling',
    family: 'math',
    summary: "The smallest integer not below x, of x's type.",
    // Of x's type, decimal included (Kusto.Language: ceiling returns Parameter0); decimal is a double in SQL.
    signatures: [{ params: x1, result: (args) => args[0]!.type }],
    ...both(({ a, type }) => (type === 'real' || type === 'decimal' ? `ceil(${a[0]})` : a[0]!)),
  },
  {
    name: 'sign',
    family: 'math',
    summary: '-1, 0 or 1 by the sign of x, as real.',
    // real whatever x is (Kusto.Language declares sign() real; the page takes a real and prints no type).
    signatures: [{ params: x1, result: 'real' }],
    ...both(({ a, d, type }) => `CAST(sign(${a[0]}) AS ${d.sqlType(type)})`),
  },
  {
    name: 'pi',
    family: 'math',
    summary: 'The constant π.',
    signatures: [{ params: [], result: 'real' }],
    ...both(() => 'pi()'),
  },
  {
    name: 'isnan',
    family: 'math',
    summary: 'Whether x is NaN.',
    signatures: [{ params: x1, result: 'bool' }],
    duckdb: ({ a }) => `isnan(${dbl(a[0]!)})`,
    timestream: ({ a }) => `is_nan(${dbl(a[0]!)})`,
  },
  {
    name: 'isinf',
    family: 'math',
    summary: 'Whether x is positive or negative infinity.',
    signatures: [{ params: x1, result: 'bool' }],
    duckdb: ({ a }) => `isinf(${dbl(a[0]!)})`,
    timestream: ({ a }) => `is_infinite(${dbl(a[0]!)})`,
  },
  {
    name: 'isfinite',
    family: 'math',
    summary: 'Whether x is neither infinite nor NaN.',
    signatures: [{ params: x1, result: 'bool' }],
    duckdb: ({ a }) => `isfinite(${dbl(a[0]!)})`,
    timestream: ({ a }) => `is_finite(${dbl(a[0]!)})`,
  },
  ...(['min_of', 'max_of'] as const).map((name): ScalarFunction => ({
    name,
    family: 'math',
    summary: `The ${name === 'min_of' ? 'smallest' : 'largest'} of the arguments, nulls ignored.`,
    signatures: [
      {
        params: [
          { name: 'arg', type: 'scalar' },
          { name: 'arg2', type: 'scalar' },
        ],
        variadic: true,
        result: (args) => commonType(args.map((x) => x.type)) ?? 'dynamic',
      },
    ],
    check: (args) =>
      commonType(args.map((x) => x.type)) === undefined
        ? [1, 'the arguments must have one type (numbers may mix)']
        : undefined,
    // DuckDB's least/greatest skip nulls like Kusto; Trino's give null when any argument is null.
    duckdb: ({ a }) => `${name === 'min_of' ? 'least' : 'greatest'}(${a.join(', ')})`,
    timestream: ({ a }) =>
      `${name === 'min_of' ? 'least' : 'greatest'}(${a.map((x) => `coalesce(${x}, ${a.join(', ')})`).join(', ')})`,
  })),
];
