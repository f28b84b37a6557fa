// The one place DynamoDB clients are made: per container for the functions (STYLE.md), and on an
// explicit endpoint for the admin CLI, tests and benchmarks. Retries are the SDK's (sdk-config.ts).
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../../core/config';
import { sdkClientConfig } from '../sdk-config';

/** Where a client connects: DynamoDB Local (an endpoint) or the region's DynamoDB. */
export interface DynamoDbTarget {
  readonly region: string;
  readonly endpoint?: string | undefined;
}

export interface DynamoDbClients {
  readonly raw: DynamoDBClient;
  /** Marshals plain objects; undefined attributes are left out (optional record fields). */
  readonly doc: DynamoDBDocumentClient;
  /** Closes the connections (CLIs and tests; a function's clients live as long as its container). */
  close(): void;
}

export function createDynamoDbClients(target: DynamoDbTarget): DynamoDbClients {
  const raw = new DynamoDBClient(
    sdkClientConfig(
      target.endpoint
        ? // DynamoDB Local accepts any credentials; fixed ones keep a developer's real keys out of it.
          {
            endpoint: target.endpoint,
            region: target.region,
            credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          }
        : { region: target.region },
    ),
  );
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  return { raw, doc, close: () => raw.destroy() };
}

let fromConfig: DynamoDbClients | undefined;

function containerClients(): DynamoDbClients {
  if (!fromConfig) {
    const { DYNAMODB_ENDPOINT, AWS_REGION } = config();
    fromConfig = createDynamoDbClients({ region: AWS_REGION, endpoint: DYNAMODB_ENDPOINT });
  }
  return fromConfig;
}

/** The running function's client (DYNAMODB_ENDPOINT and AWS_REGION from configuration). */
export function dynamoDb(): DynamoDBClient {
  return containerClients().raw;
}

export function documentClient(): DynamoDBDocumentClient {
  return containerClients().doc;
}

/** Health probe: the main table exists and is ACTIVE. */
export async function pingDynamoDb(): Promise<void> {
  const out = await dynamoDb().send(new DescribeTableCommand({ TableName: config().MAIN_TABLE }));
  if (out.Table?.TableStatus !== 'ACTIVE')
    throw new Error(`table ${config().MAIN_TABLE} is ${out.Table?.TableStatus ?? 'missing'}`);
}
