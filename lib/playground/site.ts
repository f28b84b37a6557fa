// Serves the playground's page and the files `npm run build:playground` wrote to its dist folder
// (infra/playground/build.mjs). Files are read once per container and kept with their ETag and
// compressed forms; the build's own .br/.gz files are used when present, else gzip is made once
// here. A new build (another manifest) is noticed on the next request.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { AppError } from '../core/errors';
import type { HttpResult } from '../http/types';
import {
  cacheControlOf,
  chooseEncoding,
  contentTypeOf,
  isCompressible,
  isNotModified,
  isText,
  servableName,
  type ContentEncoding,
} from './assets';
import { CONTENT_SECURITY_POLICY, playgroundHtml } from './page-html';

interface Manifest {
  readonly files: Readonly<Record<string, number>>;
}

interface LoadedFile {
  readonly bytes: Buffer;
  readonly etag: string;
  readonly encoded: Partial<Record<ContentEncoding, Buffer>>;
}

interface Site {
  readonly manifestMtimeMs: number;
  readonly names: ReadonlySet<string>;
  readonly html: LoadedFile;
  readonly files: Map<string, LoadedFile>;
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

const sites = new Map<string, Site>();

function etagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

function readOptional(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function loaded(bytes: Buffer, encoded: LoadedFile['encoded']): LoadedFile {
  return { bytes, etag: etagOf(bytes), encoded };
}

/** @throws AppError SERVICE_UNAVAILABLE when the page was never built (no manifest). */
function siteOf(distDir: string): Site {
  const manifestFile = path.join(distDir, 'manifest.json');
  let mtimeMs: number;
  try {
    mtimeMs = statSync(manifestFile).mtimeMs;
  } catch {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'the playground page is not built on this server: run `npm run build:playground` (npm start does it when the page changed)',
    );
  }
  const cached = sites.get(distDir);
  if (cached && cached.manifestMtimeMs === mtimeMs) return cached;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const names = new Set(Object.keys(manifest.files));
  // The entry's stylesheets only: esbuild gathers the CSS of lazily loaded chunks into app.css as
  // well, and chunks/*.css repeat it.
  const html = Buffer.from(playgroundHtml([...names].filter((n) => n.endsWith('.css') && !n.includes('/')).sort()));
  const site: Site = { manifestMtimeMs: mtimeMs, names, html: loaded(html, {}), files: new Map() };
  sites.set(distDir, site);
  return site;
}

function fileOf(site: Site, distDir: string, name: string): LoadedFile {
  const known = site.files.get(name);
  if (known) return known;
  const full = path.join(distDir, name);
  const file = loaded(readFileSync(full), {
    br: readOptional(`${full}.br`),
    gzip: readOptional(`${full}.gz`),
  });
  site.files.set(name, file);
  return file;
}

/** The response of one file, compressed as the client accepts, or 304 when its copy is current. */
function respond(
  file: LoadedFile,
  name: string,
  requestHeaders: Readonly<Record<string, string | undefined>>,
  extraHeaders: Readonly<Record<string, string>>,
): HttpResult {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    ...extraHeaders,
    'content-type': contentTypeOf(name),
    etag: file.etag,
    vary: 'Accept-Encoding',
  };
  if (isNotModified(requestHeaders['if-none-match'], file.etag))
    return { status: 304, body: '', headers, bodyEncoding: 'text' };
  const encoding = isCompressible(name) ? chooseEncoding(requestHeaders['accept-encoding']) : undefined;
  if (encoding) {
    // Without the build's file of that encoding, gzip made once here (fast; brotli's best level is not).
    let sent: ContentEncoding = encoding;
    let encoded = file.encoded[encoding];
    if (!encoded) {
      sent = 'gzip';
      encoded = file.encoded.gzip ??= gzipSync(file.bytes);
    }
    return {
      body: encoded.toString('base64'),
      headers: { ...headers, 'content-encoding': sent },
      bodyEncoding: 'base64',
    };
  }
  return isText(name)
    ? { body: file.bytes.toString('utf8'), headers, bodyEncoding: 'text' }
    : { body: file.bytes.toString('base64'), headers, bodyEncoding: 'base64' };
}

/** GET /insights/v1/telemetry/playground. @throws AppError SERVICE_UNAVAILABLE when not built. */
export function playgroundPage(
  distDir: string,
  requestHeaders: Readonly<Record<string, string | undefined>>,
): HttpResult {
  const site = siteOf(distDir);
  return respond(site.html, 'index.html', requestHeaders, {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-frame-options': 'DENY',
    'cache-control': 'no-cache',
  });
}

/**
 * GET /insights/v1/telemetry/playground/{file+}: a file of the build, by its manifest name.
 * @throws AppError NOT_FOUND for any other name, SERVICE_UNAVAILABLE when not built.
 */
export function playgroundAsset(
  distDir: string,
  requested: string,
  requestHeaders: Readonly<Record<string, string | undefined>>,
): HttpResult {
  const site = siteOf(distDir);
  const name = servableName(requested, site.names);
  if (name === undefined)
    throw new AppError('NOT_FOUND', `the playground has no file '${requested.slice(0, 200)}'`, { field: 'file' });
  return respond(fileOf(site, distDir, name), name, requestHeaders, { 'cache-control': cacheControlOf(name) });
}
