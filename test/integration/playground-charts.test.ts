// The playground's chart module in a real browser: a tiny page that imports charts.ts is bundled
// with esbuild (as the playground's build does: ESM, split chunks, the CSS), served by node:http and
// opened in Debian's Chromium through playwright-core. Each render kind is drawn from a realistic
// answer; the test checks the series the module reports, the figure's data attributes, and that the
// first series' colour is really on a canvas. Screenshots go to .scratch/screenshots/playground-charts/.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerColumn, QueryAnswer } from '../../lib/playground/web/answer-shape';
import { PALETTE } from '../../lib/playground/web/chart-palette';

const root = path.resolve(import.meta.dirname, '../..');
const shots = path.join(root, '.scratch/screenshots/playground-charts');
const executablePath = '/usr/bin/chromium';

// Runs in the page (plain JS: the test's own type check has no DOM types).
const HARNESS = `
import { renderChart } from ${JSON.stringify(path.join(root, 'lib/playground/web/charts.ts'))};
const el = document.getElementById('chart');
let last;
const figure = () => el.querySelector('figure');
globalThis.harness = {
  draw(answer, hint) {
    last?.dispose();
    const started = performance.now();
    last = renderChart(el, answer, hint);
    return { kind: last.kind, series: last.series, ms: performance.now() - started };
  },
  state: () => figure()?.dataset.chartState ?? null,
  attrs: () => (figure() ? { kind: figure().dataset.chartKind, series: JSON.parse(figure().dataset.series) } : null),
  text: () => el.textContent,
  canvases: () => el.querySelectorAll('canvas').length,
  canvasWidth: () => Math.max(0, ...[...el.querySelectorAll('canvas')].map((c) => c.getBoundingClientRect().width)),
  setWidth: (px) => { el.style.width = px + 'px'; },
  setHeight: (css) => { el.style.height = css; },
  setColours: (color, background) => { el.style.color = color; el.style.background = background; },
  height: () => el.getBoundingClientRect().height,
  frames: () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))),
  dispose: () => { last?.dispose(); last = undefined; },
  // Pixels, over every canvas of the chart, within a small distance of the colour #rrggbb.
  coloured(hex) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    let n = 0;
    for (const canvas of el.querySelectorAll('canvas')) {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] > 0 && Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 48) n++;
      }
    }
    return n;
  },
};
`;
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" href="harness.css"></head>
<body style="font-family:sans-serif;color:#212529;background:#fff"><div id="chart" style="width:900px;height:420px"></div>
<script type="module" src="harness.js"></script></body></html>`;

interface Drawn {
  kind: string;
  series: { name: string; points: number }[];
  ms: number;
}
/** Calls a harness method in the page (a string expression: the test's functions are not the page's). */
const call = <T>(method: string, ...args: unknown[]): Promise<T> =>
  page.evaluate(`harness.${method}(...${JSON.stringify(args)})`) as Promise<T>;

let dir: string;
let server: Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(executablePath)) {
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit' });
  }
  dir = await mkdtemp(path.join(tmpdir(), 'playground-charts-'));
  await writeFile(path.join(dir, 'harness.js'), HARNESS);
  await build({
    entryPoints: [path.join(dir, 'harness.js')],
    outdir: path.join(dir, 'out'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
    nodePaths: [path.join(root, 'node_modules')],
  });
  await writeFile(path.join(dir, 'out/index.html'), PAGE);
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  server = createServer((req, res) => {
    const file = path.join(
      dir,
      'out',
      path.normalize(new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/$/, '/index.html')),
    );
    readFile(file).then(
      (body) =>
        res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await mkdir(shots, { recursive: true });
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForFunction('"harness" in globalThis');
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

const col = (name: string, columnType: string): AnswerColumn => ({ name, columnType, dataType: columnType });
const answer = (columns: AnswerColumn[], rows: unknown[][]): QueryAnswer => ({
  data: { columns, rows },
  meta: { truncated: false, rowLimit: 100_000, maxResponseBytes: 50_000_000 },
});
const T0 = Date.UTC(2026, 10, 25, 8, 0);
const minute = (i: number): string => new Date(T0 + i * 60_000).toISOString();

// `States | summarize avg(value) by bin(timestamp, 1m), name | render timechart`
const byMinute = answer(
  [col('timestamp', 'datetime'), col('name', 'string'), col('avg_value', 'real')],
  Array.from({ length: 60 }, (_, i) => [
    [minute(i), 'temperature', 21 + Math.sin(i / 6)],
    [minute(i), 'pressure', 18 + Math.cos(i / 9)],
    [minute(i), 'humidity', 15 + (i % 7) / 3],
  ]).flat(),
);
// `States | summarize n = count() by State`
const byState = answer(
  [col('State', 'string'), col('n', 'long')],
  [
    ['running', 412],
    ['idle', 133],
    ['fault', 27],
    ['maintenance', 54],
  ],
);

async function draw(
  visualization: string,
  data: QueryAnswer,
  properties: Record<string, string> = {},
  shot = visualization,
): Promise<Drawn> {
  const drawn = await call<Drawn>('draw', data, { visualization, properties });
  await page.waitForFunction('harness.state() !== "loading"', undefined, { timeout: 30_000 });
  await page.locator('#chart').screenshot({ path: path.join(shots, `${shot}.png`) });
  return drawn;
}
describe('playground charts in Chromium', () => {
  // `States | summarize n = count() by bin(timestamp, 1h), name | render columnchart`: bars on a time axis.
  const hourly = answer(
    [col('timestamp', 'datetime'), col('name', 'string'), col('n', 'long')],
    Array.from({ length: 12 }, (_, h) => [
      [new Date(T0 + h * 3_600_000).toISOString(), 'temperature', 50 + h],
      [new Date(T0 + h * 3_600_000).toISOString(), 'pressure', 30 + ((h * 7) % 11)],
    ]).flat(),
  );
  const cases: [string, QueryAnswer, Record<string, string>, { name: string; points: number }[], string?][] = [
    ['linechart', byState, { xtitle: 'state' }, [{ name: 'n', points: 4 }], 'linechart-categories'],
    [
      'columnchart',
      hourly,
      { kind: 'stacked' },
      ['temperature', 'pressure'].map((name) => ({ name, points: 12 })),
      'columnchart-time-stacked',
    ],
    [
      'timechart',
      byMinute,
      { title: 'Plant p1, last hour', ytitle: 'avg' },
      ['temperature', 'pressure', 'humidity'].map((name) => ({ name, points: 60 })),
    ],
    [
      'linechart',
      answer(
        [col('x', 'long'), col('y', 'real')],
        Array.from({ length: 50 }, (_, i) => [i, i * i]),
      ),
      {},
      [{ name: 'y', points: 50 }],
    ],
    [
      'areachart',
      byMinute,
      { kind: 'stacked' },
      ['temperature', 'pressure', 'humidity'].map((name) => ({ name, points: 60 })),
    ],
    [
      'scatterchart',
      answer(
        [col('temp', 'real'), col('power', 'real')],
        Array.from({ length: 200 }, (_, i) => [15 + (i % 20), 100 + ((i * 37) % 91)]),
      ),
      {},
      [{ name: 'power', points: 200 }],
    ],
    ['columnchart', byState, {}, [{ name: 'n', points: 4 }]],
    ['barchart', byState, { legend: 'hidden' }, [{ name: 'n', points: 4 }]],
    ['piechart', byState, { title: 'States' }, [{ name: 'n', points: 4 }]],
  ];

  it.each(cases)(
    '%s: reports its series and paints the first series colour on a canvas',
    async (kind, data, properties, series, shot) => {
      const drawn = await draw(kind, data, properties, shot);
      expect(drawn.kind).toBe(kind);
      expect(drawn.series).toEqual(series);
      expect(await call('state')).toBe('drawn');
      expect(await call('attrs')).toEqual({ kind, series: series.map((s) => s.name) });
      expect(await call<number>('coloured', PALETTE[0])).toBeGreaterThan(50);
    },
  );

  it('table draws nothing and reports no series (the grid shows the rows)', async () => {
    const drawn = await draw('table', byState);
    expect([drawn.kind, drawn.series]).toEqual(['table', []]);
    expect([await call('state'), await call('canvases')]).toEqual(['table', 0]);
  });

  it.each(['card', 'anomalychart', 'treemap', '3Dchart'])(
    '%s says it is not supported and draws nothing',
    async (kind) => {
      const drawn = await draw(kind, byMinute);
      expect(drawn.series).toEqual([]);
      expect([await call('state'), await call('canvases'), await call('text')]).toEqual([
        'message',
        0,
        `not supported: ${kind.toLowerCase()}`,
      ]);
    },
  );

  it('a timechart without a numeric column says why instead of drawing', async () => {
    await draw(
      'timechart',
      answer([col('timestamp', 'datetime'), col('name', 'string')], [[minute(0), 'a']]),
      {},
      'timechart-no-numeric',
    );
    expect(await call('text')).toBe('no numeric column to draw on the y axis');
  });

  it('draws 100k points (10 series x 10k) and reports them all', async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => [
      new Date(T0 + Math.floor(i / 10) * 1000).toISOString(),
      `device-${i % 10}`,
      (i % 500) / 10,
    ]);
    const drawn = await draw(
      'timechart',
      answer([col('timestamp', 'datetime'), col('device', 'string'), col('value', 'real')], rows),
      {},
      'timechart-100k',
    );
    expect(drawn.series).toHaveLength(10);
    expect(drawn.series.every((s) => s.points === 10_000)).toBe(true);
    expect(drawn.ms).toBeLessThan(10_000);
    console.log(`100k points: renderChart returned in ${drawn.ms.toFixed(0)} ms (mapping + uPlot draw)`);
  });

  it('follows its container when it is resized, and dispose() removes the chart', async () => {
    await draw('timechart', byMinute, {}, 'timechart-before-resize');
    const before = await call<number>('canvasWidth');
    await call('setWidth', 500);
    await page.waitForFunction(`harness.canvasWidth() < ${before - 100}`, undefined, { timeout: 10_000 });
    expect(await call('canvasWidth')).toBeLessThanOrEqual(500);
    await call('dispose');
    expect([await call('canvases'), await call('attrs')]).toEqual([0, null]);
    await call('setWidth', 900);
  });

  it('on a dark page the axes take the page text colour', async () => {
    // A text colour nothing else on the chart uses (a light amber).
    await call('setColours', 'rgb(255, 214, 102)', 'rgb(30, 30, 30)');
    await draw('timechart', byMinute, { ytitle: 'avg' }, 'timechart-dark');
    expect(await call<number>('coloured', '#ffd666')).toBeGreaterThan(100);
    await call('setColours', '', '');
    await draw('timechart', byMinute, { ytitle: 'avg' }, 'timechart-light');
    expect(await call<number>('coloured', '#ffd666')).toBe(0);
  });

  it('drawing again into the same container frees the previous chart', async () => {
    await draw('timechart', byMinute, {}, 'timechart-again');
    const once = await call<number>('canvases');
    await draw('timechart', byMinute, {}, 'timechart-again');
    expect(await call('canvases')).toBe(once);
  });

  it('in a container without a height the chart takes its default height and keeps it across resizes', async () => {
    await call('setHeight', 'auto');
    await draw('timechart', byMinute, {}, 'timechart-auto-height');
    const height = await call<number>('height');
    await call('setWidth', 700);
    await call('frames');
    await call('frames');
    expect(await call('height')).toBe(height);
    expect(height).toBeGreaterThan(300);
    expect(height).toBeLessThan(500);
    await call('setHeight', '420px');
    await call('setWidth', 900);
  });
});
