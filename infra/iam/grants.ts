// What each function may do in AWS, by name. A function lists the grants it needs under `access`
// in its serverless.yml entry; infra/iam/plugin.ts turns the list into the function's own role.
// No grant has a `*` action; a `*` resource appears only where the action has no resource type.
// Each grant is the actions one adapter sends (docs/deploy.md, "One role per function"), so a
// function that only writes in transactions gets neither DeleteItem nor BatchWriteItem.
type Json = string | { readonly [key: string]: unknown };

export interface Statement {
  readonly Effect: 'Allow';
  readonly Action: readonly string[];
  readonly Resource: Json | readonly Json[];
}

/** What a grant may depend on besides the stack's own resources. */
export interface GrantContext {
  /** The function's deployed name (`industrial-insights-dev-ingest`). */
  readonly functionName: string;
  /**
   * The Timestream database the functions use (TIMESTREAM_DATABASE). Table ARNs are built from
   * it rather than read from the table resources, because a stage redeployed with
   * `timestreamExisting: true` uses tables the stack does not create (docs/deploy.md).
   */
  readonly timestreamDatabase: string;
}

const arn = (logicalId: string): Json => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const sub = (template: string): Json => ({ 'Fn::Sub': template });

const mainTable = arn('MainTable');
const mainTableIndexes = sub('${MainTable.Arn}/index/*');
const timestreamTable = (database: string, table: string): Json => {
  if (!database)
    throw new Error(
      'a Timestream grant needs the database name: set params.timestreamDatabase for this stage (TIMESTREAM_DATABASE is empty)',
    );
  return sub(
    `arn:\${AWS::Partition}:timestream:\${AWS::Region}:\${AWS::AccountId}:database/${database}/table/${table}`,
  );
};
const telemetryTables = (c: GrantContext): Json[] => [
  timestreamTable(c.timestreamDatabase, 'States'),
  timestreamTable(c.timestreamDatabase, 'Events'),
];
// Timestream clients discover their cell endpoint first; the action has no resource type.
const describeEndpoints: Statement = { Effect: 'Allow', Action: ['timestream:DescribeEndpoints'], Resource: '*' };

type Grant = (context: GrantContext) => readonly Statement[];

export const GRANTS = {
  /** GetItem, BatchGetItem and Query on the main table and its indexes. */
  'table:read': () => [
    {
      Effect: 'Allow',
      Action: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
      Resource: [mainTable, mainTableIndexes],
    },
  ],
  /** PutItem, also a Put inside TransactWriteItems (IAM checks each item's own action). */
  'table:put': () => [{ Effect: 'Allow', Action: ['dynamodb:PutItem'], Resource: [mainTable] }],
  /** UpdateItem, also an Update inside TransactWriteItems. */
  'table:update': () => [{ Effect: 'Allow', Action: ['dynamodb:UpdateItem'], Resource: [mainTable] }],
  /** BatchWriteItem: the ingest ledger's completions (PutRequest only). */
  'table:batchWrite': () => [{ Effect: 'Allow', Action: ['dynamodb:BatchWriteItem'], Resource: [mainTable] }],
  /** The health probe. */
  'table:describe': () => [{ Effect: 'Allow', Action: ['dynamodb:DescribeTable'], Resource: [mainTable] }],
  'telemetry:write': (c) => [
    { Effect: 'Allow', Action: ['timestream:WriteRecords'], Resource: telemetryTables(c) },
    describeEndpoints,
  ],
  'telemetry:query': (c) => [
    { Effect: 'Allow', Action: ['timestream:Select'], Resource: telemetryTables(c) },
    // Queries that read no table (`print`, `range`, `datatable`: `UNNEST(sequence(...))`) are
    // authorized as SelectValues, and CancelQuery (a query past its time limit) likewise has no
    // resource type in the Timestream IAM reference.
    { Effect: 'Allow', Action: ['timestream:SelectValues', 'timestream:CancelQuery'], Resource: '*' },
    describeEndpoints,
  ],
  /** The health probe (DescribeTable of States). */
  'telemetry:describe': (c) => [
    {
      Effect: 'Allow',
      Action: ['timestream:DescribeTable'],
      Resource: [timestreamTable(c.timestreamDatabase, 'States')],
    },
    describeEndpoints,
  ],
  'lake:put': () => [{ Effect: 'Allow', Action: ['firehose:PutRecordBatch'], Resource: [arn('LakeDeliveryStream')] }],
  /** Refused messages, under dead-letter/ only. */
  'deadLetter:put': () => [
    { Effect: 'Allow', Action: ['s3:PutObject'], Resource: [sub('${DeadLetterBucket.Arn}/dead-letter/*')] },
  ],
  /**
   * Lambda's on-failure destination of asynchronous invocations writes with the function's role,
   * under `aws/lambda/async/<function name>/` (lib/adapters/s3/dead-letter-store.ts). ListBucket
   * has no object path; it lets Lambda check the bucket and is kept without a prefix condition,
   * because the shape of Lambda's own call is not documented (a wrong condition would lose the
   * records silently).
   */
  'deadLetter:asyncFailures': (c) => [
    {
      Effect: 'Allow',
      Action: ['s3:PutObject'],
      Resource: [sub(`\${DeadLetterBucket.Arn}/aws/lambda/async/${c.functionName}/*`)],
    },
    { Effect: 'Allow', Action: ['s3:ListBucket'], Resource: [arn('DeadLetterBucket')] },
  ],
  /** The SQS event source mapping polls with the function's role. */
  'ingestQueue:consume': () => [
    {
      Effect: 'Allow',
      Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ChangeMessageVisibility'],
      Resource: [arn('IngestQueue')],
    },
  ],
} as const satisfies Record<string, Grant>;

export type GrantName = keyof typeof GRANTS;

export function isGrantName(name: string): name is GrantName {
  return Object.hasOwn(GRANTS, name);
}

/** Logical id of a function's role, e.g. `IngestLambdaRole` for `ingest`. */
export function roleLogicalId(functionLogicalPrefix: string): string {
  return `${functionLogicalPrefix}LambdaRole`;
}

/** The statements of a list of grants, in the order given, each grant once. */
export function grantStatements(access: readonly GrantName[], context: GrantContext): Statement[] {
  return [...new Set(access)].flatMap((name) => GRANTS[name](context));
}

/**
 * The CloudFormation role of one function: Lambda may assume it; it may write its own log group
 * and do what its grants say. @throws Error naming the function and an unknown grant.
 */
export function functionRole(
  functionKey: string,
  access: readonly string[],
  context: GrantContext,
): Record<string, unknown> {
  const unknown = access.filter((name) => !isGrantName(name));
  if (unknown.length > 0)
    throw new Error(
      `function '${functionKey}': unknown access ${unknown.map((n) => `'${n}'`).join(', ')}; known: ${Object.keys(GRANTS).join(', ')}`,
    );
  const logs: Statement = {
    Effect: 'Allow',
    Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
    Resource: [
      sub(
        `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${context.functionName}:*`,
      ),
    ],
  };
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
      },
      Policies: [
        {
          PolicyName: `${functionKey}-access`,
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [logs, ...grantStatements(access as GrantName[], context)],
          },
        },
      ],
    },
  };
}
