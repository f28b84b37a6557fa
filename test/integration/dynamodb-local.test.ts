// The embedded DynamoDB engine starts from the npm package, serves the main table as deployed
// (keys, both GSIs) and stops without leaving a java process behind.
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal, type DynamoDbLocal } from '../support/dynamodb-local';

describe('DynamoDB Local harness', () => {
  let db: DynamoDbLocal;
  beforeAll(async () => {
    db = await startDynamoDbLocal('harness-main');
  });
  afterAll(async () => db?.stop());

  it('creates the main table from infra/resources/dynamodb.yml', async () => {
    const out = await db.client.send(new DescribeTableCommand({ TableName: 'harness-main' }));
    expect(out.Table?.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(out.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(['GSI1', 'GSI2']);
  });

  it('leaves no java process listening on its port after stop', async () => {
    const port = db.port;
    await db.stop();
    const listing = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(listing).not.toContain(`-port ${port}`);
  });
});
