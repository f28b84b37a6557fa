// `npm run bench [-- --quick] [-- name-filter]`: runs every bench/*.bench.ts, prints one table,
// writes bench/results/<timestamp>.json with the machine's CPU and Node version.
import { readdir, writeFile, mkdir } from 'node:fs/promises';
import { cpus, totalmem, platform, arch } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Benchmark, BenchRow } from './harness';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const filters = args.filter((a) => !a.startsWith('--'));

const files = (await readdir(here)).filter((f) => f.endsWith('.bench.ts')).sort();
const selected = files.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (selected.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ') || '(none found under bench/)'}`);
  process.exit(1);
}

const results: { benchmark: string; rows: readonly BenchRow[]; error?: string }[] = [];
for (const file of selected) {
  const mod = (await import(pathToFileURL(path.join(here, file)).href)) as { default: Benchmark };
  const bench = mod.default;
  process.stderr.write(`▶ ${bench.name} (${file})\n`);
  const started = Date.now();
  try {
    const rows = await bench.run({ quick, progress: (m) => process.stderr.write(`  … ${m}\n`) });
    results.push({ benchmark: bench.name, rows });
    process.stderr.write(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    results.push({ benchmark: bench.name, rows: [], error: message });
    process.stderr.write(`  FAILED: ${message}\n`);
  }
}

const format = (v: number): string =>
  !Number.isFinite(v) ? String(v) : Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3);
const table = results.flatMap((r) =>
  r.error
    ? [[r.benchmark, 'FAILED', '', '', r.error.split('\n')[0] ?? '']]
    : r.rows.map((row) => [r.benchmark, row.case, row.metric, format(row.value), row.note ?? '']),
);
const header = ['benchmark', 'case', 'metric', 'value', 'note'];
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] ?? '').length)));
const line = (cells: readonly string[]): string =>
  cells.map((c, i) => (i === 3 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const row of table) console.log(line(row));

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  platform: platform(),
  arch: arch(),
  node: process.version,
};
await mkdir(path.join(here, 'results'), { recursive: true });
const out = path.join(here, 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
await writeFile(out, JSON.stringify({ date: new Date().toISOString(), quick, machine, results }, null, 2));
console.log(
  `\nmachine: ${machine.cpu} x${machine.cores}, node ${machine.node}; results written to ${path.relative(process.cwd(), out)}`,
);
if (results.some((r) => r.error)) process.exit(1);
