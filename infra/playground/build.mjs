#!/usr/bin/env node
// Builds the playground page's browser code into lib/playground/dist/ (git-ignored): the page
// module lib/playground/web/app.ts and every lib/playground/web/*.worker.ts (Monaco's web workers)
// as ES modules with shared chunks, their CSS, and the fonts they load. Run by `npm ci` (the
// `prepare` script), by `npm run build:playground`, and by `npm start` when a source changed.
// manifest.json lists each output file with its size and the sources it was built from, with
// their modification times, so that the start script can tell when the build is stale.
// Compressible outputs also get .br and .gz files beside them, so the page's handler never
// compresses at request time (functions/playground, lib/playground/site.ts).
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const web = path.join(root, 'lib/playground/web');
const out = path.join(root, 'lib/playground/dist');

const esbuild = await import('esbuild').catch(() => undefined);
if (!esbuild) {
  console.log('esbuild is not installed: the playground page is not built (its address answers 503)');
  process.exit(0);
}
const started = Date.now();
const workers = (await readdir(web)).filter((f) => f.endsWith('.worker.ts')).map((f) => path.join(web, f));
await rm(out, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: [path.join(web, 'app.ts'), ...workers],
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  metafile: true,
  logLevel: 'warning',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file', '.svg': 'file' },
  define: { 'process.env.NODE_ENV': '"production"' },
});
const sources = Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules/'));
const inputs = {};
for (const file of sources) inputs[file] = (await stat(path.join(root, file))).mtimeMs;
const files = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  files[path.relative(out, path.join(root, file))] = output.bytes;
}
await precompress(out, Object.keys(files));
await writeFile(
  path.join(out, 'manifest.json'),
  `${JSON.stringify({ builtAt: new Date().toISOString(), files, inputs }, null, 1)}\n`,
);
const total = Object.values(files).reduce((a, b) => a + b, 0);
console.log(
  `built lib/playground/dist (${Object.keys(files).length} files, ${(total / 1024).toFixed(0)} KiB, ${sources.length} sources) in ${Date.now() - started} ms`,
);
