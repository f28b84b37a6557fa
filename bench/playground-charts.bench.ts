// Which chart library the playground draws with (issue 16): the time from data in to pixels on
// screen for 100k points (one series of 100k, and 10 series of 10k) with uPlot and with ECharts in
// headless Chromium, and what each costs the page (esbuild bundle, minified, gzip).
// Needs Debian's chromium at /usr/bin/chromium (CHROMIUM_PATH overrides); playwright-core drives it.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { percentile, type Benchmark, type BenchRow } from './harness';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// What each library costs the page: uPlot whole; ECharts whole and as the tree-shaken subset the
// playground would load (line, bar, pie, canvas renderer and the usual components).
const ENTRIES: Readonly<Record<string, string>> = {
  uplot: `import uPlot from 'uplot'; globalThis.u = uPlot;`,
  'echarts (full)': `import * as echarts from 'echarts'; globalThis.e = echarts;`,
  'echarts (line+bar+pie, canvas)': `
    import * as echarts from 'echarts/core';
    import { LineChart, BarChart, PieChart } from 'echarts/charts';
    import { GridComponent, TooltipComponent, LegendComponent, TitleComponent } from 'echarts/components';
    import { CanvasRenderer } from 'echarts/renderers';
    echarts.use([LineChart, BarChart, PieChart, GridComponent, TooltipComponent, LegendComponent, TitleComponent, CanvasRenderer]);
    globalThis.e = echarts;`,
  'echarts (bar+pie, canvas)': `
    import * as echarts from 'echarts/core';
    import { BarChart, PieChart } from 'echarts/charts';
    import { GridComponent, TooltipComponent, LegendComponent, TitleComponent } from 'echarts/components';
    import { CanvasRenderer } from 'echarts/renderers';
    echarts.use([BarChart, PieChart, GridComponent, TooltipComponent, LegendComponent, TitleComponent, CanvasRenderer]);
    globalThis.e = echarts;`,
};

// The page side: makes the data (not timed), then times chart creation until the library says it
// has drawn plus one animation frame (the frame that puts the canvas on screen). Plain JS because
// it runs in the browser; bundled with both libraries into one script.
const DRIVER = `
import uPlot from 'uplot';
import * as echarts from 'echarts';
const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
function data(seriesCount, points) {
  const t0 = Date.UTC(2026, 10, 1);
  const xs = new Float64Array(points);
  for (let i = 0; i < points; i++) xs[i] = t0 + i * 1000;
  const ys = [];
  for (let s = 0; s < seriesCount; s++) {
    const y = new Float64Array(points);
    for (let i = 0; i < points; i++) y[i] = 20 + s * 3 + Math.sin(i / 500 + s) * 5 + Math.random();
    ys.push(y);
  }
  return { xs, ys };
}
function fresh() {
  const old = document.getElementById('c');
  if (old) old.remove();
  const el = document.createElement('div');
  el.id = 'c';
  el.style.cssText = 'width:1200px;height:500px';
  document.body.append(el);
  return el;
}
async function drawUplot(seriesCount, points) {
  const { xs, ys } = data(seriesCount, points);
  const el = fresh();
  await frame();
  const started = performance.now();
  let drawn;
  const done = new Promise((r) => (drawn = r));
  const plot = new uPlot({
    width: 1200, height: 500, ms: 1,
    scales: { x: { time: true } },
    series: [{}, ...ys.map((_, i) => ({ label: 's' + i, stroke: 'hsl(' + i * 36 + ',70%,40%)' }))],
    hooks: { draw: [() => drawn()] },
  }, [Array.from(xs), ...ys.map((y) => Array.from(y))], el);
  await done;
  await frame();
  const ms = performance.now() - started;
  plot.destroy();
  return ms;
}
async function drawEcharts(seriesCount, points, sampling) {
  const { xs, ys } = data(seriesCount, points);
  const el = fresh();
  await frame();
  const started = performance.now();
  const chart = echarts.init(el, null, { renderer: 'canvas' });
  const done = new Promise((r) => chart.on('finished', () => r()));
  chart.setOption({
    animation: false,
    xAxis: { type: 'time' }, yAxis: { type: 'value', scale: true },
    series: ys.map((y, s) => ({
      type: 'line', name: 's' + s, showSymbol: false, ...(sampling ? { sampling } : {}),
      data: Array.from(xs, (x, i) => [x, y[i]]),
    })),
  });
  await done;
  await frame();
  const ms = performance.now() - started;
  chart.dispose();
  return ms;
}
globalThis.benchCase = (lib, seriesCount, points) =>
  lib === 'uplot' ? drawUplot(seriesCount, points)
  : lib === 'echarts' ? drawEcharts(seriesCount, points)
  : drawEcharts(seriesCount, points, 'lttb');
`;

async function bundleBytes(contents: string): Promise<{ min: number; gzip: number }> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { min: code.byteLength, gzip: gzipSync(code).byteLength };
}

/**
 * What the playground's own chart module costs: charts.ts (with uPlot) as the page loads it, and
 * the ECharts chunk it imports only for column, bar and pie charts.
 */
async function chartModuleBytes(): Promise<{ entry: number; lazy: number; lazyMin: number; entryMin: number }> {
  const result = await build({
    entryPoints: [path.join(root, 'lib/playground/web/charts.ts')],
    outdir: path.join(root, '.scratch/bench-chart-module'),
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const sizes = { entry: 0, lazy: 0, lazyMin: 0, entryMin: 0 };
  for (const file of result.outputFiles) {
    if (!file.path.endsWith('.js')) continue;
    const gzip = gzipSync(file.contents).byteLength;
    if (path.basename(file.path) === 'charts.js') {
      sizes.entry += gzip;
      sizes.entryMin += file.contents.byteLength;
    } else {
      sizes.lazy += gzip;
      sizes.lazyMin += file.contents.byteLength;
    }
  }
  return sizes;
}

const CASES = [
  { series: 1, points: 100_000, label: '1 series x 100k' },
  { series: 10, points: 10_000, label: '10 series x 10k' },
] as const;
const LIBS = [
  { id: 'uplot', label: 'uPlot' },
  { id: 'echarts', label: 'ECharts' },
  { id: 'echarts-lttb', label: 'ECharts sampling=lttb' },
] as const;

const bench: Benchmark = {
  name: 'playground-charts',
  async run(ctx) {
    if (!existsSync(executablePath)) throw new Error(`no chromium at ${executablePath} (apt-get install chromium)`);
    const rows: BenchRow[] = [];
    for (const [name, entry] of Object.entries(ENTRIES)) {
      const size = await bundleBytes(entry);
      rows.push({
        case: `bundle ${name}`,
        metric: 'KiB gzip',
        value: size.gzip / 1024,
        note: `${(size.min / 1024).toFixed(0)} KiB minified`,
      });
    }
    const own = await chartModuleBytes();
    rows.push(
      {
        case: 'bundle charts.ts (uPlot included)',
        metric: 'KiB gzip',
        value: own.entry / 1024,
        note: `${(own.entryMin / 1024).toFixed(0)} KiB minified; loaded with the page`,
      },
      {
        case: 'bundle charts.ts lazy ECharts chunk',
        metric: 'KiB gzip',
        value: own.lazy / 1024,
        note: `${(own.lazyMin / 1024).toFixed(0)} KiB minified; only for column/bar/pie`,
      },
    );
    const driver = await build({
      stdin: { contents: DRIVER, resolveDir: root, loader: 'js' },
      bundle: true,
      minify: true,
      format: 'iife',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const css = await readFile(path.join(root, 'node_modules/uplot/dist/uPlot.min.css'), 'utf8');
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.setContent('<!doctype html><html><body></body></html>');
      await page.addStyleTag({ content: css });
      await page.addScriptTag({ content: driver.outputFiles[0]?.text ?? '' });
      const runs = ctx.quick ? 2 : 7;
      const load = loadavg()[0] ?? 0;
      for (const c of CASES) {
        for (const lib of LIBS) {
          // One warm-up run first: the first draw also compiles the library's code.
          const times: number[] = [];
          for (let i = 0; i <= runs; i++) {
            const ms = await page.evaluate(
              ([l, s, p]) =>
                (globalThis as unknown as { benchCase: (...a: unknown[]) => Promise<number> }).benchCase(l, s, p),
              [lib.id, c.series, c.points] as const,
            );
            if (i > 0) times.push(ms);
          }
          ctx.progress(`${lib.label}, ${c.label}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
          rows.push({
            case: `${lib.label}, ${c.label}`,
            metric: 'median ms to drawn',
            value: percentile(times, 50),
            note: `${runs} runs, min ${Math.min(...times).toFixed(0)} max ${Math.max(...times).toFixed(0)}; load ${load.toFixed(1)}`,
          });
        }
      }
    } finally {
      await browser.close();
    }
    return rows;
  },
};

export default bench;
