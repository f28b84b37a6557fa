// vitest globalSetup of the projects on the shared offline stack: one stack for the files that
// only read and write their own tenant (test/support/shared-stack.ts), instead of one per file.
// It starts in the background: vitest runs no test file until every project's setup has returned,
// and most files (all unit files) need no stack. Its ports, data folder and log file are chosen
// here and provided at once; sharedOfflineStack() waits for its health, or reads why it failed.
// The stack's output goes to the log file, so a test file can check what the stack logged.
// `integration-stack` and `integration-alone` both list this setup and get the same stack: the
// second project's files run after the first's, on a stack then idle.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startOfflineStack, type OfflineStack } from './offline-stack';
import { freePort } from './ports';
import type { SharedStackInfo } from './shared-stack';
// What is provided is declared (ProvidedContext) beside its reader, test/support/shared-stack.ts.

/**
 * The shared stack's settings beyond the defaults. Query hardening (integration-alone) runs slow
 * queries to the time limit, twice, alone at the end of the run with the other worker idle: 5 s
 * instead of the default 20 s. Its checks need only that a print 1 and /health answer within that
 * time while the slow ones run. In the 13 logged CI runs of 2026-11-26, no test of the other
 * files on this stack took a second, except one that sends 157 queries in a row.
 */
export const sharedStackEnv = { QUERY_TIMEOUT_MS: '5000' } as const;

interface Launch {
  readonly info: SharedStackInfo;
  readonly starting: Promise<OfflineStack | undefined>;
  users: number;
}
const slot = Symbol.for('industrial-insights.shared-stack');
type Shared = { [slot]?: Launch };

async function launch(): Promise<Launch> {
  const id = randomBytes(4).toString('hex');
  const logFile = path.join(tmpdir(), `insights-stack-${id}.log`);
  const failureFile = `${logFile}.failed`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'insights-stack-'));
  const ports = {
    http: await freePort(),
    lambda: await freePort(),
    dynamodb: await freePort(),
    mqtt: await freePort(),
  };
  const starting = startOfflineStack({ logFile, dataDir, ports, env: sharedStackEnv }).catch(async (error: unknown) => {
    // The message carries the stack's output; every file on the stack shows it.
    await writeFile(failureFile, (error as Error).message);
    return undefined;
  });
  const info: SharedStackInfo = {
    httpUrl: `http://127.0.0.1:${ports.http}`,
    mqttUrl: `mqtt://127.0.0.1:${ports.mqtt}`,
    dataDir,
    ports,
    logFile,
    failureFile,
  };
  return { info, starting, users: 0 };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = globalThis as Shared;
  const current = (shared[slot] ??= await launch());
  current.users++;
  project.provide('offlineStack', current.info);
  return async () => {
    if (--current.users > 0) return;
    delete shared[slot];
    // No file needs an orderly stop of this stack, and a graceful one can outlast vitest's teardown
    // on a loaded machine: the whole process group goes at once.
    await (await current.starting)?.kill();
    await rm(current.info.dataDir, { recursive: true, force: true });
    await rm(current.info.logFile, { force: true });
    await rm(current.info.failureFile, { force: true });
  };
}
