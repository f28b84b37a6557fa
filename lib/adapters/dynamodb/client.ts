// One DynamoDB client per container (STYLE.md), pointed at DynamoDB Local when configured.
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../../core/config';

let raw: DynamoDBClient | undefined;
let doc: DynamoDBDocumentClient | undefined;

export function dynamoDb(): DynamoDBClient {
  if (!raw) {
    const { DYNAMODB_ENDPOINT, AWS_REGION } = config();
    raw = new DynamoDBClient(
      DYNAMODB_ENDPOINT
        ? // DynamoDB Local accepts any credentials; fixed ones keep a developer's real keys out of it.
          { endpoint: DYNAMODB_ENDPOINT, region: AWS_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 2 }
        : { region: AWS_REGION },
    );
  }
  return raw;
}

export function documentClient(): DynamoDBDocumentClient {
  doc ??= DynamoDBDocumentClient.from(dynamoDb(), { marshallOptions: { removeUndefinedValues: true } });
  return doc;
}

/** Health probe: the main table exists and is ACTIVE. */
export async function pingDynamoDb(): Promise<void> {
  const out = await dynamoDb().send(new DescribeTableCommand({ TableName: config().MAIN_TABLE }));
  if (out.Table?.TableStatus !== 'ACTIVE') throw new Error(`table ${config().MAIN_TABLE} is ${out.Table?.TableStatus ?? 'missing'}`);
}
