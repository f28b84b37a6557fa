// What each function may do in AWS, by name. A function lists the grants it needs under `access`
// in its serverless.yml entry; infra/iam/plugin.ts turns the list into the function's own role.
// No grant has a `*` action; a `*` resource appears only where the action has no resource type.
type Json = string | { readonly [key: string]: unknown };

export interface Statement {
  readonly Effect: 'Allow';
  readonly Action: readonly string[];
  readonly Resource: Json | readonly Json[];
}

const arn = (logicalId: string): Json => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const sub = (template: string): Json => ({ 'Fn::Sub': template });

const mainTable = arn('MainTable');
const mainTableIndexes = sub('${MainTable.Arn}/index/*');
const telemetryTables = [arn('StatesTable'), arn('EventsTable')];
// Timestream clients discover their cell endpoint first; the action has no resource type.
const describeEndpoints: Statement = { Effect: 'Allow', Action: ['timestream:DescribeEndpoints'], Resource: '*' };

export const GRANTS = {
  /** GetItem, BatchGetItem and Query on the main table and its indexes. */
  'table:read': [{ Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'], Resource: [mainTable, mainTableIndexes] }],
  /** Item writes, also inside TransactWriteItems (which has no action of its own). */
  'table:write': [{ Effect: 'Allow', Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'], Resource: [mainTable] }],
  /** The health probe. */
  'table:describe': [{ Effect: 'Allow', Action: ['dynamodb:DescribeTable'], Resource: [mainTable] }],
  'telemetry:write': [{ Effect: 'Allow', Action: ['timestream:WriteRecords'], Resource: telemetryTables }, describeEndpoints],
  'telemetry:query': [
    { Effect: 'Allow', Action: ['timestream:Select'], Resource: telemetryTables },
    // CancelQuery (a query past its time limit) has no resource type.
    { Effect: 'Allow', Action: ['timestream:CancelQuery'], Resource: '*' },
    describeEndpoints,
  ],
  /** The health probe (DescribeTable of States). */
  'telemetry:describe': [{ Effect: 'Allow', Action: ['timestream:DescribeTable'], Resource: [arn('StatesTable')] }, describeEndpoints],
  'lake:put': [{ Effect: 'Allow', Action: ['firehose:PutRecordBatch'], Resource: [arn('LakeDeliveryStream')] }],
  /** Refused messages, under dead-letter/ only. */
  'deadLetter:put': [{ Effect: 'Allow', Action: ['s3:PutObject'], Resource: [sub('${DeadLetterBucket.Arn}/dead-letter/*')] }],
  /** Lambda's on-failure destination of asynchronous invocations (it writes with the function's role). */
  'deadLetter:asyncFailures': [
    { Effect: 'Allow', Action: ['s3:PutObject'], Resource: [sub('${DeadLetterBucket.Arn}/*')] },
    { Effect: 'Allow', Action: ['s3:ListBucket'], Resource: [arn('DeadLetterBucket')] },
  ],
  /** The SQS event source mapping polls with the function's role. */
  'ingestQueue:consume': [{ Effect: 'Allow', Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ChangeMessageVisibility'], Resource: [arn('IngestQueue')] }],
} as const satisfies Record<string, readonly Statement[]>;

export type GrantName = keyof typeof GRANTS;

export function isGrantName(name: string): name is GrantName {
  return Object.hasOwn(GRANTS, name);
}

/** Logical id of a function's role, e.g. `IngestLambdaRole` for `ingest`. */
export function roleLogicalId(functionLogicalPrefix: string): string {
  return `${functionLogicalPrefix}LambdaRole`;
}

/**
 * The CloudFormation role of one function: Lambda may assume it; it may write its own log group
 * and do what its grants say. @throws Error naming the function and an unknown grant.
 */
export function functionRole(functionKey: string, functionName: string, access: readonly string[]): Record<string, unknown> {
  const unknown = access.filter((name) => !isGrantName(name));
  if (unknown.length > 0) throw new Error(`function '${functionKey}': unknown access ${unknown.map((n) => `'${n}'`).join(', ')}; known: ${Object.keys(GRANTS).join(', ')}`);
  const logs: Statement = {
    Effect: 'Allow',
    Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
    Resource: [sub(`arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${functionName}:*`)],
  };
  const statements = [logs, ...[...new Set(access)].flatMap((name) => GRANTS[name as GrantName])];
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
      },
      Policies: [{ PolicyName: `${functionKey}-access`, PolicyDocument: { Version: '2012-10-17', Statement: statements } }],
    },
  };
}
