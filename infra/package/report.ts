// `npm run package`: packages the service with osls for a deployed stage (offline: no AWS
// account or credentials needed) and prints each function's zipped size. Exits 1 when a package
// is 1 MB or more, or holds DuckDB (the embedded engine never ships to Lambda).
// Usage: tsx infra/package/report.ts [--stage NAME] [--package DIR]
import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readZipEntries } from './zip';

export const MAX_ZIP_BYTES = 1024 * 1024;
const root = path.resolve(import.meta.dirname, '../..');

export interface FunctionPackage {
  readonly functionKey: string;
  readonly zipBytes: number;
  readonly unzippedBytes: number;
  readonly files: readonly string[];
  /** Entries that belong to DuckDB (must be none). */
  readonly duckdb: readonly string[];
}

export interface PackageResult {
  readonly dir: string;
  readonly packages: readonly FunctionPackage[];
  readonly templateFile: string;
}

/** Runs `osls package` into `dir`. @throws Error with osls's output when it fails. */
export async function packageService(options: { stage: string; dir: string; buildDir?: string }): Promise<PackageResult> {
  const args = [path.join(root, 'node_modules/osls/bin/serverless.js'), 'package', '--stage', options.stage, '--package', options.dir];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      // A build folder of its own, so packaging never disturbs a running `npm start`.
      env: { ...process.env, INSIGHTS_BUILD_DIR: options.buildDir ?? `.esbuild/package-${options.stage}`, SLS_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`osls package exited with ${code}:\n${text}`))));
  });
  const zips = (await readdir(options.dir)).filter((f) => f.endsWith('.zip')).sort();
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
      };
    }),
  );
  return { dir: options.dir, packages, templateFile: path.join(options.dir, 'cloudformation-template-update-stack.json') };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export function renderReport(result: PackageResult): { text: string; ok: boolean } {
  const width = Math.max(8, ...result.packages.map((p) => p.functionKey.length));
  const lines = [`${'function'.padEnd(width)}  ${'zipped'.padStart(8)}  ${'unzipped'.padStart(9)}  check`];
  let ok = true;
  for (const p of result.packages) {
    const problems = [...(p.zipBytes >= MAX_ZIP_BYTES ? ['1 MB or more'] : []), ...(p.duckdb.length > 0 ? [`DuckDB inside: ${p.duckdb[0]}`] : [])];
    ok &&= problems.length === 0;
    lines.push(`${p.functionKey.padEnd(width)}  ${kb(p.zipBytes).padStart(8)}  ${kb(p.unzippedBytes).padStart(9)}  ${problems.join('; ') || 'ok'}`);
  }
  const total = result.packages.reduce((sum, p) => sum + p.zipBytes, 0);
  lines.push(`${result.packages.length} functions, ${kb(total)} zipped in ${path.relative(process.cwd(), result.dir) || '.'}; limit ${kb(MAX_ZIP_BYTES)} each, no DuckDB`);
  return { text: `${lines.join('\n')}\n`, ok };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { stage: { type: 'string', default: 'dev' }, package: { type: 'string', default: '.serverless' } } });
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
