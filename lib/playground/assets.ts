// Rules of the playground's static files, kept pure so they are tested without files: which names
// may be served (only what the build's manifest lists: no path can reach anything else), their
// content types, which compressed form a client gets, and how long it may keep them.

export type ContentEncoding = 'br' | 'gzip';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extensionOf(name)] ?? 'application/octet-stream';
}

/** woff/woff2 are compressed already; everything else the build writes shrinks several times. */
export function isCompressible(name: string): boolean {
  return !['.woff', '.woff2', '.png'].includes(extensionOf(name));
}

/** Text the response may carry as is; the rest travels base64-encoded. */
export function isText(name: string): boolean {
  return contentTypeOf(name).includes('charset=utf-8') || extensionOf(name) === '.svg';
}

/**
 * The manifest's name for a requested path, or undefined when the build made no such file. The
 * manifest is the allow list: `..`, absolute paths, backslashes or encoded tricks never match one
 * of its names, so nothing outside the build's outputs can be read.
 */
export function servableName(requested: string, files: ReadonlySet<string>): string | undefined {
  if (requested.includes('\0') || requested.includes('\\')) return undefined;
  if (requested.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) return undefined;
  return files.has(requested) ? requested : undefined;
}

/**
 * The encoding to send, from the client's Accept-Encoding (q=0 refuses one): brotli before gzip,
 * as brotli is the smaller of the two; undefined sends the bytes as they are.
 */
export function chooseEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(token, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string): number => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/**
 * Cache-Control of a file: names carrying a content hash (chunks/x-HASH.js, assets/x-HASH.ttf)
 * never change, so browsers keep them a year; app.js, workers and CSS keep their names across
 * builds and are revalidated with their ETag on every load.
 */
export function cacheControlOf(name: string): string {
  return /-[A-Z0-9]{8}\.[a-z0-9]+$/.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** True when If-None-Match names the current ETag (or `*`): the client's copy is current. */
export function isNotModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}
