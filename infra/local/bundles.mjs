// The function bundles of the local stack, built in ONE esbuild call with serverless.yml's own
// `custom.esbuild` options, passed to esbuild as serverless-esbuild passes them (its own keys taken
// out, `exclude` made external), so a local stack runs the same code a deployed function does.
// One call with every entry point gives the same files as one call per entry (no code splitting),
// in the layout serverless-esbuild writes: <dir>/functions/<area>/<name>.cjs. serverless-esbuild
// bundled each function on its own at every `offline start` (about 43 s of CPU on this machine
// against 14 s for a start that serves these bundles). Used by `npm start` (through the cache in
// ./bundle-cache.mjs) and by the test runs (test/support/prebuilt-bundles.ts); packaging and
// deployment stay on serverless-esbuild.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { parse } from 'yaml';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** serverless-esbuild's own options, which it removes before calling esbuild (its bundle.js). */
const pluginKeys = new Set([
  'concurrency',
  'zipConcurrency',
  'exclude',
  'nativeZip',
  'packager',
  'packagePath',
  'watch',
  'keepOutputDirectory',
  'packagerOptions',
  'installExtraArgs',
  'outputFileExtension',
  'outputBuildFolder',
  'outputWorkFolder',
  'nodeExternals',
  'skipBuild',
  'skipRebuild',
  'skipBuildExcludeFns',
  'stripEntryResolveExtensions',
  'disposeContext',
]);

/** serverless.yml as written (variables unresolved). */
export function readService() {
  return parse(readFileSync(path.join(root, 'serverless.yml'), 'utf8'));
}

/** The files serverless.yml's `functions:` list includes (`${file(...)}`), relative to the root. */
export function functionFiles(service) {
  return service.functions.map((ref) => {
    const file = /^\$\{file\((.+)\)\}$/.exec(ref)?.[1];
    if (!file) throw new Error(`serverless.yml functions: expected \${file(...)}, got ${ref}`);
    return file;
  });
}

/**
 * The source file of every function's handler, as serverless-esbuild finds it (`a/b.handler` -> a/b.ts).
 * @throws when a handler has no .ts or .js source.
 */
export function functionEntries(service) {
  const entries = functionFiles(service).flatMap((file) => {
    const fns = parse(readFileSync(path.join(root, file), 'utf8'));
    return Object.values(fns).map(({ handler }) => {
      const base = handler.slice(0, handler.lastIndexOf('.'));
      const entry = ['.ts', '.js'].map((ext) => base + ext).find((f) => existsSync(path.join(root, f)));
      if (!entry) throw new Error(`no source file for handler ${handler}`);
      return entry;
    });
  });
  return [...new Set(entries)];
}

/** esbuild options from custom.esbuild. @throws when an option holds an unresolved serverless variable. */
export function esbuildOptions(service) {
  const { exclude = [], outputFileExtension = '.js', ...rest } = service.custom.esbuild;
  const options = Object.fromEntries(Object.entries(rest).filter(([key]) => !pluginKeys.has(key)));
  for (const [key, value] of Object.entries(options))
    if (JSON.stringify(value).includes('${'))
      throw new Error(`custom.esbuild.${key} uses a variable: resolve it here too`);
  return {
    ...options,
    external: [...(options.external ?? []), ...exclude],
    ...(outputFileExtension === '.js' ? {} : { outExtension: { '.js': outputFileExtension } }),
  };
}

/**
 * Bundles every function into `outdir` (which must not hold other bundles).
 * @returns esbuild's metafile (every input and output).
 * @throws esbuild's error when a source does not compile.
 */
export async function bundleFunctions(outdir, service = readService()) {
  const result = await build({
    ...esbuildOptions(service),
    entryPoints: functionEntries(service),
    outbase: root,
    outdir,
    absWorkingDir: root,
    logLevel: 'error',
    metafile: true,
  });
  return result.metafile;
}
