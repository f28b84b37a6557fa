// Timespan constants finer than a microsecond (`1tick`, `7tick`, `0.5microsecond`): datetimes and
// timespans are computed to the microsecond (docs/query-api.md, "Precision"), so such a constant is
// taken only where the answer is exact: folded with other constants into whole microseconds, as the
// divisor of a timespan (a real ratio: `tolong(d / 1tick)` is d's tick count), or as a bin size of 1,
// 2 or 5 ticks. Everywhere else it is refused where it is written. Run on DuckDB.
import { beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { duck, queryRunner, ts } from './geocell-queries';

let rowsOf: (query: string) => Promise<unknown[][]>;
beforeAll(async () => {
  rowsOf = await queryRunner();
});

describe('sub-microsecond timespan constants', () => {
  it('a timespan over a tick constant is the exact real ratio (timespan page: 1tick is 100 ns)', async () => {
    // Prepare: 1 h + 1 µs is 36,000,000,010 ticks
    const source = 'range i from 1 to 2 step 1 | extend d = i * 1h + 1microsecond';
    // Act
    const rows = await rowsOf(
      `${source} | project t = tolong(d / 1tick), u = d / 7tick, w = d / 0.5microsecond, n = timespan(null) / 1tick`,
    );
    // Assess
    expect(rows).toEqual([
      [36000000010, 36000000010 / 7, 7200000002, null],
      [72000000010, 72000000010 / 7, 14400000002, null],
    ]);
  });

  it('constants are folded exactly in ticks: whole microseconds are kept', async () => {
    const rows = await rowsOf(
      'print a = 1tick * 10, b = 10 * 1tick, c = 5tick + 5tick, d = -1tick * 20, e = (1tick + 1tick) * 5, ' +
        'f = 1s / 1tick, g = 1tick / 4tick, h = 1tick * 10.0, i = datetime(2020-01-01) + 10 * 1tick',
    );
    expect(rows).toEqual([
      [
        '00:00:00.0000010',
        '00:00:00.0000010',
        '00:00:00.0000010',
        '-00:00:00.0000020',
        '00:00:00.0000010',
        10000000,
        0.25,
        '00:00:00.0000010',
        '2020-01-01T00:00:00.000001Z',
      ],
    ]);
  });

  it('a let-bound tick constant folds as the literal does, in lets after it too', async () => {
    const rows = await rowsOf(
      'let t = 1tick; let ten = 1tick * 10; let n = 100nanoseconds; let u = t * 20;\n' +
        'print a = 1s / t, b = ten, c = 1s / n, d = u, e = tolong(5s / t), f = bin(3microsecond, t)',
    );
    expect(rows).toEqual([[10000000, '00:00:00.0000010', 10000000, '00:00:00.0000020', 50000000, '00:00:00.0000030']]);
  });

  it('bin() to 1, 2 or 5 ticks leaves a whole-microsecond value as it is', async () => {
    const rows = await rowsOf(
      'print a = bin(datetime(2024-01-01 00:00:00.000007), 1tick), b = floor(3microsecond, 5tick), c = bin(1s, 2tick)',
    );
    expect(rows).toEqual([['2024-01-01T00:00:00.000007Z', '00:00:00.0000030', '00:00:01']]);
  });

  it.each([
    ['print x = 1tick', '1:11: this timespan needs 100-nanosecond precision'],
    ['print x = 1tick * 3', '1:11: this timespan needs 100-nanosecond precision'],
    // n ticks is whole microseconds only for some n: refused where the tick is written, never rounded.
    ['range n from 1 to 2 step 1 | extend t = n * 1tick', '1:45: this timespan needs 100-nanosecond precision'],
    ['print x = ago(1tick)', '1:15: this timespan needs 100-nanosecond precision'],
    ['print x = datetime(2020-01-01) + 5tick', '1:34: this timespan needs 100-nanosecond precision'],
    ['print x = 1tick / 3', '1:11: this timespan needs 100-nanosecond precision'],
    ['print x = 1tick > 0s', '1:11: this timespan needs 100-nanosecond precision'],
    ['print x = 1tick % 1tick', '1:11: this timespan needs 100-nanosecond precision'],
    ['print x = bin(1s, 3tick)', '1:19: this bin size needs 100-nanosecond precision'],
    // A let-bound one: refused where it is used, not where it is bound.
    ['let t = 1tick;\nprint x = t', '2:11: this timespan needs 100-nanosecond precision'],
    [
      'let t = 1tick;\nrange n from 1 to 2 step 1 | extend y = n * t',
      '2:45: this timespan needs 100-nanosecond precision',
    ],
    ['let t = 1tick * 3;\nprint x = t + 0s', '2:11: this timespan needs 100-nanosecond precision'],
  ])('%s is refused at the tick', (query, message) => {
    expect(() => compile(query, duck)).toThrow(message);
  });

  it('Timestream computes the ratio with the same scaled division', () => {
    // The tick count of a difference is (micros * 10) / 1: no rounding before the division.
    const { sql } = compile('States | project x = tolong((Timestamp - AgentTimestamp) / 1tick)', ts);
    expect(sql).toContain('* CAST(10 AS BIGINT)) AS DOUBLE) / CAST(1 AS BIGINT)');
  });
});
