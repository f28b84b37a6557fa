// `npm run package`: packages the service with osls for a deployed stage (offline: no AWS
// account or credentials needed) and prints each function's zipped size. Exits 1 when a package
// is 1 MB or more, or holds DuckDB (the embedded engine never ships to Lambda). The playground's
// static files (lib/playground/dist/**, read on request, never loaded as code at cold start) are
// left out of the 1 MB; a zip with them stays under Lambda's 50 MB direct-upload limit.
// Usage: tsx infra/package/report.ts [--stage NAME] [--package DIR]
import { spawn } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readZipEntries } from './zip';

export const MAX_ZIP_BYTES = 1024 * 1024;
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Files served as they are, not code: their bytes count toward the upload limit only. */
const STATIC_FILES = /^lib\/playground\/dist\//;
const root = path.resolve(import.meta.dirname, '../..');

export interface FunctionPackage {
  readonly functionKey: string;
  readonly zipBytes: number;
  readonly unzippedBytes: number;
  readonly files: readonly string[];
  /** Entries that belong to DuckDB (must be none). */
  readonly duckdb: readonly string[];
  /** Source maps in the zip (`*.map`). */
  readonly sourceMaps: readonly string[];
  /** The function's NODE_OPTIONS asks Node for source maps, which is only worth it with maps inside. */
  readonly enableSourceMaps: boolean;
  /** Zipped bytes of static files (STATIC_FILES), which are not code. */
  readonly staticZipBytes?: number;
}

export interface PackageResult {
  readonly dir: string;
  readonly packages: readonly FunctionPackage[];
  readonly templateFile: string;
}

/** Runs osls with `args`; resolves with its stdout. @throws Error with its output when it fails. */
function osls(args: readonly string[], buildDir: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules/osls/bin/serverless.js'), ...args], {
      cwd: root,
      // A build folder of its own, so packaging never disturbs a running `npm start`.
      env: { ...process.env, INSIGHTS_BUILD_DIR: buildDir, SLS_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let text = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      text += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`osls ${args[0]} exited with ${code}:\n${text}`)),
    );
  });
}

/**
 * The service's configuration as osls resolves it for a stage and `--param` overrides (`osls
 * print`: no build, no credentials), e.g. to see what a redeploy with `timestreamExisting` makes.
 * @throws Error with osls's output when it fails.
 */
export async function printService(options: {
  stage: string;
  params?: Readonly<Record<string, string>>;
}): Promise<Record<string, unknown>> {
  const params = Object.entries(options.params ?? {}).map(([key, value]) => `--param=${key}=${value}`);
  const text = await osls(
    ['print', '--stage', options.stage, ...params, '--format', 'json'],
    `.esbuild/print-${options.stage}`,
  );
  return JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>;
}

/** Runs `osls package` into `dir`. @throws Error with osls's output when it fails. */
export async function packageService(options: {
  stage: string;
  dir: string;
  buildDir?: string;
}): Promise<PackageResult> {
  await osls(
    ['package', '--stage', options.stage, '--package', options.dir],
    options.buildDir ?? `.esbuild/package-${options.stage}`,
  );
  const zips = (await readdir(options.dir)).filter((f) => f.endsWith('.zip')).sort();
  const templateFile = path.join(options.dir, 'cloudformation-template-update-stack.json');
  const nodeOptions = functionNodeOptions(JSON.parse(await readFile(templateFile, 'utf8')));
  const packages = await Promise.all(
    zips.map(async (zip): Promise<FunctionPackage> => {
      const file = path.join(options.dir, zip);
      const entries = await readZipEntries(file);
      return {
        functionKey: zip.slice(0, -'.zip'.length),
        zipBytes: (await stat(file)).size,
        unzippedBytes: entries.reduce((sum, e) => sum + e.size, 0),
        files: entries.map((e) => e.name),
        duckdb: entries.map((e) => e.name).filter((name) => /duckdb/i.test(name)),
        sourceMaps: entries.map((e) => e.name).filter((name) => name.endsWith('.map')),
        enableSourceMaps: /--enable-source-maps/.test(nodeOptionsOf(nodeOptions, zip.slice(0, -'.zip'.length))),
        staticZipBytes: entries.filter((e) => STATIC_FILES.test(e.name)).reduce((sum, e) => sum + e.compressedSize, 0),
      };
    }),
  );
  return { dir: options.dir, packages, templateFile };
}

type Template = {
  Resources: Record<
    string,
    { Type: string; Properties: { FunctionName?: unknown; Environment?: { Variables?: Record<string, unknown> } } }
  >;
};

/** NODE_OPTIONS of each function, by name (`<service>-<stage>-<key>`; osls names the zip `<key>.zip`). */
function functionNodeOptions(template: Template): Map<string, string> {
  const options = new Map<string, string>();
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function' || typeof resource.Properties.FunctionName !== 'string') continue;
    options.set(
      resource.Properties.FunctionName,
      String(resource.Properties.Environment?.Variables?.NODE_OPTIONS ?? ''),
    );
  }
  return options;
}

function nodeOptionsOf(options: Map<string, string>, functionKey: string): string {
  for (const [name, value] of options) if (name.endsWith(`-${functionKey}`)) return value;
  return '';
}

/** What is wrong with one package, in words; empty when nothing. */
export function packageProblems(p: FunctionPackage): string[] {
  return [
    ...(p.zipBytes - (p.staticZipBytes ?? 0) >= MAX_ZIP_BYTES ? ['1 MB or more of code'] : []),
    ...(p.zipBytes >= MAX_UPLOAD_BYTES ? ['50 MB or more (Lambda direct upload limit)'] : []),
    ...(p.duckdb.length > 0 ? [`DuckDB inside: ${p.duckdb[0]}`] : []),
    // The flag without maps costs start-up time and gives nothing.
    ...(p.enableSourceMaps && p.sourceMaps.length === 0
      ? ['NODE_OPTIONS has --enable-source-maps but the zip has no source map']
      : []),
  ];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export function renderReport(result: PackageResult): { text: string; ok: boolean } {
  const width = Math.max(8, ...result.packages.map((p) => p.functionKey.length));
  const lines = [`${'function'.padEnd(width)}  ${'zipped'.padStart(8)}  ${'unzipped'.padStart(9)}  check`];
  let ok = true;
  for (const p of result.packages) {
    const problems = packageProblems(p);
    ok &&= problems.length === 0;
    lines.push(
      `${p.functionKey.padEnd(width)}  ${kb(p.zipBytes).padStart(8)}  ${kb(p.unzippedBytes).padStart(9)}  ${problems.join('; ') || 'ok'}`,
    );
  }
  const total = result.packages.reduce((sum, p) => sum + p.zipBytes, 0);
  lines.push(
    `${result.packages.length} functions, ${kb(total)} zipped in ${path.relative(process.cwd(), result.dir) || '.'}; limit ${kb(MAX_ZIP_BYTES)} each, no DuckDB`,
  );
  const withMaps = result.packages.filter((p) => p.sourceMaps.length > 0).length;
  const withFlag = result.packages.filter((p) => p.enableSourceMaps).length;
  lines.push(
    `source maps: in ${withMaps} of ${result.packages.length} zips; NODE_OPTIONS --enable-source-maps in ${withFlag}`,
  );
  return { text: `${lines.join('\n')}\n`, ok };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { stage: { type: 'string', default: 'dev' }, package: { type: 'string', default: '.serverless' } },
  });
  const dir = path.resolve(values.package);
  process.stderr.write(`packaging stage ${values.stage} into ${dir} ...\n`);
  const result = await packageService({ stage: values.stage, dir });
  const { text, ok } = renderReport(result);
  process.stdout.write(text);
  return ok ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().then(
    (code) => (process.exitCode = code),
    (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    },
  );
}
