// A main table of its own for one test file, on the run's shared DynamoDB Local (started once by
// test/support/global-engines.ts). The table name gets a random suffix, so two files, or two
// fixtures of one file, never share items; stop() drops the table.
import { randomBytes } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { createMainTable, type DynamoDbLocal } from './dynamodb-local';
import { StopWaiting, waitUntil } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared DynamoDB Local of the run, e.g. http://127.0.0.1:41234 (maybe still starting). */
    dynamoDbEndpoint: string;
    /** Written with the reason when the shared DynamoDB Local could not start. */
    dynamoDbFailure: string;
  }
}

/** @throws when the shared DynamoDB Local could not start (with its output), or after about 3 minutes. */
export async function sharedDynamoDb(name: string): Promise<DynamoDbLocal> {
  const endpoint = inject('dynamoDbEndpoint');
  const failureFile = inject('dynamoDbFailure');
  if (!endpoint)
    throw new Error(
      'no shared DynamoDB Local: run this file in the integration project (vitest.config.ts globalSetup)',
    );
  const tableName = `${name}-${randomBytes(4).toString('hex')}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    // The JVM starts in the background of the run's setup (test/support/global-engines.ts).
    await waitUntil(
      async () => {
        const failure = await readFile(failureFile, 'utf8').catch(() => undefined);
        if (failure !== undefined) throw new StopWaiting(`the shared DynamoDB Local did not start: ${failure}`);
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      },
      170_000,
      `the shared DynamoDB Local on ${endpoint}`,
    );
    await createMainTable(client, tableName);
  } catch (error) {
    client.destroy();
    throw error;
  }
  return {
    endpoint,
    port: Number(new URL(endpoint).port),
    tableName,
    client,
    stop: async () => {
      // A table left behind only costs memory in a JVM that ends with the run.
      await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      client.destroy();
    },
  };
}
