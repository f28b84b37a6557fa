// The playground's page and file handlers over a dist folder made here: content types, the CSP,
// compression as the client accepts it, ETag revalidation, the 404 envelope for any name the build
// did not make (traversal included) and the 503 envelope when the page was never built.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Context } from 'aws-lambda';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpEvent } from '../../../lib/http/chain';

const dist = { dir: '' };
vi.mock('../../../lib/playground/dist-dir', () => ({ playgroundDistDir: () => dist.dir }));
const { handler: page } = await import('../../../functions/playground/page');
const { handler: asset } = await import('../../../functions/playground/asset');

const context = { awsRequestId: 'r', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const APP_JS = `export const greeting = ${JSON.stringify('hello '.repeat(500))};\n`;
const FONT = Buffer.from([0x77, 0x4f, 0x46, 0x32, 0, 1, 2, 3, 255]);

function event(file: string | undefined, headers: Record<string, string> = {}): HttpEvent {
  return {
    version: '2.0',
    routeKey:
      file === undefined ? 'GET /insights/v1/telemetry/playground' : 'GET /insights/v1/telemetry/playground/{file+}',
    rawPath: '/insights/v1/telemetry/playground',
    rawQueryString: '',
    headers,
    pathParameters: file === undefined ? undefined : { file },
    requestContext: { requestId: 'api-r' } as HttpEvent['requestContext'],
    isBase64Encoded: false,
  } as HttpEvent;
}

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
}
const call = async (fn: typeof page, e: HttpEvent): Promise<Answer> => (await fn(e, context)) as Answer;

function writeDist(root: string): string {
  const dir = path.join(root, 'dist');
  mkdirSync(path.join(dir, 'chunks'), { recursive: true });
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'app.js'), APP_JS);
  writeFileSync(path.join(dir, 'app.css'), 'body { color: black; }\n');
  writeFileSync(path.join(dir, 'chunks/editor-ABCD1234.js'), 'export const e = 1;\n');
  writeFileSync(path.join(dir, 'chunks/editor-ABCD1234.css'), 'body { color: black; }\n');
  writeFileSync(path.join(dir, 'assets/codicon-ZYXW9876.woff2'), FONT);
  writeFileSync(path.join(root, 'secret.txt'), 'not for the web');
  const files = {
    'app.js': 1,
    'app.css': 1,
    'chunks/editor-ABCD1234.js': 1,
    'chunks/editor-ABCD1234.css': 1,
    'assets/codicon-ZYXW9876.woff2': 1,
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ files, inputs: {} }));
  return dir;
}

const root = mkdtempSync(path.join(tmpdir(), 'playground-site-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('playground page and files', () => {
  beforeEach(() => {
    dist.dir = writeDist(root);
  });

  it('serves the page as HTML with a strict CSP, its stylesheets and no inline script', async () => {
    // Act
    const res = await call(page, event(undefined));
    // Assess
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe/);
    expect(res.body).toContain('<script type="module" src="playground/app.js"></script>');
    expect(res.body.match(/<link rel="stylesheet" [^>]*>/g)).toEqual([
      '<link rel="stylesheet" href="playground/app.css">',
    ]);
    expect(res.body.match(/<script\b[^>]*>[^<]+<\/script>/)).toBeNull();
  });

  it('gives each file its content type and cache lifetime', async () => {
    const js = await call(asset, event('app.js'));
    const css = await call(asset, event('app.css'));
    const chunk = await call(asset, event('chunks/editor-ABCD1234.js'));
    const font = await call(asset, event('assets/codicon-ZYXW9876.woff2'));
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toBe(APP_JS);
    expect(js.headers['cache-control']).toBe('no-cache');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.isBase64Encoded).toBe(true);
    expect(Buffer.from(font.body, 'base64')).toEqual(FONT);
  });

  it('compresses with brotli from the build, else gzip, as the client accepts', async () => {
    // Prepare: the build's brotli file of app.js; no gzip file, so gzip is made by the server.
    const { brotliCompressSync } = await import('node:zlib');
    writeFileSync(path.join(dist.dir, 'app.js.br'), brotliCompressSync(Buffer.from(APP_JS)));
    // Act
    const br = await call(asset, event('app.js', { 'accept-encoding': 'gzip, deflate, br' }));
    const gzip = await call(asset, event('app.js', { 'accept-encoding': 'gzip;q=1, br;q=0' }));
    const font = await call(asset, event('assets/codicon-ZYXW9876.woff2', { 'accept-encoding': 'br' }));
    // Assess
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(Buffer.from(br.body, 'base64')).toString()).toBe(APP_JS);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(gzip.body, 'base64')).toString()).toBe(APP_JS);
    expect(Buffer.from(gzip.body, 'base64').length).toBeLessThan(APP_JS.length / 10);
    expect(gzip.headers.vary).toBe('Accept-Encoding');
    expect(font.headers['content-encoding']).toBeUndefined();
  });

  it('answers 304 to a current ETag and the file to a stale one', async () => {
    const first = await call(asset, event('app.js'));
    const again = await call(asset, event('app.js', { 'if-none-match': first.headers.etag! }));
    const stale = await call(asset, event('app.js', { 'if-none-match': '"old"' }));
    expect(first.headers.etag).toMatch(/^".+"$/);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(stale.statusCode).toBe(200);
  });

  it.each([
    ['unknown.js'],
    ['manifest.json'],
    ['../secret.txt'],
    ['chunks/../app.js'],
    ['./app.js'],
    ['/etc/passwd'],
    ['..%2Fsecret.txt'],
    ['%2e%2e/secret.txt'],
    ['chunks\\..\\..\\secret.txt'],
    ['app.js%00.css'],
  ])('answers the 404 envelope for %s, never a file outside the build', async (file) => {
    const res = await call(asset, event(file));
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ERROR', code: 'NOT_FOUND' });
  });

  it('answers 400 for a badly encoded name', async () => {
    const res = await call(asset, event('%E0%A4%A.js'));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('answers the 503 envelope naming the build command when the page was never built', async () => {
    // Prepare
    dist.dir = path.join(root, 'no-build-here');
    // Act
    const pageRes = await call(page, event(undefined));
    const fileRes = await call(asset, event('app.js'));
    // Assess
    for (const res of [pageRes, fileRes]) {
      expect(res.statusCode).toBe(503);
      expect(JSON.parse(res.body)).toMatchObject({ status: 'ERROR', code: 'SERVICE_UNAVAILABLE' });
      expect(JSON.parse(res.body).message).toContain('npm run build:playground');
    }
  });
});
