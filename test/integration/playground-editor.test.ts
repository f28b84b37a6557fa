// The playground's editor in a real browser (Debian's chromium, headless): built by
// infra/playground/build.mjs around a harness page (playground-editor/harness.js) that loads it
// lazily as the page does, served by a tiny HTTP server. Screenshots go to the git-ignored
// .scratch/screenshots/playground-editor/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlayground } from '../../infra/playground/build.mjs';
import { launchChromium, serveFolder, type StaticServer } from '../support/browser';
import {
  editorRun,
  editorText,
  focusedId,
  hoverText,
  pointAt,
  resetEditor,
  restMouseAt,
  runs,
  shownHovers,
  squiggles,
  type HarnessWindow,
} from './playground-editor/page';

const root = path.resolve(import.meta.dirname, '../..');
const shots = path.join(root, '.scratch/screenshots/playground-editor');
const INDEX = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>editor harness</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="app.css"></head>
<body><button id="before">before</button><div id="editor" style="width:900px;height:300px"></div>
<button id="after">after</button><p id="help"></p><script type="module" src="app.js"></script></body></html>`;

let out: string;
let server: StaticServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];
let readyMs = 0;

async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
  const opened = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme });
  opened.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  opened.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const started = Date.now();
  await opened.goto(server.url);
  await opened.waitForFunction(() => 'harness' in globalThis, null, { timeout: 90_000 });
  readyMs = Date.now() - started;
  return opened;
}

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'playground-editor-'));
  mkdirSync(shots, { recursive: true });
  await buildPlayground({ outdir: out, pageEntry: path.join(import.meta.dirname, 'playground-editor/harness.js') });
  server = await serveFolder(out, INDEX);
  browser = await launchChromium();
  page = await open('light');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('playground editor in chromium', () => {
  it('loads lazily, with its workers, without console errors, and is labelled', async () => {
    expect(problems).toEqual([]);
    console.info(`editor ready ${readyMs} ms after navigation (kusto worker and schema included)`);
    const textbox = page.getByRole('textbox', { name: 'KQL query' });
    expect(await textbox.count()).toBe(1);
    // app.js itself is tiny; Monaco came from chunks, the language service from the worker's scripts.
    expect(server.requested).toContain('/kusto.worker.js');
    expect(server.requested.some((p) => p.startsWith('/chunks/Kusto.Language.Bridge.min-'))).toBe(true);
    expect(await editorText(page)).toBe('States | take 10');
  });

  it('completes the columns of States after `States | where `, and marks unsupported functions', async () => {
    await resetEditor(page, '');
    await page.keyboard.type('States | where ');
    await page.waitForSelector('.suggest-widget.visible .monaco-list-row', { timeout: 30_000 });
    const rows = async (): Promise<string[]> =>
      page.$$eval('.suggest-widget.visible .monaco-list-row', (r) => r.map((e) => e.getAttribute('aria-label') ?? ''));
    expect((await rows()).slice(0, 4)).toEqual(['NameId', 'PlantId', 'Timestamp', 'Value']);
    await page.screenshot({ path: path.join(shots, 'completion-columns.png') });
    await page.keyboard.press('Escape');

    // A row's text holds its label and its detail ("not supported by this service: ...").
    const rowText = (prefix: string) => async (): Promise<string | undefined> =>
      (await page.$$eval('.suggest-widget.visible .monaco-list-row', (r) => r.map((e) => e.textContent ?? ''))).find(
        (t) => t.startsWith(prefix),
      );
    await resetEditor(
      page,
      'States\n| summarize c = count(), d = dcount(NameId) by bin(Timestamp, 1h)\n| summarize e = ',
    );
    // Completion shows while typing a word (no Ctrl+Space): Monaco needs the token types for that.
    await page.keyboard.type('dcoun');
    await expect.poll(rowText('dcount('), { timeout: 30_000 }).toMatch(/^dcount\(.*\)not supported by this service/);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Backspace');
    await page.keyboard.type('coun');
    await expect.poll(rowText('count()'), { timeout: 30_000 }).toBeDefined();
    expect(await rowText('count()')()).not.toContain('not supported');
    await page.screenshot({ path: path.join(shots, 'completion-unsupported.png') });
    await page.keyboard.press('Escape');
    // The language service resolves the functions of the summarize: count and bin are supported.
    await expect
      .poll(() => squiggles(page, 'squiggly-warning'), { timeout: 30_000 })
      .toEqual([{ line: 2, column: 30, text: 'dcount' }]);
    expect(await hoverText(page, 'squiggly-warning', 'dcount')).toContain('not supported by this service');
    await page.screenshot({ path: path.join(shots, 'unsupported-function.png') });
  });

  it('takes a new schema: its tables complete and its function list moves the warnings', async () => {
    const text = 'States | summarize d = dcount(NameId)';
    await resetEditor(page, text);
    await expect
      .poll(() => squiggles(page, 'squiggly-warning'), { timeout: 30_000 })
      .toEqual([{ line: 1, column: 24, text: 'dcount' }]);
    await page.evaluate(() => {
      const { handle, schema } = (globalThis as unknown as HarnessWindow).harness;
      handle.setSchema({
        ...schema,
        tables: [...schema.tables, { name: 'Alarms', columns: [{ name: 'Severity', type: 'long' }] }],
        functions: [...schema.functions, 'dcount'],
      });
    });
    await expect.poll(() => squiggles(page, 'squiggly-warning'), { timeout: 30_000 }).toEqual([]);
    await resetEditor(page, '');
    await page.keyboard.type('Alar');
    await expect
      .poll(
        () =>
          page.$$eval('.suggest-widget.visible .monaco-list-row', (r) => r.map((e) => e.getAttribute('aria-label'))),
        { timeout: 30_000 },
      )
      .toContain('Alarms');
    await page.keyboard.press('Escape');
  });

  it('shows the schema on hover over a column', async () => {
    await resetEditor(page, 'States\n| where PlantId == "p1"');
    await restMouseAt(page, await pointAt(page, 2, 10));
    // The column's name and type from the schema, and its description.
    expect(await shownHovers(page)).toEqual([expect.stringMatching(/PlantId: string\s*The plant of the message/)]);
    await page.mouse.move(0, 0);
  });

  it('underlines a server error at its line:col, relative to the statement that ran', async () => {
    // Text the language service accepts, so that every error underline is the server's.
    await resetEditor(page, 'States | take 1\n\nStates\n| where Value > 1');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await squiggles(page, 'squiggly-error')).toEqual([]);
    await editorText(page); // the whole text is what the page ran
    await page.evaluate(() =>
      (globalThis as unknown as HarnessWindow).harness.handle.setMarkers([
        { line: 4, column: 9, message: 'server says: no Value here' },
      ]),
    );
    await expect
      .poll(() => squiggles(page, 'squiggly-error'), { timeout: 10_000 })
      .toEqual([{ line: 4, column: 9, text: 'Value' }]);
    expect(await hoverText(page, 'squiggly-error', 'Value')).toContain('server says: no Value here');
    await page.screenshot({ path: path.join(shots, 'server-error.png') });

    // Ctrl+Enter on the second statement hands out lines 3-4: the server's 2:9 is the document's 4:9.
    await editorRun(page, 3, 2);
    expect((await runs(page)).at(-1)).toBe('States\n| where Value > 1');
    await page.evaluate(() =>
      (globalThis as unknown as HarnessWindow).harness.handle.setMarkers([
        { line: 2, column: 9, endColumn: 14, message: 'x' },
      ]),
    );
    await expect.poll(() => squiggles(page, 'squiggly-error')).toEqual([{ line: 4, column: 9, text: 'Value' }]);
    // Editing makes the server's position stale: the underline goes.
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' ');
    await expect.poll(() => squiggles(page, 'squiggly-error')).toEqual([]);
  });

  it('runs the statement under the cursor with Ctrl+Enter, without inserting a line', async () => {
    const text = 'let since = ago(1h);\nStates\n| where Timestamp > since\n\nEvents | count';
    await resetEditor(page, text);
    const before = (await runs(page)).length;
    await editorRun(page, 5, 4);
    await editorRun(page, 2, 2);
    expect((await runs(page)).slice(before)).toEqual([
      'Events | count',
      'let since = ago(1h);\nStates\n| where Timestamp > since',
    ]);
    expect(await editorText(page)).toBe(text);
  });

  it('traps Tab for indenting, and lets the keyboard leave with Esc then Tab or Ctrl+M', async () => {
    const focused = (): Promise<string | undefined> => focusedId(page);
    await resetEditor(page, 'States');
    await page.keyboard.press('Tab');
    expect(await editorText(page)).toBe('States  '); // to the next tab stop (4)
    expect(await focused()).not.toBe('after');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('after');

    await resetEditor(page, 'States');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('before');

    await resetEditor(page, 'States');
    await page.keyboard.press('Control+m');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('after');
    expect(await editorText(page)).toBe('States');
    expect(await page.textContent('#help')).toContain('Esc then Tab');
  });

  it('follows a dark colour scheme', async () => {
    const dark = await open('dark');
    expect(await dark.$eval('.monaco-editor', (e) => e.classList.contains('vs-dark'))).toBe(true);
    expect(await page.$eval('.monaco-editor', (e) => e.classList.contains('vs-dark'))).toBe(false);
    await dark.screenshot({ path: path.join(shots, 'dark.png') });
    await dark.close();
    expect(problems).toEqual([]);
  });
});
