// The chart models: what a render hint draws from an answer, before any library draws it.
// chart-series.ts and chart-pie.ts build them; the renderers only read them. Pure, DOM-free.
import type { AnswerColumn } from './answer-shape';
import type { ChartOptions } from './chart-options';

export type Mark = 'line' | 'area' | 'column' | 'bar' | 'scatter';
export type AxisKind = 'time' | 'number' | 'category';

export interface XySeries {
  readonly name: string;
  /** One value per x slot; null where the series has no point. */
  readonly values: readonly (number | null)[];
  /** Values that are drawn (not null). */
  readonly points: number;
}
export interface XyModel {
  readonly family: 'xy';
  readonly visualization: string;
  readonly mark: Mark;
  /** x values: milliseconds (time), numbers, or category labels; ascending unless categories. */
  readonly x: { readonly name: string; readonly axis: AxisKind; readonly values: readonly (number | string)[] };
  readonly series: readonly XySeries[];
  readonly options: ChartOptions;
  /** What the chart left out or ignored, for a line under it. */
  readonly notes: readonly string[];
}
export interface PieModel {
  readonly family: 'pie';
  readonly visualization: 'piechart';
  readonly valueName: string;
  readonly slices: readonly { readonly name: string; readonly value: number }[];
  readonly options: ChartOptions;
  readonly notes: readonly string[];
}
export interface TableModel {
  readonly family: 'table';
  readonly visualization: 'table';
}
export interface MessageModel {
  readonly family: 'message';
  readonly visualization: string;
  readonly message: string;
}
export type ChartModel = XyModel | PieModel | TableModel | MessageModel;

/** A drawn chart as charts.ts drives it, whichever library drew it. */
export interface Drawn {
  /** Fits the chart into width x height CSS pixels (legend included). */
  resize(width: number, height: number): void;
  dispose(): void;
}
/** Colours of the page around the chart (from getComputedStyle), so that axes follow the theme. */
export interface Theme {
  readonly text: string;
  readonly font: string;
}

export const message = (visualization: string, text: string): MessageModel => ({
  family: 'message',
  visualization,
  message: text,
});

/** Finds a named column (names are case-sensitive in Kusto), or says that it is missing. */
export function named(columns: readonly AnswerColumn[], name: string): AnswerColumn | string {
  return columns.find((c) => c.name === name) ?? `'${name}' is not a column of the answer`;
}

/** The series a model draws, with their point counts (DrawnChart.series). */
export function drawnSeries(model: ChartModel): { name: string; points: number }[] {
  if (model.family === 'xy') return model.series.map((s) => ({ name: s.name, points: s.points }));
  if (model.family === 'pie') return [{ name: model.valueName, points: model.slices.length }];
  return [];
}
