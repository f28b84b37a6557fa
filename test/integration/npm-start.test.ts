// `npm start` as a newcomer meets it: one summary with URLs and credentials, data kept across a
// restart, and Ctrl-C leaves nothing behind. The one-line refusals (busy port, missing Java) start
// no stack: npm-start-checks.test.ts.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectBundleInputs, projectBundleKey } from '../../infra/local/bundle-cache.mjs';
import { journalDrained } from '../support/iot-journal';
import { freePort, waitUntil } from '../support/ports';
import { runBundlesReady } from '../support/run-bundles';

const root = path.resolve(import.meta.dirname, '../..');
const script = path.join(root, 'infra/local/start.mjs');

interface Started {
  readonly child: ChildProcess;
  output(): string;
}

describe('npm start', { timeout: 360_000 }, () => {
  let dataDir: string;
  let env: Record<string, string>;
  const buildDir = `.esbuild/test-npm-start-${process.pid}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
    env = {
      ...(process.env as Record<string, string>),
      INSIGHTS_DATA_DIR: dataDir,
      INSIGHTS_BUILD_DIR: buildDir,
      INSIGHTS_HTTP_PORT: String(await freePort()),
      INSIGHTS_LAMBDA_PORT: String(await freePort()),
      INSIGHTS_DYNAMODB_PORT: String(await freePort()),
      INSIGHTS_MQTT_PORT: String(await freePort()),
    };
    // npm start bundles for itself (its cache in the data folder), not the test run's bundles.
    delete env.INSIGHTS_PREBUILT_DIR;
    seededKey = await seedBundleCache();
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(path.join(root, buildDir), { recursive: true, force: true });
  });

  /**
   * The run's bundles are an entry of npm start's own bundle cache, built by the cache's code for
   * these sources (test/support/prebuilt-bundles.ts): linked into the data folder's cache, the first
   * start finds them, so the run bundles the functions once instead of twice (about 7 s of CPU).
   * The cache's build is the run's real one; start.mjs's choice between building and reusing is
   * checked on both starts. Without such an entry (a caller's own INSIGHTS_PREBUILT_DIR), the first
   * start builds.
   * @returns the key it was seeded under, or undefined.
   */
  async function seedBundleCache(): Promise<string | undefined> {
    await runBundlesReady();
    const run = process.env.INSIGHTS_PREBUILT_DIR;
    if (!run || !existsSync(path.join(run, 'bundles.json'))) return undefined;
    const { key } = JSON.parse(await readFile(path.join(run, 'bundles.json'), 'utf8')) as { key: string };
    // Built for exactly these sources: the key npm start computes.
    expect(key).toBe((await projectBundleKey()).key);
    await mkdir(path.join(dataDir, 'bundles'), { recursive: true });
    await symlink(await realpath(run), path.join(dataDir, 'bundles', key), 'dir');
    return key;
  }
  let seededKey: string | undefined;

  async function start(): Promise<Started> {
    const child = spawn(process.execPath, [script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
        return output.includes('Stop              Ctrl-C');
      },
      240_000,
      'the start-up summary',
    );
    return { child, output: () => output };
  }

  async function interrupt(started: Started): Promise<number | null> {
    const exited = new Promise<number | null>((r) => started.child.once('exit', (code) => r(code)));
    started.child.kill('SIGINT');
    return exited;
  }

  /**
   * What is still running of this test's stacks: DynamoDB Local by its port, and every process that
   * carries the test's data folder in its environment (osls, the gateway, java: all inherit it).
   * Their command lines do not name the folder, so /proc is read (Linux, as the CI machine).
   */
  const leftovers = () => {
    const mark = `INSIGHTS_DATA_DIR=${dataDir}\0`;
    const byEnvironment = readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
      .flatMap((p) => {
        try {
          if (!readFileSync(`/proc/${p}/environ`, 'latin1').includes(mark)) return [];
          return [`${p}: ${readFileSync(`/proc/${p}/cmdline`, 'latin1').replaceAll('\0', ' ')}`];
        } catch {
          return []; // gone, or not ours to read
        }
      });
    const byPort = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
      .split('\n')
      .filter(
        (l) => l.includes(`-port ${env.INSIGHTS_DYNAMODB_PORT} `) || l.endsWith(`-port ${env.INSIGHTS_DYNAMODB_PORT}`),
      );
    return [...byEnvironment, ...byPort];
  };

  /** The ```sh demo blocks of README.md and docs/*.md, with the `# answer contains:` lines of each. */
  const docExamples = async () => {
    const files = [
      'README.md',
      ...(await readdir(path.join(root, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
    ];
    const examples: { where: string; script: string; answers: string[] }[] = [];
    for (const file of files) {
      const text = await readFile(path.join(root, file), 'utf8');
      for (const match of text.matchAll(/^```sh demo\n([\s\S]*?)^```$/gm)) {
        const script = match[1] ?? '';
        const answers = [...script.matchAll(/^# answer contains: (.+)$/gm)].map((m) => m[1] ?? '');
        examples.push({ where: `${file}, example at offset ${match.index}`, script, answers });
      }
    }
    return examples;
  };
  /** The admin CLI as a user runs it, with only the data folder (and `extra`) in its environment. */
  const admin = (args: readonly string[], extra: Record<string, string> = {}) => {
    const clean = Object.fromEntries(
      Object.entries(env).filter(([k]) => !/^INSIGHTS_(HTTP|LAMBDA|DYNAMODB|MQTT)_PORT$/.test(k)),
    );
    return spawnSync(process.execPath, [path.join(root, 'lib/cli/insights-admin.mjs'), ...args], {
      cwd: root,
      env: { ...clean, ...extra },
      encoding: 'utf8',
      timeout: 60_000,
    });
  };
  const api = () => `http://127.0.0.1:${env.INSIGHTS_HTTP_PORT}/maintenance/v1/plants/demo-plant-1`;
  let maintenanceToken = '';
  const createTask = async (title: string) => {
    const response = await fetch(`${api()}/tasks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${maintenanceToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        taskTitle: title,
        activityKind: 'Inspection',
        assignedToRole: 'Mechanic',
        priority: 'High',
        createdDate: '2026-02-10',
        asset: { tagNumber: 'P-101' },
      }),
    });
    return { status: response.status, body: (await response.json()) as { status: string; message: string | null } };
  };
  const taskTitles = async () => {
    const titles: string[] = [];
    for (let page = 1; ; page++) {
      const body = (await (
        await fetch(`${api()}/tasks?pageSize=1000&page=${page}`, {
          headers: { Authorization: `Bearer ${maintenanceToken}` },
        })
      ).json()) as { data: { taskTitle: string }[]; totalPages: number };
      titles.push(...body.data.map((t) => t.taskTitle));
      if (page >= body.totalPages) return titles;
    }
  };

  it('starts everything, prints one summary with credentials, and stops cleanly on Ctrl-C', async () => {
    const started = await start();
    try {
      const text = started.output();
      expect(text).toContain(`http://127.0.0.1:${env.INSIGHTS_HTTP_PORT}/health`);
      expect(text).toContain(`mqtt://127.0.0.1:${env.INSIGHTS_MQTT_PORT}`);
      expect(text).toContain(dataDir);
      expect(text).toContain('Demo tenant created');
      expect(text).toMatch(/client_secret \S+/);
      expect(text.match(/local stack ready/g)).toHaveLength(1);
      // The functions are bundled into the data folder's cache, under the sources' key: by this
      // first start, or by the run's build that seeded the cache (seedBundleCache).
      const { key } = await projectBundleKey();
      if (seededKey === undefined) {
        expect(text).toMatch(/npm start: function bundles built in [\d.]+ s into (\S+) \(first start/);
        expect(/function bundles built in [\d.]+ s into (\S+)/.exec(text)?.[1]).toBe(
          path.join(dataDir, 'bundles', key),
        );
      } else {
        expect(seededKey).toBe(key);
        expect(/function bundles reused from (\S+) \(sources unchanged/.exec(text)?.[1]).toBe(
          path.join(dataDir, 'bundles', key),
        );
        expect(text).not.toContain('function bundles built');
      }
      // Every source esbuild read is one the key covers (packages are covered by package-lock.json).
      const { inputs } = JSON.parse(await readFile(path.join(dataDir, 'bundles', key, 'bundles.json'), 'utf8')) as {
        inputs: string[];
      };
      const covered = new Set(await projectBundleInputs());
      expect(inputs.filter((f) => f.startsWith('functions/')).length).toBeGreaterThan(10);
      expect(inputs.filter((f) => !f.startsWith('node_modules/') && !covered.has(f))).toEqual([]);
      const health = await fetch(`http://127.0.0.1:${env.INSIGHTS_HTTP_PORT}/health`);
      expect(health.status).toBe(200);
      // A write before the restart, to read back after it.
      const link = /curl -s \S+\/maintenance\/v1\/token-links\/(\S+)/.exec(text)?.[1];
      const linked = (await (
        await fetch(`http://127.0.0.1:${env.INSIGHTS_HTTP_PORT}/maintenance/v1/token-links/${link}`)
      ).json()) as { accessToken?: string };
      expect(linked.accessToken, JSON.stringify(linked)).toEqual(expect.any(String));
      maintenanceToken = linked.accessToken ?? '';
      expect(await createTask('before restart')).toMatchObject({ status: 200, body: { status: 'SUCCESS' } });
      // Demo telemetry: a day of history through the broker, then live values of the simulated gateway.
      expect(text).toMatch(/Demo telemetry .*a day of values published now \(\d+ messages\)/);
      // The window was recorded and marked done once acknowledged (a restart does not publish it again).
      const history = JSON.parse(await readFile(path.join(dataDir, 'demo-telemetry.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(history).toMatchObject({
        state: 'done',
        messages: Number(/published now \((\d+) messages\)/.exec(text)?.[1]),
      });
      expect(Number(history.to) - Number(history.from)).toBe(86_400_000);
      const clientId = /client_id=(\S+)/.exec(text)?.[1] ?? '';
      const clientSecret = /client_secret=(\S+)/.exec(text)?.[1] ?? '';
      const http = `http://127.0.0.1:${env.INSIGHTS_HTTP_PORT}`;
      const token = (await (
        await fetch(`${http}/oauth2/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: clientId,
            client_secret: clientSecret,
          }),
        })
      ).json()) as { access_token: string };
      const count = async (kql: string, hours: number): Promise<number> => {
        const response = await fetch(`${http}/insights/v1/telemetry/query/table`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token.access_token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            query: kql,
            startTime: new Date(Date.now() - hours * 3_600_000).toISOString(),
            endTime: new Date(Date.now() + 60_000).toISOString(),
          }),
        });
        const body = (await response.json()) as { data?: { rows: number[][] } };
        return body.data?.rows[0]?.[0] ?? -1;
      };
      // 4 devices x 288 five-minute messages x 4 signals x 5 values, all stored (the history is acknowledged before the summary).
      // The broker's journal says when what it acknowledged is processed: queried only then (a
      // query every 100 ms took CPU from the ingest being waited for).
      await waitUntil(
        async () =>
          (await journalDrained(dataDir)) &&
          (await count('States | where Timestamp < ago(2m) | count', 25)) >= 4 * 288 * 4 * 5 - 4 * 4 * 5,
        60_000,
        'a day of demo states',
      );
      expect(await count('Events | where Name == "over-temperature" | summarize dcount(DeviceId)', 25)).toBe(4);
      const live = await count('States | where Timestamp > ago(2m) | count', 1);
      await waitUntil(
        async () => (await count('States | where Timestamp > ago(2m) | count', 1)) > live,
        30_000,
        'live values from the simulated gateway',
      );
      // The CLIs follow the running stack (its stack.json) without the port variables.
      const listed = admin(['customers', 'list', '--json']);
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('"demo"');
      // Every runnable example of the docs (```sh demo blocks) works as written against the demo
      // data, and answers what the docs say it answers.
      const examples = await docExamples();
      expect(examples.length).toBeGreaterThanOrEqual(3);
      for (const example of examples) {
        const run = spawnSync(
          'bash',
          ['-o', 'pipefail', '-c', example.script.replaceAll('http://localhost:3000', http)],
          {
            encoding: 'utf8',
            timeout: 60_000,
            env: {
              PATH: process.env.PATH ?? '',
              CLIENT_ID: clientId,
              CLIENT_SECRET: clientSecret,
              T: maintenanceToken,
            },
          },
        );
        const where = `${example.where}:\n${run.stdout}${run.stderr}`;
        expect(run.status, where).toBe(0);
        expect(run.stdout, where).not.toContain('"status":"ERROR"');
        for (const fragment of example.answers)
          expect(run.stdout.toLowerCase(), `${where}\nmissing: ${fragment}`).toContain(fragment.toLowerCase());
      }
    } finally {
      expect(await interrupt(started)).toBe(0);
    }
    await waitUntil(async () => leftovers().length === 0, 10_000, 'no process left');
    // Stopped: the CLI says which address it tried and what to do, in one line.
    const refused = admin(['customers', 'list'], { INSIGHTS_DYNAMODB_PORT: env.INSIGHTS_DYNAMODB_PORT ?? '' });
    expect(refused.status).toBe(1);
    expect(
      refused.stderr
        .trim()
        .split('\n')
        .filter((l) => l.includes('nothing answers')),
    ).toEqual([
      expect.stringContaining(
        `nothing answers on 127.0.0.1:${env.INSIGHTS_DYNAMODB_PORT} (DynamoDB Local of the local stack; port ${env.INSIGHTS_DYNAMODB_PORT} from INSIGHTS_DYNAMODB_PORT)`,
      ),
    ]);
  });

  it('restarts on the kept data with the cached bundles, and leaves nothing running when npm start is killed outright', async () => {
    const started = await start();
    try {
      // The sources did not change since the first start: its bundles are used as they are.
      expect(started.output()).toMatch(/npm start: function bundles reused from \S+ \(sources unchanged/);
      expect(started.output()).not.toContain('function bundles built');
      // The data is kept: the demo is not seeded twice, and DynamoDB Local still has unique keys.
      expect(started.output()).toContain('Demo tenant (already seeded earlier)');
      expect((await taskTitles()).filter((t) => t === 'before restart')).toHaveLength(1);
      // A second task in the same month writes the month's counter again: with a database whose
      // keys lost their uniqueness (DynamoDB Local's optimizeDbBeforeStartup) this answered 500.
      const second = await createTask('after restart');
      expect(second).toMatchObject({ status: 200, body: { status: 'SUCCESS' } });
      const titles = await taskTitles();
      expect(titles.filter((t) => t === 'before restart' || t === 'after restart').sort()).toEqual([
        'after restart',
        'before restart',
      ]);
    } finally {
      // Killed outright whatever the checks above found: what follows holds either way.
      started.child.kill('SIGKILL');
    }
    // The stack notices that its parent is gone and stops in order: ports free, no java, no osls.
    await waitUntil(async () => leftovers().length === 0, 60_000, 'the stack to stop after its parent died');
    const blocker = createServer();
    await new Promise<void>((resolve, reject) => {
      blocker.once('error', reject);
      blocker.listen(Number(env.INSIGHTS_HTTP_PORT), '127.0.0.1', () => resolve());
    });
    await new Promise((r) => blocker.close(r));
  });
});
