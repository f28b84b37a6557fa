// Trigonometry and bitwise functions. Kusto answers NaN where an argument is outside a function's
// domain (acos(2)); DuckDB raises an error there, so the domain is tested before the call.
import { both, type ScalarFunction, type SqlBuilder } from './types';

const dbl = (x: string): string => `CAST(${x} AS DOUBLE)`;

const real1 = (name: string, summary: string, build: SqlBuilder): ScalarFunction => ({
  name,
  family: 'math',
  summary,
  signatures: [{ params: [{ name: 'x', type: 'number' }], result: 'real' }],
  ...both(build),
});

/**
 * An inverse function defined on [-1, 1]: NaN outside, as .NET's Math.Acos/Asin answer. Tested
 * without abs(), which overflows the engine for long.min.
 */
const unitDomain =
  (fn: string): SqlBuilder =>
  ({ a, d }) =>
    `CASE WHEN NOT (${a[0]} BETWEEN -1 AND 1) THEN ${d.nan()} ELSE ${fn}(${dbl(a[0]!)}) END`;

const long2 = (name: string, summary: string, duckOp: string, tsFn: string | null): ScalarFunction => ({
  name,
  family: 'math',
  summary,
  signatures: [
    {
      params: [
        { name: 'value1', type: 'integer' },
        { name: 'value2', type: 'integer' },
      ],
      result: 'long',
    },
  ],
  duckdb: ({ a }) =>
    duckOp === 'xor'
      ? `xor(CAST(${a[0]} AS BIGINT), CAST(${a[1]} AS BIGINT))`
      : `(CAST(${a[0]} AS BIGINT) ${duckOp} CAST(${a[1]} AS BIGINT))`,
  timestream: tsFn === null ? null : ({ a }) => `${tsFn}(CAST(${a[0]} AS BIGINT), CAST(${a[1]} AS BIGINT))`,
});

const TWO_64 = '18446744073709551616';
/** A HUGEINT taken modulo 2^64 as a two's complement BIGINT (DuckDB refuses overflowing shifts). */
const wrap64 = (h: string): string =>
  `CAST(CASE WHEN ((${h} % ${TWO_64}) + ${TWO_64}) % ${TWO_64} >= 9223372036854775808 THEN ((${h} % ${TWO_64}) + ${TWO_64}) % ${TWO_64} - ${TWO_64} ELSE ((${h} % ${TWO_64}) + ${TWO_64}) % ${TWO_64} END AS BIGINT)`;

/**
 * Shifts: Kusto shifts a 64-bit long by `shift % 64` and gives null for a negative count
 * (binary_shift_left/right pages: "value << (shift%64)"), so a count of 64 shifts by 0; DuckDB would
 * raise an error past 63. Timestream has no shift function: refused there.
 */
const shift = (name: string, op: '<<' | '>>'): ScalarFunction => ({
  ...long2(
    name,
    `value shifted ${op === '<<' ? 'left' : 'right'} by shift % 64 bits (64-bit); null for a negative shift.`,
    op,
    null,
  ),
  signatures: [
    {
      params: [
        { name: 'value', type: 'integer' },
        { name: 'shift', type: 'integer' },
      ],
      result: 'long',
    },
  ],
  duckdb: ({ a }) =>
    `CASE WHEN ${a[1]} >= 0 THEN ${op === '<<' ? wrap64(`(CAST(${a[0]} AS HUGEINT) * (CAST(1 AS HUGEINT) << CAST(${a[1]} % 64 AS INTEGER)))`) : `(CAST(${a[0]} AS BIGINT) >> CAST(${a[1]} % 64 AS INTEGER))`} END`,
});

export const TRIG_FUNCTIONS: readonly ScalarFunction[] = [
  real1('cos', 'The cosine of x radians.', ({ a }) => `cos(${dbl(a[0]!)})`),
  real1('sin', 'The sine of x radians.', ({ a }) => `sin(${dbl(a[0]!)})`),
  real1('tan', 'The tangent of x radians.', ({ a }) => `tan(${dbl(a[0]!)})`),
  real1('cot', 'The cotangent of x radians.', ({ a }) => `(1E0 / tan(${dbl(a[0]!)}))`),
  real1('acos', 'The angle whose cosine is x, in radians; NaN outside [-1, 1].', unitDomain('acos')),
  real1('asin', 'The angle whose sine is x, in radians; NaN outside [-1, 1].', unitDomain('asin')),
  real1('atan', 'The angle whose tangent is x, in radians.', ({ a }) => `atan(${dbl(a[0]!)})`),
  {
    name: 'atan2',
    family: 'math',
    summary: 'The angle in radians between the positive x-axis and the ray to the point (x, y).',
    signatures: [
      {
        params: [
          { name: 'y', type: 'number' },
          { name: 'x', type: 'number' },
        ],
        result: 'real',
      },
    ],
    ...both(({ a }) => `atan2(${dbl(a[0]!)}, ${dbl(a[1]!)})`),
  },
  real1('degrees', 'Radians converted to degrees.', ({ a }) => `degrees(${dbl(a[0]!)})`),
  real1('radians', 'Degrees converted to radians.', ({ a }) => `radians(${dbl(a[0]!)})`),
  long2('binary_and', 'The bitwise AND of two integers.', '&', 'bitwise_and'),
  long2('binary_or', 'The bitwise OR of two integers.', '|', 'bitwise_or'),
  long2('binary_xor', 'The bitwise XOR of two integers.', 'xor', 'bitwise_xor'),
  {
    name: 'binary_not',
    family: 'math',
    summary: 'The bitwise NOT of an integer.',
    signatures: [{ params: [{ name: 'value', type: 'integer' }], result: 'long' }],
    duckdb: ({ a }) => `(~CAST(${a[0]} AS BIGINT))`,
    timestream: ({ a }) => `bitwise_not(CAST(${a[0]} AS BIGINT))`,
  },
  shift('binary_shift_left', '<<'),
  shift('binary_shift_right', '>>'),
  {
    name: 'bitset_count_ones',
    family: 'math',
    summary: 'The number of set bits of the 64-bit integer.',
    signatures: [{ params: [{ name: 'value', type: 'integer' }], result: 'long' }],
    duckdb: ({ a }) => `CAST(bit_count(CAST(${a[0]} AS BIGINT)) AS BIGINT)`,
    timestream: ({ a }) => `bit_count(CAST(${a[0]} AS BIGINT), 64)`,
  },
];
