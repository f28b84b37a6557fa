// What the page shows of an answer: the grid with its summary and truncation notice, the chart of
// its `render` hint (the chart module loads with the first one), and an error's positions as
// editor markers.
import type { ApiError } from './api';
import type { EditorMarker, QueryAnswer, RenderHint } from './contracts';
import { GRID_ROW_CAP, renderGrid } from './grid';

export interface ResultElements {
  readonly grid: HTMLElement;
  readonly summary: HTMLElement;
  readonly truncated: HTMLElement;
  readonly copyCsv: HTMLButtonElement;
  readonly copyJson: HTMLButtonElement;
}

/** The error's `data` positions (1-based line:col, offsets for the width) as editor markers. */
export function markersOf(error: ApiError): EditorMarker[] {
  return error.data
    .filter((d) => typeof d.line === 'number' && typeof d.column === 'number')
    .map((d) => {
      const width = typeof d.start === 'number' && typeof d.end === 'number' ? Math.max(1, d.end - d.start) : 1;
      return {
        line: d.line as number,
        column: d.column as number,
        endColumn: (d.column as number) + width,
        message: error.message,
      };
    });
}

export function showAnswer(ui: ResultElements, answer: QueryAnswer, ms: number): void {
  const rows = answer.data.rows.length;
  const drawn = renderGrid(ui.grid, answer);
  const capped = drawn < rows ? ` (the grid shows the first ${GRID_ROW_CAP})` : '';
  ui.summary.textContent = `${rows} row${rows === 1 ? '' : 's'} in ${ms} ms${capped}`;
  ui.truncated.hidden = !answer.meta.truncated;
  ui.truncated.textContent = answer.meta.truncated
    ? answer.meta.truncationReason === 'responseBytes'
      ? `Truncated: the answer reached the response size limit (${answer.meta.maxResponseBytes} bytes); narrow the query.`
      : `Truncated: only the first ${answer.meta.rowLimit} rows are returned; narrow the query or summarize.`
    : '';
  ui.copyCsv.disabled = false;
  ui.copyJson.disabled = false;
}

function isRenderHint(value: unknown): value is RenderHint {
  return typeof value === 'object' && value !== null && typeof (value as RenderHint).visualization === 'string';
}

/**
 * The chart panel. What was drawn is also written on the panel (data-chart-kind, and
 * data-chart-series: the series renderChart reported) for tools and the browser test.
 */
export class ChartPanel {
  private dispose: (() => void) | undefined;

  constructor(private readonly el: HTMLElement) {}

  /** Draws the answer's render hint; resolves with the visualization drawn, or undefined without one. */
  async show(answer: QueryAnswer): Promise<string | undefined> {
    this.dispose?.();
    this.dispose = undefined;
    const hint = answer.meta.render;
    if (!isRenderHint(hint)) {
      this.el.textContent = 'This query has no render operator: add e.g. "| render timechart" to draw it.';
      this.el.dataset.chartKind = '';
      this.el.dataset.chartSeries = '[]';
      return undefined;
    }
    const { renderChart } = await import('./charts');
    const drawn = renderChart(this.el, answer, {
      visualization: hint.visualization,
      properties: hint.properties ?? {},
    });
    this.dispose = () => drawn.dispose();
    this.el.dataset.chartKind = drawn.kind;
    this.el.dataset.chartSeries = JSON.stringify(drawn.series);
    return drawn.kind;
  }
}
