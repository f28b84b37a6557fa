// `npm start` as users run it, whole process trees, from a fresh data folder:
//   - first start: the function bundles are built (one esbuild call) into the data folder's cache;
//   - restart on the same data folder: the bundles are reused (sources unchanged).
// Each start is timed from spawn to the printed summary (everything up and answering), then
// stopped with Ctrl-C (SIGINT), as a user does. The CPU column is the user+system time of the
// whole tree at exit (children waited for), which depends less on other load than the wall time.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark, BenchRow } from './harness';

const root = path.resolve(import.meta.dirname, '..');
const SUMMARY = 'Stop              Ctrl-C';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

interface Start {
  readonly readyMs: number;
  readonly cpuMs: number;
  readonly bundles: string;
}

/** One `npm start` to its summary and back down; the line saying whether bundles were built or reused. */
async function startOnce(env: NodeJS.ProcessEnv): Promise<Start> {
  // The tree's CPU: a wrapper process starts npm start's script and, once it has exited, adds its
  // own CPU to its waited-for children's (cutime + cstime of /proc/self/stat; Linux).
  const wrapper = `
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, [${JSON.stringify(path.join(root, 'infra/local/start.mjs'))}], { stdio: 'inherit' });
    process.on('SIGINT', () => child.kill('SIGINT'));
    child.on('exit', (code) => {
      const { userCPUTime, systemCPUTime } = require('node:process').resourceUsage();
      const self = (userCPUTime + systemCPUTime) / 1000;
      const ru = require('node:fs').readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
      // After the name: field 3 is at index 0, so cutime and cstime (fields 16, 17) are 13 and 14;
      // clock ticks of 10 ms.
      const children = (Number(ru[13]) + Number(ru[14])) * 10;
      process.stderr.write('\\nCPU-MS ' + Math.round(self + children) + '\\n');
      process.exit(code ?? 1);
    });`;
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', wrapper], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  while (!output.includes(SUMMARY)) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output.slice(-2000)}`);
    if (performance.now() - started > 600_000) {
      child.kill('SIGINT');
      throw new Error('npm start not ready within 10 minutes');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const readyMs = performance.now() - started;
  child.kill('SIGINT');
  const code = await exited;
  if (code !== 0) throw new Error(`npm start exited ${code} on Ctrl-C:\n${output.slice(-2000)}`);
  const cpu = /CPU-MS (\d+)/.exec(output);
  const bundles = /npm start: function bundles (built|reused)[^\n]*/.exec(output)?.[0] ?? 'no bundle line';
  return { readyMs, cpuMs: cpu ? Number(cpu[1]) : NaN, bundles };
}

const bench: Benchmark = {
  name: 'npm-start',
  async run({ progress }) {
    const load = loadavg()[0] ?? NaN;
    const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-npm-start-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      INSIGHTS_DATA_DIR: dataDir,
      INSIGHTS_BUILD_DIR: `.esbuild/bench-npm-start-${process.pid}`,
      INSIGHTS_HTTP_PORT: String(await freePort()),
      INSIGHTS_LAMBDA_PORT: String(await freePort()),
      INSIGHTS_DYNAMODB_PORT: String(await freePort()),
      INSIGHTS_MQTT_PORT: String(await freePort()),
    };
    delete env.INSIGHTS_PREBUILT_DIR;
    try {
      progress('first start (fresh data folder: bundles built, demo data seeded)');
      const first = await startOnce(env);
      progress('restart on the same data folder (bundles reused)');
      const again = await startOnce(env);
      const row = (name: string, s: Start): BenchRow[] => [
        { case: name, metric: 'ready s', value: s.readyMs / 1000, note: s.bundles.replace('npm start: ', '') },
        { case: name, metric: 'CPU s (whole tree)', value: s.cpuMs / 1000 },
      ];
      return [
        { case: 'machine', metric: 'load average (1 min) at start', value: load },
        ...row('first start, fresh data folder', first),
        ...row('restart, same data folder', again),
      ];
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await rm(path.join(root, env.INSIGHTS_BUILD_DIR ?? ''), { recursive: true, force: true });
    }
  },
};

export default bench;
