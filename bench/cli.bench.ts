// The CLIs as users run them (`node lib/cli/<bin>.mjs`, what `npx gdm` starts), whole processes:
//   - start-up: `gdm --version`, `gdm --help`, `insights-admin --help` (goal: gdm --version < 150 ms);
//   - `gdm validate` of a 5,000-message NDJSON file beside a node process that only reads, parses
//     and stringifies the same file (goal: within 2x of that floor).
// Runs the bundled CLIs (built by npm ci's prepare; rebuilt here first so the figures are theirs)
// and, for the record, the TypeScript sources through tsx.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { toEdge } from '../lib/gdm';
import { createMessageGenerator } from '../lib/gdm/simulator';
import { percentile, type Benchmark, type BenchRow } from './harness';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string): string => path.join(root, 'lib/cli', `${name}.mjs`);

/** Median wall time (ms) of `runs` runs of node with these arguments; each must exit with `status`. */
function timeProcess(args: readonly string[], runs: number, status = 0, env: NodeJS.ProcessEnv = process.env): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, args, {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    samples.push(performance.now() - started);
    if (run.status !== status)
      throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  }
  return percentile(samples, 50);
}

function messagesFile(count: number): string {
  let seed = 7;
  const random = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const generate = createMessageGenerator({
    devices: 10,
    items: 10,
    values: 10,
    types: ['state'],
    plantId: 'plant-1',
    keepAliveIntervalMs: 60_000,
    random,
  });
  const at = new Date('2026-11-01T10:00:00Z');
  const lines = Array.from({ length: count }, () => JSON.stringify(toEdge(generate(at), { now: () => at })));
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'bench-cli-')), 'messages.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const bench: Benchmark = {
  name: 'cli',
  async run(ctx) {
    const runs = ctx.quick ? 3 : 10;
    ctx.progress('building the bundled CLIs (npm run build:cli)');
    execFileSync(process.execPath, [path.join(root, 'infra/cli/build.mjs')], { cwd: root, stdio: 'ignore' });
    const rows: BenchRow[] = [];
    ctx.progress('start-up');
    const nodeAlone = timeProcess(['-e', '0'], runs);
    rows.push({ case: 'node -e 0 (the floor of any CLI)', metric: 'median ms', value: nodeAlone });
    const version = timeProcess([bin('gdm'), '--version'], runs);
    rows.push({ case: 'gdm --version', metric: 'median ms', value: version, note: 'goal < 150 ms' });
    rows.push({
      case: 'gdm --help (bundle loaded)',
      metric: 'median ms',
      value: timeProcess([bin('gdm'), '--help'], runs),
    });
    rows.push({
      case: 'insights-admin --help (bundle loaded)',
      metric: 'median ms',
      value: timeProcess([bin('insights-admin'), '--help'], runs),
    });

    const count = ctx.quick ? 1000 : 5000;
    ctx.progress(`gdm validate of ${count} messages against parse + stringify of the same file`);
    const file = messagesFile(count);
    const floorScript = `const t = require('fs').readFileSync(${JSON.stringify(file)}, 'utf8'); for (const l of t.split('\\n')) if (l) JSON.stringify(JSON.parse(l));`;
    const floor = timeProcess(['-e', floorScript], runs);
    const validate = timeProcess([bin('gdm'), 'validate', file], runs);
    rows.push({
      case: `node: read + JSON.parse + JSON.stringify, ${count} messages of 10x10`,
      metric: 'median ms',
      value: floor,
    });
    rows.push({
      case: `gdm validate, ${count} messages of 10x10`,
      metric: 'median ms',
      value: validate,
      note: `${(validate / floor).toFixed(2)}x the floor (goal <= 2x)`,
    });

    ctx.progress('the TypeScript sources through tsx, for the record');
    const touched = { ...process.env, INSIGHTS_CLI_FROM_SOURCES: '1' };
    rows.push({
      case: 'gdm --help from the sources (tsx)',
      metric: 'median ms',
      value: timeProcess([bin('gdm'), '--help'], Math.min(runs, 3), 0, touched),
    });
    return rows;
  },
};

export default bench;
