// The answer -> series mapping of the playground's charts, rule by rule against the Kusto docs:
// render operator  https://learn.microsoft.com/kusto/query/render-operator
// timechart        https://learn.microsoft.com/kusto/query/visualization-timechart
// columnchart      https://learn.microsoft.com/kusto/query/visualization-columnchart
// areachart        https://learn.microsoft.com/kusto/query/visualization-areachart
// piechart         https://learn.microsoft.com/kusto/query/visualization-piechart
import { describe, expect, it } from 'vitest';
import type { AnswerColumn, QueryAnswer } from '../../../lib/playground/web/answer-shape';
import { drawnSeries, type ChartModel, type PieModel, type XyModel } from '../../../lib/playground/web/chart-model';
import { chartModel, MAX_SERIES } from '../../../lib/playground/web/chart-series';

const col = (name: string, columnType: string): AnswerColumn => ({ name, columnType, dataType: columnType });
const answer = (columns: AnswerColumn[], rows: unknown[][]): QueryAnswer => ({
  data: { columns, rows },
  meta: { truncated: false, rowLimit: 10000, maxResponseBytes: 1e7 },
});
const hint = (visualization: string, properties: Record<string, string> = {}) => ({ visualization, properties });
const xy = (model: ChartModel): XyModel => {
  if (model.family !== 'xy') throw new Error(`expected an xy model, got ${JSON.stringify(model)}`);
  return model;
};
const pie = (model: ChartModel): PieModel => {
  if (model.family !== 'pie') throw new Error(`expected a pie model, got ${JSON.stringify(model)}`);
  return model;
};
const T0 = Date.UTC(2026, 10, 25, 10, 0);
const iso = (minute: number): string => new Date(T0 + minute * 60_000).toISOString();

// What `States | summarize avg(value) by bin(timestamp, 1m), name | render timechart` returns.
const byMinuteAndName = answer(
  [col('timestamp', 'datetime'), col('name', 'string'), col('avg_value', 'real')],
  [
    [iso(0), 'temperature', 21.5],
    [iso(0), 'pressure', 1.2],
    [iso(1), 'temperature', 21.7],
    [iso(1), 'pressure', 1.3],
    [iso(2), 'temperature', 21.9],
  ],
);

describe('timechart', () => {
  it('puts the datetime column on x and makes one series per value of the string column (timechart page)', () => {
    const model = xy(chartModel(byMinuteAndName, hint('timechart')));
    expect(model.mark).toBe('line');
    expect(model.x).toEqual({ name: 'timestamp', axis: 'time', values: [T0, T0 + 60_000, T0 + 120_000] });
    expect(model.series.map((s) => [s.name, s.values, s.points])).toEqual([
      ['temperature', [21.5, 21.7, 21.9], 3],
      ['pressure', [1.2, 1.3, null], 2],
    ]);
    expect(drawnSeries(model)).toEqual([
      { name: 'temperature', points: 3 },
      { name: 'pressure', points: 2 },
    ]);
  });

  it('draws every numeric column as a series when there is no string column ("Other numeric columns are y-axes")', () => {
    const model = xy(
      chartModel(
        answer(
          [col('n', 'long'), col('t', 'datetime'), col('avg', 'real')],
          [
            [3, iso(1), 1.5],
            [5, iso(0), 2.5],
          ],
        ),
        hint('timechart'),
      ),
    );
    // The first datetime column is x even when it is not the first column; x is sorted ascending.
    expect(model.x.values).toEqual([T0, T0 + 60_000]);
    expect(model.series.map((s) => [s.name, s.values])).toEqual([
      ['n', [5, 3]],
      ['avg', [2.5, 1.5]],
    ]);
  });

  it('says so instead of drawing when no column is a datetime', () => {
    const model = chartModel(answer([col('name', 'string'), col('n', 'long')], [['a', 1]]), hint('timechart'));
    expect(model).toEqual({
      family: 'message',
      visualization: 'timechart',
      message: 'timechart needs a datetime column for its x axis',
    });
  });

  it('refuses an xcolumn that is not a datetime, and one that does not exist', () => {
    const columns = [col('t', 'datetime'), col('n', 'long')];
    expect(chartModel(answer(columns, [[iso(0), 1]]), hint('timechart', { xcolumn: 'n' }))).toMatchObject({
      family: 'message',
      message: "timechart needs a datetime x axis; 'n' is long",
    });
    expect(chartModel(answer(columns, [[iso(0), 1]]), hint('timechart', { xcolumn: 'Time' }))).toMatchObject({
      family: 'message',
      message: "'Time' is not a column of the answer",
    });
  });

  it('reads Kusto datetimes with 7 fractional digits, and skips rows whose x is null or unreadable', () => {
    const model = xy(
      chartModel(
        answer(
          [col('t', 'datetime'), col('v', 'real')],
          [
            ['2026-11-25T10:00:00.1234567Z', 1],
            [null, 2],
            ['yesterday', 3],
            ['2026-11-25T10:00:01Z', 4],
          ],
        ),
        hint('timechart'),
      ),
    );
    expect(model.x.values).toEqual([T0 + 123, T0 + 1000]);
    expect(model.notes).toContain('2 rows without a valid t were skipped');
  });

  it('keeps every point of a series that repeats an x value, without lengthening shared x slots', () => {
    const model = xy(
      chartModel(
        answer(
          [col('t', 'datetime'), col('d', 'string'), col('v', 'real')],
          [
            [iso(0), 'a', 1],
            [iso(0), 'a', 2],
            [iso(0), 'b', 3],
            [iso(1), 'b', 4],
          ],
        ),
        hint('timechart'),
      ),
    );
    expect(model.x.values).toEqual([T0, T0, T0 + 60_000]);
    expect(model.series.map((s) => s.values)).toEqual([
      [1, 2, null],
      [3, null, 4],
    ]);
  });
});

describe('columns of the data model (render operator: x, series, y columns)', () => {
  const wide = answer(
    [col('t', 'datetime'), col('plant', 'string'), col('device', 'string'), col('min', 'real'), col('max', 'real')],
    [
      [iso(0), 'p1', 'd1', 1, 10],
      [iso(0), 'p1', 'd2', 2, 20],
      [iso(1), 'p2', 'd1', 3, 30],
    ],
  );

  it('uses only the first string column for series and says which ones it ignored', () => {
    const model = xy(chartModel(wide, hint('linechart')));
    expect(model.series.map((s) => s.name)).toEqual(['p1:min', 'p1:max', 'p2:min', 'p2:max']);
    expect(model.notes).toContain('columns ignored: device');
  });

  it('series= combines the values of several columns into one series name', () => {
    const model = xy(chartModel(wide, hint('linechart', { series: 'plant, device', ycolumns: 'max' })));
    expect(model.series.map((s) => [s.name, s.points])).toEqual([
      ['p1, d1', 1],
      ['p1, d2', 1],
      ['p2, d1', 1],
    ]);
  });

  it('ycolumns= chooses the y columns; a missing one is a message, not an exception', () => {
    const model = xy(chartModel(wide, hint('linechart', { ycolumns: 'min' })));
    expect(model.series.map((s) => s.name)).toEqual(['p1', 'p2']);
    expect(chartModel(wide, hint('linechart', { ycolumns: 'avg' }))).toMatchObject({
      family: 'message',
      message: "ycolumns: 'avg' is not a column of the answer",
    });
  });

  it('xcolumn= chooses the x column', () => {
    const model = xy(
      chartModel(
        answer(
          [col('a', 'long'), col('b', 'long')],
          [
            [1, 10],
            [2, 20],
          ],
        ),
        hint('linechart', { xcolumn: 'b' }),
      ),
    );
    expect(model.x).toEqual({ name: 'b', axis: 'number', values: [10, 20] });
    expect(model.series.map((s) => [s.name, s.values])).toEqual([['a', [1, 2]]]);
  });

  it('takes title, xtitle, ytitle, legend=hidden, ymin and ymax; ysplit and unknown properties become notes', () => {
    const model = xy(
      chartModel(
        byMinuteAndName,
        hint('timechart', {
          title: '"Line 1"',
          xtitle: 'time',
          ytitle: '°C',
          legend: 'hidden',
          ymin: '0',
          ymax: 'x',
          ysplit: 'panels',
          zoom: 'yes',
        }),
      ),
    );
    expect(model.options).toMatchObject({
      title: 'Line 1',
      xtitle: 'time',
      ytitle: '°C',
      legend: false,
      ymin: 0,
      ymax: undefined,
    });
    expect(model.notes).toEqual([
      'ysplit is ignored: one y axis is drawn',
      'zoom is ignored',
      'ymax=x is not a number and is ignored',
    ]);
  });

  it('accumulate=true adds each value to its predecessors', () => {
    const model = xy(chartModel(byMinuteAndName, hint('timechart', { accumulate: 'true' })));
    expect(model.series[0]?.values).toEqual([21.5, 43.2, 65.1].map((v) => expect.closeTo(v, 9)));
  });

  it('caps the number of series and says so', () => {
    const rows = Array.from({ length: MAX_SERIES + 5 }, (_, i) => [iso(0), `device-${i}`, i]);
    const model = xy(
      chartModel(answer([col('t', 'datetime'), col('d', 'string'), col('v', 'long')], rows), hint('timechart')),
    );
    expect(model.series).toHaveLength(MAX_SERIES);
    expect(model.notes).toContain(`only the first ${MAX_SERIES} series are drawn`);
  });
});

describe('column, bar, area and scatter charts', () => {
  const byState = answer(
    [col('State', 'string'), col('count_', 'long'), col('errors', 'long')],
    [
      ['running', 40, 1],
      ['stopped', '10', 3],
      ['fault', 5, null],
    ],
  );

  it('columnchart: the first column is x, even as text, in the order of the answer (columnchart page)', () => {
    const model = xy(chartModel(byState, hint('columnchart')));
    expect(model.mark).toBe('column');
    expect(model.x).toEqual({ name: 'State', axis: 'category', values: ['running', 'stopped', 'fault'] });
    // long written as a string (beyond 2^53) still counts as a number.
    expect(model.series.map((s) => [s.name, s.values, s.points])).toEqual([
      ['count_', [40, 10, 5], 3],
      ['errors', [1, 3, null], 2],
    ]);
  });

  it('barchart is a column chart drawn sideways; kind=stacked100 turns values into shares of each x', () => {
    const model = xy(chartModel(byState, hint('barchart', { kind: 'stacked100' })));
    expect(model.mark).toBe('bar');
    expect(model.options.stack).toBe('stacked100');
    expect(model.series[0]?.values[1]).toBeCloseTo(76.92, 2);
    expect(model.series[1]?.values[1]).toBeCloseTo(23.08, 2);
  });

  it('kind=stacked is kept for area/column/bar charts and noted as ignored elsewhere', () => {
    expect(xy(chartModel(byMinuteAndName, hint('areachart', { kind: 'stacked' }))).options.stack).toBe('stacked');
    const line = xy(chartModel(byMinuteAndName, hint('linechart', { kind: 'stacked' })));
    expect(line.options.stack).toBe('none');
    expect(line.notes).toContain('kind=stacked is ignored for linechart');
  });

  it('columnchart with repeated categories draws the last value and says so', () => {
    const model = xy(
      chartModel(
        answer(
          [col('k', 'string'), col('v', 'long')],
          [
            ['a', 1],
            ['a', 2],
          ],
        ),
        hint('columnchart'),
      ),
    );
    expect(model.series[0]?.values).toEqual([2]);
    expect(model.notes).toContain('1 repeated k values: the last one of each is drawn');
  });

  it('areachart and scatterchart take the first numeric or datetime column as x (areachart page)', () => {
    const data = answer(
      [col('name', 'string'), col('x', 'real'), col('y', 'real')],
      [
        ['a', 2, 20],
        ['a', 1, 10],
      ],
    );
    const model = xy(chartModel(data, hint('scatterchart')));
    expect(model.mark).toBe('scatter');
    expect(model.x).toEqual({ name: 'x', axis: 'number', values: [1, 2] });
    expect(model.series.map((s) => [s.name, s.values])).toEqual([['a', [10, 20]]]);
    expect(xy(chartModel(data, hint('areachart'))).mark).toBe('area');
  });

  it('a linechart of a text column and one number draws the text as categories (nothing else is left for y)', () => {
    // With ycolumns, x is the first numeric column not drawn as y (the docs' rule), here `errors`.
    const model = xy(chartModel(byState, hint('linechart', { ycolumns: 'count_' })));
    expect(model.x.name).toBe('errors');
    const single = xy(
      chartModel(
        answer(
          [col('State', 'string'), col('n', 'long')],
          [
            ['a', 1],
            ['b', 2],
          ],
        ),
        hint('linechart'),
      ),
    );
    expect(single.x.name).toBe('State');
    expect(single.series.map((s) => [s.name, s.values])).toEqual([['n', [1, 2]]]);
  });
});

describe('piechart', () => {
  it('the first column names the slices and the first numeric column sizes them (piechart page)', () => {
    const model = pie(
      chartModel(
        answer(
          [col('State', 'string'), col('n', 'long')],
          [
            ['running', 40],
            ['stopped', 10],
            ['running', 2],
            [null, 3],
            ['broken', -1],
          ],
        ),
        hint('piechart', { title: 'States' }),
      ),
    );
    expect(model.slices).toEqual([
      { name: 'running', value: 42 },
      { name: 'stopped', value: 10 },
      { name: '(null)', value: 3 },
    ]);
    expect(model.options.title).toBe('States');
    expect(model.notes).toContain('1 rows without a positive n are not in the pie');
    expect(drawnSeries(model)).toEqual([{ name: 'n', points: 3 }]);
  });

  it('sums the smallest of many slices into (other)', () => {
    const rows = Array.from({ length: 60 }, (_, i) => [`s${i}`, i + 1]);
    const model = pie(chartModel(answer([col('k', 'string'), col('v', 'long')], rows), hint('piechart')));
    expect(model.slices).toHaveLength(50);
    expect(model.slices.at(-1)).toEqual({ name: '(other)', value: (11 * 12) / 2 });
  });

  it('says what is missing when no column is numeric', () => {
    expect(chartModel(answer([col('k', 'string')], [['a']]), hint('piechart'))).toMatchObject({
      family: 'message',
      message: 'a pie chart needs a numeric column for the slice sizes',
    });
  });
});

describe('what is not drawn', () => {
  it('table draws nothing and lists no series (the grid shows it)', () => {
    const model = chartModel(byMinuteAndName, hint('table'));
    expect(model).toEqual({ family: 'table', visualization: 'table' });
    expect(drawnSeries(model)).toEqual([]);
  });

  it.each(['anomalychart', 'card', 'ladderchart', 'pivotchart', 'timepivot', 'treemap', '3Dchart', 'toString'])(
    '%s is named as not supported',
    (name) => {
      expect(chartModel(byMinuteAndName, hint(name))).toEqual({
        family: 'message',
        visualization: name.toLowerCase(),
        message: `not supported: ${name.toLowerCase()}`,
      });
    },
  );

  it('strange answers become messages, never exceptions', () => {
    const cases: [QueryAnswer, string][] = [
      [answer([col('t', 'datetime'), col('s', 'string')], [[iso(0), 'x']]), 'no numeric column to draw on the y axis'],
      [answer([col('t', 'datetime'), col('v', 'real')], []), 'no rows to draw'],
      [
        answer(
          [col('t', 'datetime'), col('v', 'real')],
          [
            [iso(0), null],
            [iso(1), 'NaN'],
          ],
        ),
        'every y value is empty',
      ],
      [answer([col('t', 'datetime'), col('v', 'real')], [[null, 1]]), 'no row has a valid t'],
      [{ data: null, meta: {} } as unknown as QueryAnswer, 'the answer has no table to draw'],
    ];
    for (const [data, text] of cases)
      expect(chartModel(data, hint('timechart'))).toMatchObject({ family: 'message', message: text });
    expect(() =>
      chartModel(
        answer([col('t', 'datetime'), col('v', 'real')], [null as unknown as unknown[], [iso(0), {}]]),
        hint('timechart'),
      ),
    ).not.toThrow();
  });

  it('maps 100k rows (10 series x 10k) in linear time, not quadratic', () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => [
      new Date(T0 + i * 1000).toISOString(),
      `d${i % 10}`,
      i % 97,
    ]);
    const started = performance.now();
    const model = xy(
      chartModel(answer([col('t', 'datetime'), col('d', 'string'), col('v', 'long')], rows), hint('timechart')),
    );
    const ms = performance.now() - started;
    expect(model.series).toHaveLength(10);
    expect(model.series.reduce((a, s) => a + s.points, 0)).toBe(100_000);
    // A guard against quadratic alignment (minutes at this size), not a benchmark: about 0.3 s on an
    // idle core, and these machines run at a load of 20.
    expect(ms).toBeLessThan(10_000);
  });
});
