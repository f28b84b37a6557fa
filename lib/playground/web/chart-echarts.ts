// Draws columnchart, barchart and piechart with ECharts (uPlot has no pie and no horizontal
// category bars). charts.ts loads this module with a dynamic import, so its 184 KiB gzip (bar, pie
// and the canvas renderer only; bench/playground-charts.bench.ts) is its own chunk, fetched only
// when an answer asks for one of these charts.
import { BarChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use, type EChartsCoreOption } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import type { Drawn, PieModel, Theme, XyModel } from './chart-model';
import { PALETTE, seriesColor, withAlpha } from './chart-palette';
import { formatUtc, formatUtcTick } from './chart-values';

use([BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** Bars beyond this many are drawn in ECharts' large mode (one path, no per-bar hover styles). */
const LARGE = 2000;

function xyOption(model: XyModel, theme: Theme): EChartsCoreOption {
  const { options, x } = model;
  const textStyle = { color: theme.text, fontFamily: theme.font };
  const span = x.axis === 'time' && x.values.length > 1 ? (x.values.at(-1) as number) - (x.values[0] as number) : 0;
  const categoryAxis = {
    type: x.axis === 'category' ? 'category' : x.axis === 'time' ? 'time' : 'value',
    name: options.xtitle ?? (x.axis === 'time' ? `${x.name} (UTC)` : x.name),
    nameLocation: 'middle',
    nameGap: 28,
    nameTextStyle: textStyle,
    axisLabel: {
      color: theme.text,
      hideOverlap: true,
      ...(x.axis === 'time' ? { formatter: (v: number) => formatUtcTick(v, span) } : {}),
    },
    axisLine: { lineStyle: { color: withAlpha(theme.text, 0.5) } },
    ...(x.axis === 'category' ? { data: x.values } : {}),
  };
  const valueAxis = {
    type: 'value',
    name: options.ytitle ?? '',
    nameTextStyle: textStyle,
    min: options.ymin ?? (options.stack === 'stacked100' ? 0 : undefined),
    max: options.ymax ?? (options.stack === 'stacked100' ? 100 : undefined),
    axisLabel: { color: theme.text },
    splitLine: { lineStyle: { color: withAlpha(theme.text, 0.12) } },
  };
  const horizontal = model.mark === 'bar';
  return {
    animation: false,
    textStyle,
    color: [...PALETTE],
    legend: { show: options.legend, type: 'scroll', bottom: 0, textStyle },
    tooltip: {
      trigger: 'axis',
      ...(x.axis === 'time'
        ? { axisPointer: { label: { formatter: (p: { value: number }) => formatUtc(p.value) } } }
        : {}),
    },
    grid: { left: 16, right: 24, top: 16, bottom: options.legend ? 56 : 32, containLabel: true },
    xAxis: horizontal ? valueAxis : categoryAxis,
    // Horizontal bars list categories top-down in the answer's order; the axis name sits above them.
    yAxis: horizontal
      ? { ...categoryAxis, nameLocation: x.axis === 'category' ? 'start' : 'end', inverse: x.axis === 'category' }
      : valueAxis,
    series: model.series.map((s, i) => ({
      type: 'bar',
      name: s.name,
      itemStyle: { color: seriesColor(i) },
      large: x.values.length > LARGE,
      ...(options.stack !== 'none' ? { stack: 'total' } : {}),
      // Category axes read values by position; time and value axes need [x, y] pairs.
      data:
        x.axis === 'category' ? s.values : s.values.map((v, j) => (horizontal ? [v, x.values[j]] : [x.values[j], v])),
    })),
  };
}

function pieOption(model: PieModel, theme: Theme): EChartsCoreOption {
  const textStyle = { color: theme.text, fontFamily: theme.font };
  return {
    animation: false,
    textStyle,
    color: [...PALETTE],
    legend: { show: model.options.legend, type: 'scroll', bottom: 0, textStyle },
    tooltip: { trigger: 'item' },
    series: [
      {
        type: 'pie',
        name: model.valueName,
        radius: '62%',
        center: ['50%', '46%'],
        label: { color: theme.text, formatter: '{b}: {d}%' },
        data: model.slices.map((s) => ({ name: s.name, value: s.value })),
      },
    ],
  };
}

/** Draws into el; `onDrawn` runs once ECharts has finished drawing (its `finished` event). */
export function drawEcharts(el: HTMLElement, model: XyModel | PieModel, theme: Theme, onDrawn: () => void): Drawn {
  const chart = init(el, null, { renderer: 'canvas' });
  chart.on('finished', onDrawn);
  chart.setOption(model.family === 'pie' ? pieOption(model, theme) : xyOption(model, theme));
  return {
    resize(width, height) {
      chart.resize({ width, height });
    },
    dispose() {
      chart.dispose();
    },
  };
}
