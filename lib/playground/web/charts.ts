// The playground's chart drawer (contracts.ts RenderChart): maps the answer with chart-series.ts,
// draws line-like charts with uPlot at once and column/bar/pie charts with ECharts once its chunk
// has loaded. The container's <figure> carries data-chart-kind, data-series (JSON of the series
// names) and data-chart-state ("drawn", "loading", "message", "table") for the page and its tests.
// Never throws: whatever goes wrong becomes a message in the container.
import type { DrawnChart, RenderChart } from './contracts';
import { drawnSeries, message, type ChartModel, type Drawn, type Theme } from './chart-model';
import { chartModel } from './chart-series';
import { drawUplot } from './chart-uplot';

/** Height when the container does not set one (CSS pixels, legend included). */
const DEFAULT_HEIGHT = 360;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function safeModel(...args: Parameters<typeof chartModel>): ChartModel {
  try {
    return chartModel(...args);
  } catch (error) {
    return message(String(args[1]?.visualization ?? ''), `could not draw this answer: ${errorText(error)}`);
  }
}

/** The chart drawn in each container, so that drawing again frees the previous one. */
const current = new WeakMap<HTMLElement, DrawnChart>();

/**
 * Whether the container's height comes from its CSS rather than from its content: a tall child
 * does not change it. Only such a container is filled; measuring an auto-height one would feed the
 * chart's own height back into the next resize.
 */
function hasOwnHeight(el: HTMLElement, child: HTMLElement): boolean {
  const before = el.clientHeight;
  child.style.height = '4000px';
  const after = el.clientHeight;
  child.style.height = '';
  return before > 0 && before === after;
}

export const renderChart: RenderChart = (el, answer, hint) => {
  current.get(el)?.dispose();
  const drawnChart = draw(el, answer, hint);
  current.set(el, drawnChart);
  return drawnChart;
};

const draw: RenderChart = (el, answer, hint) => {
  const model = safeModel(answer, hint);
  const series = drawnSeries(model);
  const figure = document.createElement('figure');
  figure.className = 'kql-chart';
  figure.style.margin = '0';
  figure.dataset.chartKind = model.visualization;
  figure.dataset.series = JSON.stringify(series.map((s) => s.name));
  el.replaceChildren(figure);
  // A container whose CSS gives it a height is filled; otherwise the chart takes DEFAULT_HEIGHT.
  const fixedHeight = hasOwnHeight(el, figure);

  const say = (text: string): void => {
    const note = document.createElement('p');
    note.className = 'kql-chart-message';
    note.setAttribute('role', 'status');
    note.textContent = text;
    figure.replaceChildren(note);
    figure.dataset.chartState = 'message';
  };
  const result = (dispose: () => void): DrawnChart => ({ kind: model.visualization, series, dispose });

  if (model.family === 'table') {
    figure.dataset.chartState = 'table';
    return result(() => figure.remove());
  }
  if (model.family === 'message') {
    say(model.message);
    return result(() => figure.remove());
  }

  if (model.options.title) {
    const title = document.createElement('figcaption');
    title.className = 'kql-chart-title';
    title.textContent = model.options.title;
    title.style.cssText = 'font-weight:600;margin:0 0 4px';
    figure.append(title);
  }
  const plot = document.createElement('div');
  plot.className = 'kql-chart-plot';
  plot.setAttribute('role', 'img');
  plot.setAttribute(
    'aria-label',
    `${model.visualization}${model.options.title ? `: ${model.options.title}` : ''}; series: ${series.map((s) => s.name).join(', ')}`,
  );
  figure.append(plot);
  if (model.notes.length > 0) {
    const notes = document.createElement('p');
    notes.className = 'kql-chart-notes';
    notes.style.cssText = 'font-size:0.85em;margin:4px 0 0;opacity:0.85';
    notes.textContent = model.notes.join('; ');
    figure.append(notes);
  }
  const style = getComputedStyle(el);
  const theme: Theme = { text: style.color || 'rgb(33, 37, 41)', font: style.fontFamily || 'sans-serif' };
  const size = (): [number, number] => {
    const chrome = figure.offsetHeight - plot.offsetHeight;
    const height = fixedHeight ? el.clientHeight - chrome : DEFAULT_HEIGHT;
    return [Math.max(120, figure.clientWidth || el.clientWidth), Math.max(160, height)];
  };
  const [width, height] = size();
  plot.style.height = `${height}px`;

  let drawn: Drawn | undefined;
  let disposed = false;
  let frame = 0;
  const observer = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      if (!drawn || disposed) return;
      const [w, h] = size();
      plot.style.height = `${h}px`;
      drawn.resize(w, h);
    });
  });
  const fail = (error: unknown): void => {
    drawn?.dispose();
    drawn = undefined;
    say(`could not draw the ${model.visualization}: ${errorText(error)}`);
  };

  if (model.family === 'xy' && (model.mark === 'line' || model.mark === 'area' || model.mark === 'scatter')) {
    try {
      drawn = drawUplot(plot, model, theme, width, height);
      drawn.resize(width, height);
      figure.dataset.chartState = 'drawn';
    } catch (error) {
      fail(error);
    }
  } else {
    figure.dataset.chartState = 'loading';
    const chartModelToDraw = model;
    import('./chart-echarts')
      .then(({ drawEcharts }) => {
        if (disposed) return;
        drawn = drawEcharts(plot, chartModelToDraw, theme, () => {
          if (!disposed) figure.dataset.chartState = 'drawn';
        });
      })
      .catch(fail);
  }
  observer.observe(el);
  return result(() => {
    disposed = true;
    observer.disconnect();
    cancelAnimationFrame(frame);
    drawn?.dispose();
    figure.remove();
  });
};
