// piechart: "the first column is used as the color axis ... Other columns will be used to determine
// the size of each slice and contain numeric data types"
// (https://learn.microsoft.com/kusto/query/visualization-piechart). Pure and DOM-free.
import type { AnswerColumn } from './answer-shape';
import { message, named, type MessageModel, type PieModel } from './chart-model';
import { chartOptions } from './chart-options';
import { isNumeric, toLabel, toNumber } from './chart-values';

/** A pie of more slices than this is unreadable: the smallest are summed into one "(other)" slice. */
export const MAX_SLICES = 50;

export function pieModel(
  columns: readonly AnswerColumn[],
  rows: readonly unknown[][],
  properties: Readonly<Record<string, string>>,
): PieModel | MessageModel {
  const { options, notes } = chartOptions('piechart', properties);
  const label = options.xcolumn ? named(columns, options.xcolumn) : (columns[0] ?? 'the answer has no columns');
  if (typeof label === 'string') return message('piechart', label);
  const value = options.ycolumns[0]
    ? named(columns, options.ycolumns[0])
    : (columns.find((c) => c !== label && isNumeric(c)) ?? 'a pie chart needs a numeric column for the slice sizes');
  if (typeof value === 'string') return message('piechart', value);
  if (options.ycolumns.length > 1) notes.push(`only ${value.name} sizes the slices`);
  if (options.series.length > 0) notes.push('series is ignored: the first column names the slices');

  const li = columns.indexOf(label);
  const vi = columns.indexOf(value);
  // Rows with the same label are one slice: a pie shows parts of one total.
  const sums = new Map<string, number>();
  let dropped = 0;
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    const v = toNumber(row[vi]);
    if (v === null || v <= 0) {
      dropped += 1;
      continue;
    }
    const name = toLabel(row[li]);
    sums.set(name, (sums.get(name) ?? 0) + v);
  }
  if (dropped > 0) notes.push(`${dropped} rows without a positive ${value.name} are not in the pie`);
  let slices = [...sums].map(([name, size]) => ({ name, value: size }));
  if (slices.length === 0) return message('piechart', `no row has a positive ${value.name}`);
  if (slices.length > MAX_SLICES) {
    const kept = new Set([...slices].sort((a, b) => b.value - a.value).slice(0, MAX_SLICES - 1));
    const rest = slices.filter((s) => !kept.has(s));
    notes.push(`${rest.length} smallest slices are summed as (other)`);
    slices = [...slices.filter((s) => kept.has(s)), { name: '(other)', value: rest.reduce((a, s) => a + s.value, 0) }];
  }
  return { family: 'pie', visualization: 'piechart', valueName: value.name, slices, options, notes };
}
