// vitest globalSetup of the `integration` project: one DynamoDB Local for every file of the run,
// instead of one JVM per file (each costs seconds of CPU on start). Files get their own main
// table on it (test/support/shared-dynamodb.ts), so they run in parallel without seeing each
// other's items. Files that must own an engine (start/stop, crash, restart) start their own.
// The JVM starts in the background: vitest runs no test file until every project's setup has
// returned, and most files (all unit files) need no DynamoDB. Its port is chosen here and
// provided at once; sharedDynamoDb() waits until it answers, or reads why it could not start.
// No AWS SDK here (test/support/dynamodb-jvm.ts says why).
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { spawnDynamoDbJvm } from './dynamodb-jvm';
import { freePort } from './ports';
// What is provided is declared (ProvidedContext) beside its reader, test/support/shared-dynamodb.ts.

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = await freePort();
  const failureFile = path.join(tmpdir(), `insights-dynamodb-${randomBytes(4).toString('hex')}.failed`);
  // Spawned only: the files wait until it answers (sharedDynamoDb), and fail at once with its
  // output when it ends before the run does.
  const jvm = spawnDynamoDbJvm(port);
  void jvm.ended.then((why) => writeFile(failureFile, why)).catch(() => undefined);
  project.provide('dynamoDbEndpoint', `http://127.0.0.1:${port}`);
  project.provide('dynamoDbFailure', failureFile);
  return async () => {
    await jvm.stop();
    await rm(failureFile, { force: true });
  };
}
