// A real browser for tests of the playground's browser code: Debian's chromium driven by
// playwright-core (playwright's own browser download cannot work here), and a tiny static server
// for a built folder. Installs chromium with apt-get when it is missing (as .ci/run does).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Throws with apt-get's output when chromium is missing and cannot be installed. */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (install.status !== 0 || !existsSync(CHROMIUM)) {
    throw new Error(`chromium is missing and apt-get could not install it:\n${install.stdout}\n${install.stderr}`);
  }
}

export async function launchChromium(): Promise<Browser> {
  ensureChromium();
  // --no-sandbox: tests run as root in a container, where chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.json': 'application/json',
};

export interface StaticServer {
  readonly url: string;
  /** Paths requested so far, in order (for tests of what a page loads and when). */
  readonly requested: readonly string[];
  close(): Promise<void>;
}

/** Serves `index` at / and the files of `dir` (no listing, nothing outside it) on a free port. */
export async function serveFolder(dir: string, index: string): Promise<StaticServer> {
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    requested.push(pathname);
    if (pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(index);
      return;
    }
    const file = path.join(dir, pathname);
    if (!file.startsWith(dir + path.sep)) {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) =>
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requested,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
