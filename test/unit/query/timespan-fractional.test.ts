// A timespan times or over a real or decimal number computed per row (not folded): decimal is a double
// in both engines, so it goes the real number's way (cut to whole microseconds), and a division by
// zero gives null as `/ 0` of longs does, never an engine's error. Run on DuckDB against the values
// written out here (1.75 hours is 01:45:00).
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRunner } from './geocell-queries';

let rowsOf: (query: string) => Promise<unknown[][]>;
beforeAll(async () => {
  rowsOf = await queryRunner();
});

describe('timespan arithmetic with a decimal or real number', () => {
  it('a decimal times an hour is a timespan of whole microseconds, as a real is', async () => {
    // Prepare
    const source = 'print d = 1.5 + decimal(0.25), r = 1.75';
    // Act
    const rows = await rowsOf(
      `${source} | project t = datetime(2024-01-01) + d*1h, s = tostring(d*1h), f = format_timespan(d*1h, "hh:mm"), r = tostring(1h * r), b = bin(datetime(2024-01-01 05:00), (d + decimal(0.25))*1h)`,
    );
    // Assess
    expect(rows).toEqual([['2024-01-01T01:45:00Z', '01:45:00', '01:45', '01:45:00', '2024-01-01T04:00:00Z']]);
  });

  it('a timespan over a decimal is a timespan; over a zero real or decimal it is null', async () => {
    // Prepare
    const source = 'print d = decimal(2.5), z = 0.0, zd = decimal(0)';
    // Act
    const rows = await rowsOf(`${source} | project q = 1h / d, z = 1d / z, zd = 1d / zd, n = 0d / z`);
    // Assess
    expect(rows).toEqual([['00:24:00', null, null, null]]);
  });

  it('a constant timespan over 0.0 is null too', async () => {
    expect(await rowsOf('print 1d / 0.0, -1d / 0.0')).toEqual([[null, null]]);
  });
});
