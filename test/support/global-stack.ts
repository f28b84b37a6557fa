// vitest globalSetup of the `integration-stack` project: one offline stack for the files that only
// read and write their own tenant (test/support/shared-stack.ts), instead of one stack per file.
// The stack's output also goes to a file, so a test file can check what the stack logged.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startOfflineStack } from './offline-stack';
// What is provided is declared (ProvidedContext) beside its reader, test/support/shared-stack.ts.

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const logFile = path.join(tmpdir(), `insights-stack-${randomBytes(4).toString('hex')}.log`);
  const stack = await startOfflineStack({ logFile });
  project.provide('offlineStack', {
    httpUrl: stack.httpUrl,
    mqttUrl: stack.mqttUrl,
    dataDir: stack.dataDir,
    ports: stack.ports,
    logFile,
  });
  return async () => {
    // No file needs an orderly stop of this stack, and a graceful one can outlast vitest's teardown
    // on a loaded machine: the whole process group goes at once.
    await stack.kill();
    await rm(stack.dataDir, { recursive: true, force: true });
    await rm(logFile, { force: true });
  };
}
