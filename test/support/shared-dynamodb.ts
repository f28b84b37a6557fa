// A main table of its own for one test file, on the run's shared DynamoDB Local (started once by
// test/support/global-engines.ts). The table name gets a random suffix, so two files, or two
// fixtures of one file, never share items; stop() drops the table.
import { randomBytes } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { createMainTable, type DynamoDbLocal } from './dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared DynamoDB Local of the run, e.g. http://127.0.0.1:41234. */
    dynamoDbEndpoint: string;
  }
}

export async function sharedDynamoDb(name: string): Promise<DynamoDbLocal> {
  const endpoint = inject('dynamoDbEndpoint');
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
  await createMainTable(client, tableName);
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
