// The playground in a real browser (Debian's chromium driven by playwright-core) on the shared
// offline stack: a tenant of its own with a few hundred published messages; the page signs in,
// runs a typed query and shows the API's rows, draws a `render timechart`, places a syntax
// error's marker at the API's line:col and shows explain's SQL. Screenshots go to
// .data/playground-screens/ (git-ignored); page weight and time to interactive are logged.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import mqtt from 'mqtt';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRegistry } from '../../lib/adapters/dynamodb/registry';
import { toEdge } from '../../lib/gdm';
import { createMessageGenerator } from '../../lib/gdm/simulator';
import { createAgent, createCustomer, createLocalClient, createPlant } from '../../lib/registry/admin';
import { playgroundStaleReason } from '../../infra/playground/fresh.mjs';
import type { OfflineStack } from '../support/offline-stack';
import { waitUntil } from '../support/ports';
import { sharedOfflineStack } from '../support/shared-stack';
import { clientToken, query } from '../support/stack-client';

const root = path.resolve(import.meta.dirname, '../..');
const screens = path.join(root, '.data/playground-screens');
const MESSAGES = 300;
const SIGNALS = 2;

/** Debian's chromium; installed from the distribution when missing (as .ci/run does). */
function chromiumPath(): string {
  const known = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  if (known) return known;
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return '/usr/bin/chromium';
}

interface Tenant {
  readonly plantId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly agentId: string;
}

async function createTenant(stack: OfflineStack): Promise<Tenant> {
  const { registry, close } = openRegistry({
    endpoint: `http://127.0.0.1:${stack.ports.dynamodb}`,
    tableName: 'industrial-insights-local-main',
    region: 'eu-west-1',
  });
  try {
    const now = new Date();
    const customerId = `playground-${randomBytes(3).toString('hex')}`;
    const plantId = `${customerId}-plant-1`;
    await createCustomer(registry, { customerId, now });
    await createPlant(registry, { customerId, plantId, now });
    const agent = await createAgent(registry, { customerId, now });
    const { client, clientSecret } = await createLocalClient(registry, { customerId, now });
    return { plantId, clientId: client.clientId, clientSecret, agentId: agent.agentId };
  } finally {
    close();
  }
}

/** MESSAGES state messages of 3 devices over the last 50 minutes, SIGNALS values each. */
async function publish(stack: OfflineStack, tenant: Tenant): Promise<number> {
  const generate = createMessageGenerator({
    devices: 3,
    items: SIGNALS,
    values: 1,
    types: ['state'],
    plantId: tenant.plantId,
    keepAliveIntervalMs: 30_000,
  });
  const now = Date.now();
  const agent = await mqtt.connectAsync(stack.mqttUrl, { clientId: tenant.agentId });
  const payloads = Array.from({ length: MESSAGES }, (_, i) =>
    JSON.stringify(toEdge(generate(new Date(now - 3_000_000 + i * 10_000)), { now: () => new Date() })),
  );
  await Promise.all(payloads.map((p) => agent.publishAsync(`gdm/${tenant.agentId}/messages`, p, { qos: 1 })));
  await agent.endAsync();
  return MESSAGES * SIGNALS;
}

/** The grid's cells as the API's values: a datetime cell by its machine-readable time. */
async function gridRows(page: Page): Promise<string[][]> {
  return page.$$eval('#grid tbody tr', (rows) =>
    rows.map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.querySelector('time')?.dateTime ?? td.textContent ?? ''),
    ),
  );
}

async function typeQuery(page: Page, text: string): Promise<void> {
  await page.locator('#query-editor').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const lastWindow = () => {
  const end = Date.now() + 60_000;
  return { startTime: new Date(end - 86_400_000 - 120_000).toISOString(), endTime: new Date(end).toISOString() };
};

describe('the playground page in chromium', () => {
  let stack: OfflineStack;
  let tenant: Tenant;
  let token: string;
  let browser: Browser;
  let page: Page;
  const weight = { bytes: 0, requests: 0 };

  beforeAll(async () => {
    const stale = playgroundStaleReason(root);
    if (stale !== undefined) {
      const build = spawnSync(process.execPath, [path.join(root, 'infra/playground/build.mjs')], { cwd: root });
      expect(build.status, `playground build (${stale}): ${String(build.stderr)}`).toBe(0);
    }
    mkdirSync(screens, { recursive: true });
    stack = await sharedOfflineStack();
    tenant = await createTenant(stack);
    token = await clientToken(stack, tenant.clientId, tenant.clientSecret);
    const rows = await publish(stack, tenant);
    await waitUntil(
      async () => (await query(stack, token, 'States | count', lastWindow())).body.data?.rows[0]?.[0] === rows,
      60_000,
      `${rows} rows of the published messages`,
    );
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('requestfinished', (request) => {
      void request.sizes().then((s) => {
        weight.bytes += s.responseBodySize + s.responseHeadersSize;
        weight.requests += 1;
      });
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('loads the page and signs in with the client id and secret', async () => {
    // Act
    const started = Date.now();
    await page.goto(`${stack.httpUrl}/insights/v1/telemetry/playground`);
    await page.waitForSelector('body[data-ready="true"]');
    const pageReady = Date.now() - started;
    await page.screenshot({ path: path.join(screens, 'sign-in.png') });
    await page.fill('#client-id', tenant.clientId);
    await page.fill('#client-secret', tenant.clientSecret);
    const signingIn = Date.now();
    await page.press('#client-secret', 'Enter');
    await page.waitForSelector('#query-editor[data-ready="true"]', { timeout: 30_000 });
    const editorReady = Date.now() - signingIn;
    // Assess: the secret is gone from the form; the client's plant is offered.
    expect(await page.inputValue('#client-secret')).toBe('');
    expect(await page.$$eval('#plants input', (boxes) => boxes.map((b) => b.getAttribute('value')))).toEqual([
      tenant.plantId,
    ]);
    // Run in the page (a string: this file is type-checked without the DOM's types).
    const transfer = await page.evaluate<number>(
      "[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].reduce((sum, e) => sum + e.transferSize, 0)",
    );
    console.log(
      `playground weight: ${transfer} bytes transferred (resource timing) / ${weight.bytes} bytes in ${weight.requests} requests (network); ` +
        `page interactive in ${pageReady} ms, editor ready ${editorReady} ms after sign-in`,
    );
  });

  it('runs a typed query (Ctrl+Enter) and shows the rows the API answers', async () => {
    // Prepare
    const text =
      "States | where DeviceId == 'device-001' | project Timestamp, DeviceId, Name, Value | sort by Timestamp asc, Name asc | take 40";
    await typeQuery(page, text);
    // Act
    await page.keyboard.press('ControlOrMeta+Enter');
    await page.waitForSelector('#grid table');
    // Assess
    const api = await query(stack, token, text, lastWindow());
    expect(api.status).toBe(200);
    const expected = api.body.data!.rows.map((r) => r.map((v) => String(v)));
    expect(expected).toHaveLength(40);
    expect(await gridRows(page)).toEqual(expected);
    expect(await page.textContent('#result-summary')).toMatch(/^40 rows in \d+ ms/);
    expect(await page.$$eval('#grid th', (ths) => ths.map((th) => th.getAttribute('data-type')))).toEqual([
      'datetime',
      'string',
      'string',
      'dynamic',
    ]);
    await page.screenshot({ path: path.join(screens, 'results.png'), fullPage: true });
  });

  it('draws a render timechart into the chart panel (Run button)', async () => {
    // Prepare
    const text = 'States | summarize avg(todouble(Value)) by bin(Timestamp, 5m), Name | render timechart';
    await typeQuery(page, text);
    // Act
    await page.click('#run');
    await page.waitForSelector('#chart[data-chart-kind="timechart"]');
    // Assess: the panel shows what renderChart reported; one series per Name (Kusto's meaning of
    // the extra string column) once the chart module draws them.
    expect(await page.getAttribute('#tab-chart', 'aria-selected')).toBe('true');
    const series = JSON.parse((await page.getAttribute('#chart', 'data-chart-series')) ?? 'null') as {
      name: string;
      points: number;
    }[];
    expect(Array.isArray(series)).toBe(true);
    if (series.length > 0) {
      expect(series).toHaveLength(SIGNALS);
      for (const s of series) expect(s.points).toBeGreaterThan(0);
    }
    await page.screenshot({ path: path.join(screens, 'chart.png'), fullPage: true });
  });

  it('shows the SQL of explain in the Explain tab', async () => {
    await page.click('#tab-explain');
    // (Not waitForFunction: its string is evaluated in the page, which the page's CSP refuses.)
    await page.locator('#explain', { hasText: /select/i }).waitFor();
    expect(await page.textContent('#explain')).toMatch(/^-- duckdb\n/);
  });

  it('shows a syntax error and hands its line:col to the editor', async () => {
    // Prepare
    const text = 'States | where Value >';
    await typeQuery(page, text);
    // Act
    await page.click('#run');
    await page.waitForSelector('#query-error:not(:empty)');
    // Assess
    const api = await query(stack, token, text, lastWindow());
    expect(api.status).toBe(400);
    const [position] = (api.body as unknown as { data: { line: number; column: number }[] }).data;
    expect(await page.textContent('#query-error')).toBe(`${api.body.code}: ${api.body.message}`);
    const markers = JSON.parse((await page.getAttribute('#query-editor', 'data-markers')) ?? '[]') as {
      line: number;
      column: number;
    }[];
    expect(markers).toEqual([expect.objectContaining({ line: position!.line, column: position!.column })]);
    await page.screenshot({ path: path.join(screens, 'error.png'), fullPage: true });
  });

  it('works at 400 px wide and from the keyboard', async () => {
    // Act
    await page.setViewportSize({ width: 400, height: 800 });
    await page.click('#tab-results');
    await page.keyboard.press('ArrowRight');
    // Assess: arrow keys move between tabs; nothing is wider than the screen but the grid's scroller.
    expect(await page.getAttribute('#tab-chart', 'aria-selected')).toBe('true');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(400);
    await page.screenshot({ path: path.join(screens, 'narrow.png'), fullPage: true });
  });
});
