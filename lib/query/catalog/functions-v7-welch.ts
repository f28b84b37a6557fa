// welch_test (its Kusto documentation page): the two-sided p-value of Welch's t-test from two
// samples' means, variances and counts. t = (m1 - m2) / √(v1/n1 + v2/n2) with the Welch–Satterthwaite
// degrees of freedom ν; p = I_{ν/(ν+t²)}(ν/2, 1/2), the regularized incomplete beta of beta_cdf. Null
// where the statistic is undefined (both variances 0, a count of 1: DuckDB's division by zero).
// DuckDB only, as beta_cdf. Precision falls with ν: in a Python model of the same formulas against
// scipy, within 2e-14 relative up to ν = 30, 2e-12 at 1e3, 3e-10 at 1e5, 1e-8 at 1e7, 2e-6 at 1e9 (lgamma(ν/2) and ν/(ν+t²) near 1 lose them).
import { regularized } from './functions-v7-beta';
import type { ScalarFunction, SqlBuilder } from './types';

const bind = (value: string, name: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;
const num = (x: string): string => `CAST(${x} AS DOUBLE)`;

const welch: SqlBuilder = ({ a }) => {
  const [m1, v1, n1, m2, v2, n2] = a.map(num) as [string, string, string, string, string, string];
  const se = `[${v1} / ${n1}, ${v2} / ${n2}, ${m1} - ${m2}, ${n1} - 1, ${n2} - 1]`;
  const t2 = `(wl_s[3] * wl_s[3] / (wl_s[1] + wl_s[2]))`;
  const df = `((wl_s[1] + wl_s[2]) * (wl_s[1] + wl_s[2]) / (wl_s[1] * wl_s[1] / wl_s[4] + wl_s[2] * wl_s[2] / wl_s[5]))`;
  const p = bind(
    `[${t2}, ${df}]`,
    'wl_v',
    bind('wl_v[2] / (wl_v[2] + wl_v[1])', 'wl_x', bind('wl_v[2] / 2', 'wl_a', regularized('wl_x', 'wl_a', '0.5E0'))),
  );
  return bind(se, 'wl_s', p);
};

const param = (name: string) => ({ name, type: 'number' as const });

export const WELCH_V7_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'welch_test',
    family: 'math',
    summary: "The two-sided p-value of Welch's t-test from two samples' means, variances and counts (DuckDB only).",
    signatures: [
      {
        params: [
          param('mean1'),
          param('variance1'),
          param('count1'),
          param('mean2'),
          param('variance2'),
          param('count2'),
        ],
        result: 'real',
      },
    ],
    duckdb: welch,
    timestream: null,
  },
];
