// vitest globalSetup of the `integration` project: one DynamoDB Local for every file of the run,
// instead of one JVM per file (each costs seconds of CPU on start). Files get their own main
// table on it (test/support/shared-dynamodb.ts), so they run in parallel without seeing each
// other's items. Files that must own an engine (start/stop, crash, restart) start their own.
import type { TestProject } from 'vitest/node';
import { launchDynamoDbLocal } from './dynamodb-local';
// What is provided is declared (ProvidedContext) beside its reader, test/support/shared-dynamodb.ts.

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A loaded machine can take long to start a JVM; every file waits on this one.
  const db = await launchDynamoDbLocal(120_000);
  project.provide('dynamoDbEndpoint', db.endpoint);
  return () => db.stop();
}
