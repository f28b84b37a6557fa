#!/usr/bin/env node
// Builds the playground page's browser code into lib/playground/dist/ (git-ignored): the page
// module lib/playground/web/app.ts as an ES module with shared chunks (the editor, Monaco and the
// Kusto language service load lazily from chunks/), its CSS (Monaco's, imported by the editor, is
// gathered into app.css) and the fonts it loads (assets/); and every lib/playground/web/*.worker.ts
// (Monaco's web workers) as a classic worker script next to app.js. Run by `npm ci` (the `prepare`
// script), by `npm run build:playground`, and by `npm start` when a source changed.
// manifest.json lists each output file with its size and the sources it was built from, with
// their modification times, so that the start script can tell when the build is stale.
// buildPlayground() is exported for tests that build a harness page the same way. Run as a
// command, compressible outputs also get .br and .gz files beside them, so the page's handler never
// compresses at request time (functions/playground, lib/playground/site.ts); test harnesses skip it.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { precompress } from './precompress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const web = path.join(root, 'lib/playground/web');
const require = createRequire(path.join(root, 'package.json'));

const common = {
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  minify: true,
  metafile: true,
  logLevel: 'warning',
  entryNames: '[name]',
  assetNames: 'assets/[name]-[hash]',
  loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file', '.svg': 'file' },
  define: { 'process.env.NODE_ENV': '"production"' },
};

// The Kusto language service is four pre-built scripts (about 8 MB, 4 MB the largest) that define
// globals monaco-kusto's worker reads. Bundled, the worker would be one 8 MB file; a Lambda
// response holds 6 MB after base64. So their imports become importScripts calls (synchronous, in
// import order, before the worker's own code runs) of copies under chunks/, named by content hash.
function kustoRuntime(outdir, copies) {
  return {
    name: 'kusto-runtime',
    setup(build) {
      build.onResolve({ filter: /^@kusto\/language-service(-next)?\// }, (args) => ({
        path: require.resolve(args.path),
        namespace: 'kusto-runtime',
      }));
      build.onLoad({ filter: /.*/, namespace: 'kusto-runtime' }, async (args) => {
        const bytes = await readFile(args.path);
        const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 8).toUpperCase();
        const name = `chunks/${path.basename(args.path, '.js')}-${hash}.js`;
        await mkdir(path.join(outdir, 'chunks'), { recursive: true });
        await writeFile(path.join(outdir, name), bytes);
        copies[name] = bytes.length;
        // Relative URLs in importScripts resolve against the worker script (dist/*.worker.js).
        return { contents: `importScripts(${JSON.stringify(name)});`, loader: 'js' };
      });
    },
  };
}

/** Builds the page (pageEntry, default app.ts) and the workers into outdir; returns the manifest. */
export async function buildPlayground({
  outdir = path.join(root, 'lib/playground/dist'),
  pageEntry = path.join(web, 'app.ts'),
} = {}) {
  const esbuild = await import('esbuild');
  const workers = (await readdir(web)).filter((f) => f.endsWith('.worker.ts')).map((f) => path.join(web, f));
  await rm(outdir, { recursive: true, force: true });
  const copies = {};
  const page = await esbuild.build({
    ...common,
    entryPoints: { app: pageEntry },
    outdir,
    splitting: true,
    format: 'esm',
    chunkNames: 'chunks/[name]-[hash]',
  });
  // Classic workers, each one self-contained (no chunks shared with the page: a chunk written for
  // the page may touch the DOM at load, and a module worker could not call importScripts).
  const worker = await esbuild.build({
    ...common,
    entryPoints: workers,
    outdir,
    format: 'iife',
    plugins: [kustoRuntime(outdir, copies)],
  });
  const sources = [page, worker]
    .flatMap((r) => Object.keys(r.metafile.inputs))
    .filter((file) => !file.includes('node_modules/') && !file.startsWith('kusto-runtime:'));
  const inputs = {};
  for (const file of sources) inputs[file] = (await stat(path.resolve(root, file))).mtimeMs;
  const files = { ...copies };
  for (const r of [page, worker]) {
    for (const [file, output] of Object.entries(r.metafile.outputs)) {
      files[path.relative(outdir, path.resolve(root, file))] = output.bytes;
    }
  }
  const manifest = { builtAt: new Date().toISOString(), files, inputs };
  await writeFile(path.join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const available = await import('esbuild').then(
    () => true,
    () => false,
  );
  if (!available) {
    console.log('esbuild is not installed: the playground page is not built (its address answers 503)');
    process.exit(0);
  }
  const started = Date.now();
  const { files, inputs } = await buildPlayground();
  await precompress(path.join(root, 'lib/playground/dist'), Object.keys(files));
  const total = Object.values(files).reduce((a, b) => a + b, 0);
  console.log(
    `built lib/playground/dist (${Object.keys(files).length} files, ${(total / 1024).toFixed(0)} KiB, ${Object.keys(inputs).length} sources) in ${Date.now() - started} ms`,
  );
}
