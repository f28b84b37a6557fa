// The function bundles, built once for a test run and served by every offline stack of the run
// (infra/local/prebuilt-plugin.mjs reads INSIGHTS_PREBUILT_DIR). Each stack used to bundle all
// functions itself with serverless-esbuild: about 15 s of CPU per start, a dozen starts per run.
// The options are serverless.yml's own `custom.esbuild`, passed to esbuild as serverless-esbuild
// passes them (its own keys taken out, `exclude` made external), so a stack runs the same code.
// One esbuild call with every entry point gives the same files as one call per entry (no code
// splitting), in the layout serverless-esbuild writes: <dir>/functions/<area>/<name>.cjs.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '../..');

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

interface Service {
  custom: { esbuild: Record<string, unknown> & { exclude?: string[]; outputFileExtension?: string } };
  functions: string[];
}

/** The source file of every function's handler, as serverless-esbuild finds it (`a/b.handler` -> a/b.ts). */
export function functionEntries(service: Service): string[] {
  const entries = service.functions.flatMap((ref) => {
    const file = /^\$\{file\((.+)\)\}$/.exec(ref)?.[1];
    if (!file) throw new Error(`serverless.yml functions: expected \${file(...)}, got ${ref}`);
    const fns = parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, { handler: string }>;
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
export function esbuildOptions(service: Service): BuildOptions {
  const { exclude = [], outputFileExtension = '.js', ...rest } = service.custom.esbuild;
  const options = Object.fromEntries(Object.entries(rest).filter(([key]) => !pluginKeys.has(key)));
  for (const [key, value] of Object.entries(options))
    if (JSON.stringify(value).includes('${'))
      throw new Error(`custom.esbuild.${key} uses a variable: resolve it here too`);
  return {
    ...options,
    external: [...((options.external as string[] | undefined) ?? []), ...exclude],
    ...(outputFileExtension === '.js' ? {} : { outExtension: { '.js': outputFileExtension } }),
  };
}

export interface PrebuiltBundles {
  readonly dir: string;
  remove(): Promise<void>;
}

/** Bundles every function into a fresh folder under .esbuild/ (inside the tree: externals resolve from node_modules). */
export async function buildFunctionBundles(): Promise<PrebuiltBundles> {
  const service = parse(readFileSync(path.join(root, 'serverless.yml'), 'utf8')) as Service;
  const dir = path.join(root, '.esbuild', `prebuilt-${randomBytes(4).toString('hex')}`);
  await build({
    ...esbuildOptions(service),
    entryPoints: functionEntries(service),
    outbase: root,
    outdir: dir,
    absWorkingDir: root,
    logLevel: 'error',
  });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
