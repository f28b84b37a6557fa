#!/usr/bin/env node
// Builds the CLIs (`gdm`, `insights-admin`) as bundled JavaScript into lib/cli/dist/ (git-ignored),
// so that they start without transpiling TypeScript: run by `npm ci`/`npm install` (the `prepare`
// script) and by `npm run build:cli`. Next to each bundle, <name>.inputs.json lists the project's
// source files it was built from with their modification times; the bins (lib/cli/*.mjs) use the
// bundle only while none of them changed, and run the TypeScript sources otherwise.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.join(root, 'lib/cli/dist');
const entries = { gdm: 'lib/cli/gdm-main.ts', 'insights-admin': 'lib/cli/insights-admin-main.ts' };

// esbuild is a devDependency: without it (an install without dev packages) the bins run the
// TypeScript sources through tsx, slower to start but the same commands.
const esbuild = await import('esbuild').catch(() => undefined);
if (!esbuild) {
  console.log('esbuild is not installed: the CLIs will run from their TypeScript sources');
  process.exit(0);
}
const { build } = esbuild;
await mkdir(out, { recursive: true });
for (const [name, entry] of Object.entries(entries)) {
  const started = Date.now();
  const result = await build({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(out, `${name}.mjs`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    // Native or optional modules stay outside the bundle; CommonJS dependencies need require().
    external: ['@duckdb/*'],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  const sources = Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules/'));
  const inputs = {};
  for (const file of sources) inputs[file] = (await stat(path.join(root, file))).mtimeMs;
  await writeFile(
    path.join(out, `${name}.inputs.json`),
    `${JSON.stringify({ builtAt: new Date().toISOString(), inputs })}\n`,
  );
  const size = (await stat(path.join(out, `${name}.mjs`))).size;
  console.log(
    `built lib/cli/dist/${name}.mjs (${(size / 1024).toFixed(0)} KiB, ${sources.length} sources) in ${Date.now() - started} ms`,
  );
}
