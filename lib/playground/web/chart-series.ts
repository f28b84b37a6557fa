// What a `render` hint draws from an answer, with Kusto's meaning of the columns: the x column, the
// series columns and the y columns of the render operator's data model
// (https://learn.microsoft.com/kusto/query/render-operator). Pure and DOM-free (tested in node);
// a strange answer becomes a `message` model, never an exception.
import type { AnswerColumn, QueryAnswer } from './answer-shape';
import { accumulate, alignCategories, alignNumeric, percentOfTotal, type RawSeries } from './chart-align';
import { chartOptions } from './chart-options';
import {
  message,
  named,
  type AxisKind,
  type ChartModel,
  type Mark,
  type MessageModel,
  type XyModel,
} from './chart-model';
import { pieModel } from './chart-pie';
import { isDatetime, isLabel, isNumeric, toLabel, toNumber, toTime } from './chart-values';

export type { ChartModel } from './chart-model';

/** The visualizations drawn with axes, and how (https://learn.microsoft.com/kusto/query/render-operator#visualization). */
export const XY_MARKS: Readonly<Record<string, Mark>> = {
  timechart: 'line',
  linechart: 'line',
  areachart: 'area',
  columnchart: 'column',
  barchart: 'bar',
  scatterchart: 'scatter',
};
/** More series than a legend or a reader can follow: the first ones are drawn, the rest named in a note. */
export const MAX_SERIES = 100;
/** Bars beyond this are slower to draw than they are useful to read. */
export const MAX_CATEGORIES = 5000;

/**
 * The render hint as this module reads it: contracts.ts's RenderHint, restated here because
 * contracts.ts names DOM types and this module is type-checked and tested without them.
 */
export interface ChartHint {
  readonly visualization: string;
  readonly properties: Readonly<Record<string, string>>;
}

/** The model of what `hint` draws from `answer`. */
export function chartModel(answer: QueryAnswer, hint: ChartHint): ChartModel {
  const visualization = String(hint?.visualization ?? '').toLowerCase();
  if (visualization === 'table') return { family: 'table', visualization: 'table' };
  const columns = answer?.data?.columns;
  const rows = answer?.data?.rows;
  if (!Array.isArray(columns) || !Array.isArray(rows)) return message(visualization, 'the answer has no table to draw');
  if (visualization === 'piechart') return pieModel(columns, rows, hint?.properties ?? {});
  if (!Object.hasOwn(XY_MARKS, visualization))
    return message(visualization, `not supported: ${visualization || '(none)'}`);
  if (rows.length === 0) return message(visualization, 'no rows to draw');
  return xyModel(visualization, columns, rows, hint?.properties ?? {});
}

function xColumn(
  visualization: string,
  columns: readonly AnswerColumn[],
  wanted: string | undefined,
  yNames: readonly string[],
): AnswerColumn | string {
  if (wanted) return named(columns, wanted);
  // timechart: "The first column of the query is the x-axis, and should be a datetime"
  // (https://learn.microsoft.com/kusto/query/visualization-timechart).
  if (visualization === 'timechart')
    return columns.find(isDatetime) ?? 'timechart needs a datetime column for its x axis';
  // column/bar: "the first column is used as the x-axis ... text, datetime, or numeric"
  // (https://learn.microsoft.com/kusto/query/visualization-columnchart).
  if (visualization === 'columnchart' || visualization === 'barchart') return columns[0] ?? 'the answer has no columns';
  // line/area/scatter: "The first column of the query should be numeric and is used as the x-axis"
  // (visualization-linechart, -areachart): the first datetime or numeric column that leaves a numeric
  // column for y; otherwise (`summarize count() by State`) the first column, as categories.
  const leavesY = (c: AnswerColumn): boolean =>
    yNames.length > 0 ? !yNames.includes(c.name) : columns.some((other) => other !== c && isNumeric(other));
  return (
    columns.find((c) => (isDatetime(c) || isNumeric(c)) && leavesY(c)) ?? columns[0] ?? 'the answer has no columns'
  );
}

function xyModel(
  visualization: string,
  columns: readonly AnswerColumn[],
  rows: readonly unknown[][],
  properties: Readonly<Record<string, string>>,
): XyModel | MessageModel {
  const { options, notes } = chartOptions(visualization, properties);
  const x = xColumn(visualization, columns, options.xcolumn, options.ycolumns);
  if (typeof x === 'string') return message(visualization, x);
  if (visualization === 'timechart' && !isDatetime(x))
    return message(visualization, `timechart needs a datetime x axis; '${x.name}' is ${x.columnType}`);

  // series: "the combined values of these columns define a single series"; without it, "One string
  // column values are used to group the numeric columns ... Other string columns are ignored" (timechart page).
  let seriesColumns: AnswerColumn[];
  if (options.series.length > 0) {
    const found = options.series.map((name) => named(columns, name));
    const missing = found.find((c) => typeof c === 'string');
    if (missing !== undefined) return message(visualization, `series: ${missing}`);
    seriesColumns = found as AnswerColumn[];
  } else {
    const labels = columns.filter((c) => c !== x && isLabel(c) && c.columnType !== 'dynamic');
    seriesColumns = labels.slice(0, 1);
    if (labels.length > 1)
      notes.push(
        `columns ignored: ${labels
          .slice(1)
          .map((c) => c.name)
          .join(', ')}`,
      );
  }
  // ycolumns: "the series has as many measurements as there are y-axis columns"; by default every
  // other numeric column (timechart page: "Other numeric columns are y-axes").
  let yColumns: AnswerColumn[];
  if (options.ycolumns.length > 0) {
    const found = options.ycolumns.map((name) => named(columns, name));
    const missing = found.find((c) => typeof c === 'string');
    if (missing !== undefined) return message(visualization, `ycolumns: ${missing}`);
    yColumns = found as AnswerColumn[];
  } else {
    yColumns = columns.filter((c) => c !== x && !seriesColumns.includes(c) && isNumeric(c));
  }
  if (yColumns.length === 0) return message(visualization, 'no numeric column to draw on the y axis');

  const axis: AxisKind = isDatetime(x) ? 'time' : isNumeric(x) ? 'number' : 'category';
  const xIndex = columns.indexOf(x);
  const yIndexes = yColumns.map((c) => columns.indexOf(c));
  const seriesIndexes = seriesColumns.map((c) => columns.indexOf(c));
  const readX = axis === 'time' ? toTime : axis === 'number' ? toNumber : toLabel;
  const groups = new Map<string, { xs: (number | string)[]; ys: (number | null)[] }>();
  let skippedX = 0;
  let droppedSeries = 0;
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    const xv = readX(row[xIndex]);
    if (xv === null) {
      skippedX += 1;
      continue;
    }
    const key = seriesIndexes.map((i) => toLabel(row[i])).join(', ');
    yIndexes.forEach((yi, n) => {
      const name =
        key === ''
          ? (yColumns[n] as AnswerColumn).name
          : yIndexes.length === 1
            ? key
            : `${key}:${(yColumns[n] as AnswerColumn).name}`;
      let group = groups.get(name);
      if (!group) {
        if (groups.size >= MAX_SERIES) {
          droppedSeries += 1;
          return;
        }
        group = { xs: [], ys: [] };
        groups.set(name, group);
      }
      group.xs.push(xv);
      group.ys.push(toNumber(row[yi]));
    });
  }
  if (skippedX > 0) notes.push(`${skippedX} rows without a valid ${x.name} were skipped`);
  if (droppedSeries > 0) notes.push(`only the first ${MAX_SERIES} series are drawn`);
  if (groups.size === 0) return message(visualization, `no row has a valid ${x.name}`);

  const raw = [...groups].map(([name, g]) => ({ name, xs: g.xs, ys: g.ys }));
  const aligned =
    axis === 'category' ? alignCategories(raw as RawSeries<string>[]) : alignNumeric(raw as RawSeries<number>[]);
  if (aligned.replaced > 0) notes.push(`${aligned.replaced} repeated ${x.name} values: the last one of each is drawn`);
  let xValues: readonly (number | string)[] = aligned.x;
  let values = aligned.values;
  if (values.every((column) => column.every((v) => v === null)))
    return message(visualization, 'every y value is empty');
  if ((XY_MARKS[visualization] === 'column' || XY_MARKS[visualization] === 'bar') && xValues.length > MAX_CATEGORIES) {
    notes.push(`${xValues.length} bars: the first ${MAX_CATEGORIES} are drawn`);
    xValues = xValues.slice(0, MAX_CATEGORIES);
    values = values.map((column) => column.slice(0, MAX_CATEGORIES));
  }
  if (options.accumulate) values = accumulate(values);
  if (options.stack === 'stacked100') values = percentOfTotal(values);

  return {
    family: 'xy',
    visualization,
    mark: XY_MARKS[visualization] as Mark,
    x: { name: x.name, axis, values: xValues },
    series: raw.map((s, i) => {
      const column = values[i] ?? [];
      return { name: s.name, values: column, points: column.filter((v) => v !== null).length };
    }),
    options,
    notes,
  };
}
