// Starts the whole local stack (`osls offline start`: DynamoDB Local, the MQTT broker and
// serverless-offline) on free ports with a fresh data folder, waits for /health to report every
// component up, and stops the whole process group afterwards (no java or node left behind).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, StopWaiting, waitUntil } from './ports';
import { runBundlesReady } from './run-bundles';

const root = path.resolve(import.meta.dirname, '../..');

export interface OfflineStack {
  readonly httpUrl: string;
  readonly mqttUrl: string;
  readonly dataDir: string;
  readonly ports: { readonly http: number; readonly lambda: number; readonly dynamodb: number; readonly mqtt: number };
  /** Everything the stack printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
  /** Crashes the stack: SIGKILL to its whole process group (java included), nothing orderly. */
  kill(): Promise<void>;
}

export interface OfflineStackOptions {
  /** Extra environment for the stack (e.g. LOG_LEVEL). */
  readonly env?: Readonly<Record<string, string>>;
  readonly keepData?: boolean;
  /** Runs on the fresh data folder before the stack starts (e.g. to load a telemetry database). */
  readonly prepare?: (dataDir: string) => Promise<void>;
  /** Starts on an existing data folder (a restart); it is kept afterwards. */
  readonly dataDir?: string;
  /** Fixed ports (a restart that keeps the token issuer's address); free ones otherwise. */
  readonly ports?: OfflineStack['ports'];
  /** Also appends everything the stack prints to this file (a shared stack's output for other processes). */
  readonly logFile?: string;
}

export async function startOfflineStack(options: OfflineStackOptions = {}): Promise<OfflineStack> {
  const ports = options.ports ?? {
    http: await freePort(),
    lambda: await freePort(),
    dynamodb: await freePort(),
    mqtt: await freePort(),
  };
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'insights-stack-')));
  const keepData = options.keepData || options.dataDir !== undefined;
  const buildDir = `.esbuild/test-${path.basename(dataDir)}`;
  await mkdir(path.join(dataDir, 'dynamodb'), { recursive: true });
  await options.prepare?.(dataDir);
  // The run's bundles may still be building (test/support/global-run.ts).
  await runBundlesReady();
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(root, 'node_modules/osls/bin/serverless.js'), 'offline', 'start'],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        UV_THREADPOOL_SIZE: '16', // as npm start sets it: queries never take every thread from token checks
        ...options.env,
        INSIGHTS_DATA_DIR: dataDir,
        INSIGHTS_HTTP_PORT: String(ports.http),
        INSIGHTS_LAMBDA_PORT: String(ports.lambda),
        INSIGHTS_DYNAMODB_PORT: String(ports.dynamodb),
        INSIGHTS_MQTT_PORT: String(ports.mqtt),
        // Each stack builds into its own folder so that parallel stacks never share build output.
        INSIGHTS_BUILD_DIR: buildDir,
      },
    },
  );
  // If this process dies without calling stop() (a crashed test or benchmark), take the detached
  // stack group down with it, so no java or node process is left behind.
  const killGroup = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  process.once('exit', killGroup);
  let output = '';
  const log = options.logFile === undefined ? undefined : createWriteStream(options.logFile, { flags: 'a' });
  const collect = (d: Buffer): void => {
    output += d.toString();
    log?.write(d);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const httpUrl = `http://127.0.0.1:${ports.http}`;

  const stop = async (): Promise<void> => {
    process.off('exit', killGroup);
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      // As npm start does: SIGINT to the stack process only, which stops the broker, the servers
      // and DynamoDB Local in that order; then whatever is left of the group is killed.
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(child.pid, 'SIGINT');
      } catch {
        /* already gone */
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* the group is gone */
      }
    }
    log?.end();
    await rm(path.join(root, buildDir), { recursive: true, force: true });
    if (!keepData) await rm(dataDir, { recursive: true, force: true });
  };

  const kill = async (): Promise<void> => {
    process.off('exit', killGroup);
    log?.end();
    const exited =
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((r) => child.once('exit', r));
    killGroup();
    await exited;
    // The group's other processes (java) die with the signal too; wait until none is left.
    for (let waited = 0; waited < 10_000; waited += 100) {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 0);
      } catch {
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await rm(path.join(root, buildDir), { recursive: true, force: true });
  };

  try {
    await waitUntil(
      async () => {
        // Polling on could only end in the time limit; the output below says why it exited.
        if (child.exitCode !== null) throw new StopWaiting(`the offline stack exited with ${child.exitCode}`);
        const response = await fetch(`${httpUrl}/health`);
        if (response.status !== 200) return false;
        const body = (await response.json()) as { status: string };
        return body.status === 'up';
        // Ready in 3-6 s on an idle machine; several minutes were seen with 2 cores shared by many.
      },
      150_000,
      `the offline stack at ${httpUrl}/health`,
    );
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- stack output ---\n${output}`);
  }
  return { httpUrl, mqttUrl: `mqtt://127.0.0.1:${ports.mqtt}`, dataDir, ports, output: () => output, stop, kill };
}
