// `npm run package` for a deployed stage, offline: the CloudFormation template has what issue 8
// asks for (least-privilege roles, encryption, recovery, the IoT rule and its error action, the
// authorizer on every private route) and every function's zip is small and free of DuckDB.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_ZIP_BYTES,
  packageService,
  printService,
  renderReport,
  type PackageResult,
} from '../../infra/package/report';
import { STACK_OUTPUTS } from '../../lib/cli/admin/stage';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: unknown }; // eslint-disable-line @typescript-eslint/no-explicit-any
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;
let result: PackageResult;
let resources: Record<string, Resource>;
let outputs: Record<string, unknown>;
let conditions: Record<string, unknown>;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const actions = (statements: Statement[]) =>
  statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
const roleStatements = (role: Resource): Statement[] =>
  (role.Properties.Policies as Array<{ PolicyDocument: { Statement: Statement[] } }>).flatMap(
    (p) => p.PolicyDocument.Statement,
  );
const functionRole = (functionLogicalId: string): Resource => {
  const ref = resources[functionLogicalId]?.Properties.Role as { 'Fn::GetAtt': [string, string] };
  return resources[ref['Fn::GetAtt'][0]]!;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'insights-package-'));
  result = await packageService({ stage: 'ci', dir, buildDir: `.esbuild/test-${path.basename(dir)}` });
  const template = JSON.parse(await readFile(result.templateFile, 'utf8')) as {
    Resources: Record<string, Resource>;
    Outputs: Record<string, unknown>;
    Conditions: Record<string, unknown>;
  };
  resources = template.Resources;
  outputs = template.Outputs;
  conditions = template.Conditions;
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(path.join(root, `.esbuild/test-${path.basename(dir)}`), { recursive: true, force: true });
});

describe('function packages', () => {
  it('are each under 1 MB of zipped code and hold no DuckDB', () => {
    expect(result.packages.length).toBeGreaterThanOrEqual(10);
    for (const p of result.packages) {
      expect(p.zipBytes - (p.staticZipBytes ?? 0), p.functionKey).toBeLessThan(MAX_ZIP_BYTES);
      expect(p.duckdb, p.functionKey).toEqual([]);
    }
    expect(renderReport(result).ok).toBe(true);
  });

  it("pack the playground's built files into its asset function only", () => {
    const asset = result.packages.find((p) => p.functionKey === 'playgroundAsset');
    expect(asset?.files).toContain('lib/playground/dist/manifest.json');
    expect(asset?.files.some((f) => /^lib\/playground\/dist\/chunks\/editor-.*\.js\.br$/.test(f))).toBe(true);
    expect(asset?.staticZipBytes).toBeGreaterThan(MAX_ZIP_BYTES);
    for (const p of result.packages.filter((x) => !x.functionKey.startsWith('playground')))
      expect(p.staticZipBytes, p.functionKey).toBe(0);
  });

  it('ship no source maps and do not ask Node for them', () => {
    for (const p of result.packages)
      expect({ fn: p.functionKey, maps: p.sourceMaps, flag: p.enableSourceMaps }).toEqual({
        fn: p.functionKey,
        maps: [],
        flag: false,
      });
    for (const [id, fn] of ofType('AWS::Lambda::Function'))
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS, id).toBeUndefined();
  });
});

describe('IAM', () => {
  // What each function does in AWS (read from its adapters); anything more is a finding.
  const read = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
  const ingest = [
    ...read,
    'dynamodb:PutItem',
    'dynamodb:BatchWriteItem',
    'dynamodb:UpdateItem',
    'timestream:WriteRecords',
    'timestream:DescribeEndpoints',
    'firehose:PutRecordBatch',
    's3:PutObject',
  ];
  const expected: Record<string, string[]> = {
    HealthLambdaFunction: ['dynamodb:DescribeTable', 'timestream:DescribeTable', 'timestream:DescribeEndpoints'],
    IngestLambdaFunction: [...ingest, 's3:ListBucket'],
    IngestQueueLambdaFunction: [
      ...ingest,
      'sqs:ReceiveMessage',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:ChangeMessageVisibility',
    ],
    // The two query routes check the caller's token themselves (no authorizer): the registry's client and plants.
    QueryTableLambdaFunction: [
      'timestream:Select',
      'timestream:SelectValues',
      'timestream:CancelQuery',
      'timestream:DescribeEndpoints',
      ...read,
    ],
    QueryExplainLambdaFunction: read,
    QueryAuthorizerLambdaFunction: read,
    MaintenanceAuthorizerLambdaFunction: read,
    MaintenanceTokenLinkLambdaFunction: [...read, 'dynamodb:UpdateItem'],
    MaintenanceCreateTaskLambdaFunction: [...read, 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    MaintenanceStockLevelLambdaFunction: [...read, 'dynamodb:PutItem'],
    MaintenanceJobsDoneLambdaFunction: read,
    MaintenanceOpenApiLambdaFunction: [],
    OauthTokenLambdaFunction: [],
    OauthJwksLambdaFunction: [],
    WhoamiLambdaFunction: [],
    // Kusto protocol (issue 18): the two query routes run queries like QueryTable; mgmt touches no
    // telemetry. The three check the caller's token themselves (no authorizer): the registry's client and plants.
    KustoQueryV2LambdaFunction: [
      'timestream:Select',
      'timestream:SelectValues',
      'timestream:CancelQuery',
      'timestream:DescribeEndpoints',
      ...read,
    ],
    KustoQueryV1LambdaFunction: [
      'timestream:Select',
      'timestream:SelectValues',
      'timestream:CancelQuery',
      'timestream:DescribeEndpoints',
      ...read,
    ],
    KustoMgmtLambdaFunction: read,
    KustoAuthMetadataLambdaFunction: [],
  };
  const statementWith = (fn: string, action: string) =>
    roleStatements(functionRole(fn)).find((s) => actions([s]).includes(action))!;
  const timestreamTable = (table: string) => ({
    'Fn::Sub': `arn:\${AWS::Partition}:timestream:\${AWS::Region}:\${AWS::AccountId}:database/industrial-insights-ci/table/${table}`,
  });

  it('gives every function a role of its own and no shared role', () => {
    const functions = ofType('AWS::Lambda::Function');
    expect(resources.IamRoleLambdaExecution).toBeUndefined();
    const roles = functions.map(
      ([id]) => (resources[id]!.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0],
    );
    expect(new Set(roles).size).toBe(functions.length);
  });

  it('grants each function exactly the actions it uses, plus writing its own log group', () => {
    for (const [fn, wanted] of Object.entries(expected)) {
      const granted = actions(roleStatements(functionRole(fn)));
      expect(new Set(granted), fn).toEqual(new Set(['logs:CreateLogStream', 'logs:PutLogEvents', ...wanted]));
    }
    const ingestLogs = roleStatements(functionRole('IngestLambdaFunction'))[0]!;
    expect(ingestLogs.Resource).toEqual([
      {
        'Fn::Sub':
          'arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:/aws/lambda/industrial-insights-ci-ingest:*',
      },
    ]);
  });

  it('grants DeleteItem and ConditionCheckItem to no function, BatchWriteItem only to the ingest ledger', () => {
    const byFunction = ofType('AWS::Lambda::Function').map(
      ([id]) => [id, actions(roleStatements(functionRole(id)))] as const,
    );
    expect(
      byFunction.filter(([, a]) => a.includes('dynamodb:DeleteItem') || a.includes('dynamodb:ConditionCheckItem')),
    ).toEqual([]);
    expect(
      byFunction
        .filter(([, a]) => a.includes('dynamodb:BatchWriteItem'))
        .map(([id]) => id)
        .sort(),
    ).toEqual(['IngestLambdaFunction', 'IngestQueueLambdaFunction']);
  });

  it('lets queries without a table run (SelectValues) and scopes table grants to the two Timestream tables by name', () => {
    expect(statementWith('QueryTableLambdaFunction', 'timestream:Select').Resource).toEqual([
      timestreamTable('States'),
      timestreamTable('Events'),
    ]);
    expect(statementWith('QueryTableLambdaFunction', 'timestream:SelectValues')).toEqual({
      Effect: 'Allow',
      Action: ['timestream:SelectValues', 'timestream:CancelQuery'],
      Resource: '*',
    });
    expect(statementWith('IngestLambdaFunction', 'timestream:WriteRecords').Resource).toEqual([
      timestreamTable('States'),
      timestreamTable('Events'),
    ]);
    expect(statementWith('HealthLambdaFunction', 'timestream:DescribeTable').Resource).toEqual([
      timestreamTable('States'),
    ]);
  });

  it('keeps the ingest role to its prefixes of the dead-letter bucket', () => {
    const puts = roleStatements(functionRole('IngestLambdaFunction')).filter((s) =>
      actions([s]).includes('s3:PutObject'),
    );
    expect(puts.map((s) => s.Resource)).toEqual([
      [{ 'Fn::Sub': '${DeadLetterBucket.Arn}/dead-letter/*' }],
      [{ 'Fn::Sub': '${DeadLetterBucket.Arn}/aws/lambda/async/industrial-insights-ci-ingest/*' }],
    ]);
    expect(statementWith('IngestLambdaFunction', 's3:ListBucket').Resource).toEqual([
      { 'Fn::GetAtt': ['DeadLetterBucket', 'Arn'] },
    ]);
    expect(statementWith('IngestQueueLambdaFunction', 's3:PutObject').Resource).toEqual([
      { 'Fn::Sub': '${DeadLetterBucket.Arn}/dead-letter/*' },
    ]);
    expect(statementWith('IngestLambdaFunction', 'firehose:PutRecordBatch').Resource).toEqual([
      { 'Fn::GetAtt': ['LakeDeliveryStream', 'Arn'] },
    ]);
    expect(statementWith('IngestQueueLambdaFunction', 'sqs:ReceiveMessage').Resource).toEqual([
      { 'Fn::GetAtt': ['IngestQueue', 'Arn'] },
    ]);
  });

  it('lets only Lambda assume the function roles, and no statement has a condition it does not need', () => {
    for (const [id] of ofType('AWS::Lambda::Function')) {
      const role = functionRole(id);
      expect(role.Properties.AssumeRolePolicyDocument.Statement, id).toEqual([
        { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
      ]);
      expect(
        roleStatements(role).filter((s) => s.Condition !== undefined),
        id,
      ).toEqual([]);
    }
  });

  it('lets read-only maintenance routes read and only the writing routes write', () => {
    for (const [id] of ofType('AWS::Lambda::Function').filter(
      ([id]) =>
        id.startsWith('Maintenance') &&
        !id.startsWith('MaintenanceAuthorizer') &&
        !id.startsWith('MaintenanceTokenLink'),
    )) {
      const granted = actions(roleStatements(functionRole(id)));
      expect(
        granted.filter((a) => !a.startsWith('logs:') && !a.startsWith('dynamodb:')),
        id,
      ).toEqual([]);
      if (/CreateTask|StockLevel/.test(id)) expect(granted, id).toContain('dynamodb:PutItem');
      else if (!/OpenApi/.test(id))
        expect(granted.filter((a) => a.startsWith('dynamodb:')).sort(), id).toEqual([
          'dynamodb:BatchGetItem',
          'dynamodb:GetItem',
          'dynamodb:Query',
        ]);
    }
  });

  it('has no wildcard action anywhere and a wildcard resource only where AWS has no resource type', () => {
    const statements = ofType('AWS::IAM::Role').flatMap(([, role]) => roleStatements(role));
    expect(actions(statements).filter((a) => a.includes('*'))).toEqual([]);
    const wildcard = statements.filter(
      (s) => s.Resource === '*' || (Array.isArray(s.Resource) && s.Resource.includes('*')),
    );
    expect(new Set(actions(wildcard))).toEqual(
      new Set(['timestream:DescribeEndpoints', 'timestream:CancelQuery', 'timestream:SelectValues']),
    );
  });

  it('scopes table grants to the main table and its indexes', () => {
    const read = roleStatements(functionRole('QueryAuthorizerLambdaFunction')).find((s) =>
      actions([s]).includes('dynamodb:Query'),
    )!;
    expect(read.Resource).toEqual([{ 'Fn::GetAtt': ['MainTable', 'Arn'] }, { 'Fn::Sub': '${MainTable.Arn}/index/*' }]);
    for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem'])
      expect(statementWith('MaintenanceCreateTaskLambdaFunction', action).Resource, action).toEqual([
        { 'Fn::GetAtt': ['MainTable', 'Arn'] },
      ]);
  });
});

describe('data stores', () => {
  it('main table: on demand, point-in-time recovery, encryption, TTL and deletion protection', () => {
    const table = resources.MainTable!.Properties;
    expect(table.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.SSESpecification).toEqual({ SSEEnabled: true });
    expect(table.TimeToLiveSpecification).toEqual({ AttributeName: 'ExpiresAt', Enabled: true });
    expect(table.DeletionProtectionEnabled).toBe(true);
    expect(table.TableName).toBe('industrial-insights-ci-main');
    expect(table.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(table.GlobalSecondaryIndexes.map((i: { IndexName: string }) => i.IndexName)).toEqual(['GSI1', 'GSI2']);
  });

  it('buckets: encrypted, public access blocked, TLS only, with lifecycle rules', () => {
    for (const id of ['LakeBucket', 'DeadLetterBucket']) {
      const bucket = resources[id]!.Properties;
      expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration, id).toEqual([
        { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' }, BucketKeyEnabled: true },
      ]);
      expect(bucket.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.OwnershipControls, id).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
      expect(resources[id]!, id).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    }
    expect(resources.LakeBucket!.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(resources.LakeBucket!.Properties.LifecycleConfiguration.Rules[0]).toMatchObject({
      Status: 'Enabled',
      ExpirationInDays: 3650,
      Transitions: [
        { StorageClass: 'STANDARD_IA', TransitionInDays: 30 },
        { StorageClass: 'GLACIER_IR', TransitionInDays: 180 },
      ],
    });
    expect(resources.DeadLetterBucket!.Properties.LifecycleConfiguration.Rules[0]).toMatchObject({
      Status: 'Enabled',
      ExpirationInDays: 90,
    });
    const policies = ['LakeBucketPolicy', 'DeadLetterBucketPolicy'].map(
      (id) => resources[id]!.Properties.PolicyDocument.Statement[0],
    );
    expect(policies.map((s) => s.Condition)).toEqual([
      { Bool: { 'aws:SecureTransport': 'false' } },
      { Bool: { 'aws:SecureTransport': 'false' } },
    ]);
    expect(policies.map((s) => [s.Effect, s.Principal, s.Action])).toEqual([
      ['Deny', '*', 's3:*'],
      ['Deny', '*', 's3:*'],
    ]);
  });

  it('Firehose partitions the lake by customer, plant and date read with JQ', () => {
    const s3 = resources.LakeDeliveryStream!.Properties.ExtendedS3DestinationConfiguration;
    expect(s3.DynamicPartitioningConfiguration.Enabled).toBe(true);
    expect(s3.Prefix).toBe(
      'customer=!{partitionKeyFromQuery:customer}/plant=!{partitionKeyFromQuery:plant}/date=!{partitionKeyFromQuery:date}/',
    );
    expect(s3.ProcessingConfiguration.Processors[0].Parameters).toContainEqual({
      ParameterName: 'MetadataExtractionQuery',
      ParameterValue: '{customer:.customer,plant:.plant,date:.date}',
    });
    expect(s3.BucketARN).toEqual({ 'Fn::GetAtt': ['LakeBucket', 'Arn'] });
  });

  it('Timestream: States and Events with retention and magnetic writes reported to S3', () => {
    for (const id of ['StatesTable', 'EventsTable']) {
      const table = resources[id]!.Properties;
      expect(table.RetentionProperties).toEqual({
        MemoryStoreRetentionPeriodInHours: 24,
        MagneticStoreRetentionPeriodInDays: 3650,
      });
      expect(table.MagneticStoreWriteProperties).toEqual({
        EnableMagneticStoreWrites: true,
        MagneticStoreRejectedDataLocation: {
          S3Configuration: {
            BucketName: { Ref: 'DeadLetterBucket' },
            ObjectKeyPrefix: `timestream-rejected/${table.TableName}/`,
            EncryptionOption: 'SSE_S3',
          },
        },
      });
    }
    expect([resources.StatesTable!.Properties.TableName, resources.EventsTable!.Properties.TableName]).toEqual([
      'States',
      'Events',
    ]);
    expect(resources.TelemetryDatabase!.Properties.DatabaseName).toBe('industrial-insights-ci');
  });

  // 31 s at a load of 13 and 44 s at 20-26 with three workers (2026-11-26), against the project's
  // 60 s; the limit only catches a hang.
  it('a removed stage deploys again: the kept Timestream database is created only when asked, and nothing else refers to it', async () => {
    // Default: the stack creates the database and tables (and keeps them when removed).
    expect(conditions.CreateTelemetryStore).toEqual({ 'Fn::Equals': ['false', 'false'] });
    for (const id of ['TelemetryDatabase', 'StatesTable', 'EventsTable'])
      expect(resources[id], id).toMatchObject({
        Condition: 'CreateTelemetryStore',
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    // With the condition false the three are absent, so no other resource or output may name them.
    const elsewhere = JSON.stringify({
      ...Object.fromEntries(
        Object.entries(resources).filter(([id]) => !['TelemetryDatabase', 'StatesTable', 'EventsTable'].includes(id)),
      ),
      outputs,
    });
    expect(elsewhere).not.toMatch(/"(TelemetryDatabase|StatesTable|EventsTable)"/);
    expect(outputs.TimestreamDatabase).toEqual({ Value: 'industrial-insights-ci' });
    // `--param=timestreamExisting=true` turns the creation off; `timestreamDatabase` renames it everywhere.
    type Printed = {
      provider: { environment: Record<string, unknown> };
      resources: {
        Conditions: Record<string, unknown>;
        Resources: Record<string, Resource>;
        Outputs: Record<string, { Value: unknown }>;
      };
    };
    const [adopt, renamed] = (await Promise.all([
      printService({ stage: 'ci', params: { timestreamExisting: 'true' } }),
      printService({ stage: 'ci', params: { timestreamDatabase: 'industrial-insights-ci-2' } }),
    ])) as [Printed, Printed];
    expect(adopt.resources.Conditions.CreateTelemetryStore).toEqual({ 'Fn::Equals': ['true', 'false'] });
    expect(adopt.provider.environment.TIMESTREAM_DATABASE).toBe('industrial-insights-ci');
    expect(renamed.provider.environment.TIMESTREAM_DATABASE).toBe('industrial-insights-ci-2');
    expect(renamed.resources.Resources.TelemetryDatabase!.Properties.DatabaseName).toBe('industrial-insights-ci-2');
    expect(renamed.resources.Outputs.TimestreamDatabase!.Value).toBe('industrial-insights-ci-2');
  }, 120_000);
});

describe('IoT', () => {
  it('runs the ingest rule with its SQL, the Lambda action and an error action to the dead-letter bucket', () => {
    const rule = resources.IngestTopicRule!.Properties.TopicRulePayload;
    expect(rule.Sql).toBe(
      "SELECT encode(*, 'base64') AS payload, topic(2) AS agentId, clientid() AS clientId, timestamp() AS receivedAt FROM 'gdm/+/messages'",
    );
    expect(rule.AwsIotSqlVersion).toBe('2016-03-23');
    expect(rule.Actions).toEqual([{ Lambda: { FunctionArn: { 'Fn::GetAtt': ['IngestLambdaFunction', 'Arn'] } } }]);
    expect(rule.ErrorAction.S3.BucketName).toEqual({ Ref: 'DeadLetterBucket' });
    expect(resources.IngestTopicRulePermission!.Properties).toMatchObject({
      Principal: 'iot.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': ['IngestTopicRule', 'Arn'] },
    });
    expect(resources.IngestAsyncConfig!.Properties.DestinationConfig.OnFailure.Destination).toEqual({
      'Fn::GetAtt': ['DeadLetterBucket', 'Arn'],
    });
  }, 180_000);

  it('lets an agent connect only as its own thing and publish only to its own topic', () => {
    const [connect, publish] = resources.AgentPolicy!.Properties.PolicyDocument.Statement as Array<{
      Action: string;
      Resource: { 'Fn::Sub': string };
      Condition?: unknown;
    }>;
    expect(connect!.Action).toBe('iot:Connect');
    expect(connect!.Resource['Fn::Sub']).toMatch(/:client\/\$\{!iot:Connection\.Thing\.ThingName\}$/);
    expect(connect!.Condition).toEqual({ Bool: { 'iot:Connection.Thing.IsAttached': 'true' } });
    expect(publish!.Action).toBe('iot:Publish');
    expect(publish!.Resource['Fn::Sub']).toMatch(/:topic\/gdm\/\$\{!iot:Connection\.Thing\.ThingName\}\/messages$/);
  });
});

describe('identity and HTTP API', () => {
  it('Cognito has a resource server with the .default scope of the configured resource', () => {
    const server = resources.ApiResourceServer!.Properties;
    expect(server.Identifier).toBe('api://industrial-insights');
    expect(server.Scopes.map((s: { ScopeName: string }) => s.ScopeName)).toEqual(['.default']);
    expect(server.UserPoolId).toEqual({ Ref: 'UserPool' });
    expect(resources.UserPoolDomain!.Properties).toEqual({
      UserPoolId: { Ref: 'UserPool' },
      Domain: { 'Fn::Sub': 'industrial-insights-ci-${AWS::AccountId}' },
    });
    expect(resources.UserPool!.Properties).toMatchObject({
      UserPoolName: 'industrial-insights-ci',
      DeletionProtection: 'ACTIVE',
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    });
  });

  it('authorizes with the two Lambda REQUEST authorizers, simple responses, no caching', () => {
    for (const [id, fn] of [
      ['HttpApiAuthorizerQueryAuthorizer', 'QueryAuthorizerLambdaFunction'],
      ['HttpApiAuthorizerMaintenanceAuthorizer', 'MaintenanceAuthorizerLambdaFunction'],
    ] as const) {
      const authorizer = resources[id]!.Properties;
      expect(authorizer, id).toMatchObject({
        AuthorizerType: 'REQUEST',
        AuthorizerPayloadFormatVersion: '2.0',
        EnableSimpleResponses: true,
        AuthorizerResultTtlInSeconds: 0,
      });
      expect(JSON.stringify(authorizer.AuthorizerUri), id).toContain(fn);
      // No identity source: a missing header reaches the authorizer, which answers with the error envelope.
      expect(authorizer.IdentitySource ?? [], id).toEqual([]);
    }
  });

  it('puts an authorizer on every route but the public ones and the query and Kusto routes that check the token themselves', () => {
    const routes = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    const open = routes.filter((r) => r.AuthorizationType !== 'CUSTOM').map((r) => r.RouteKey as string);
    expect(open.sort()).toEqual([
      'GET /.well-known/jwks.json',
      'GET /health',
      'GET /insights/v1/telemetry/playground',
      'GET /insights/v1/telemetry/playground/{file+}',
      'GET /maintenance/v1/openapi.json',
      'GET /maintenance/v1/token-links/{id}',
      'GET /v1/rest/auth/metadata',
      'POST /insights/v1/telemetry/query/explain',
      'POST /insights/v1/telemetry/query/table',
      'POST /oauth2/token',
      'POST /v1/rest/mgmt',
      'POST /v1/rest/query',
      'POST /v2/rest/query',
    ]);
    // The query and Kusto routes' own check is the query authorizer's code (lib/auth/authorize.ts
    // authenticateQuery); test/unit/infra/route-auth.test.ts ties each open route to its handler's check,
    // test/integration/identity.test.ts sends them every refused token.
    for (const r of routes.filter((r) => r.AuthorizationType === 'CUSTOM')) {
      const authorizer = (r.AuthorizerId as { Ref: string }).Ref;
      expect(authorizer, r.RouteKey).toBe(
        r.RouteKey.includes('/maintenance/')
          ? 'HttpApiAuthorizerMaintenanceAuthorizer'
          : 'HttpApiAuthorizerQueryAuthorizer',
      );
    }
  });

  it('routes the Kusto protocol without an authorizer (its functions check the token), each route to its own function', () => {
    const routes = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    for (const key of ['POST /v2/rest/query', 'POST /v1/rest/query', 'POST /v1/rest/mgmt']) {
      const route = routes.find((r) => r.RouteKey === key);
      expect(route, key).toBeDefined();
      expect(route?.AuthorizationType ?? 'NONE', key).toBe('NONE');
      expect(route?.AuthorizerId, key).toBeUndefined();
    }
    const targets = [
      'POST /v2/rest/query',
      'POST /v1/rest/query',
      'POST /v1/rest/mgmt',
      'GET /v1/rest/auth/metadata',
    ].map((key) => JSON.stringify(routes.find((r) => r.RouteKey === key)?.Target));
    expect(new Set(targets).size).toBe(4);
  });

  it('throttles and writes access logs', () => {
    const stage = resources.HttpApiStage!.Properties;
    expect(stage.DefaultRouteSettings).toMatchObject({ ThrottlingBurstLimit: 200, ThrottlingRateLimit: 100 });
    expect(stage.AccessLogSettings.DestinationArn).toEqual({ 'Fn::GetAtt': ['HttpApiLogGroup', 'Arn'] });
    expect(stage.AccessLogSettings.Format).not.toMatch(/authorization|header/i);
  });

  it('configures deployed functions for Timestream, Firehose, S3 and Cognito', () => {
    const env = resources.QueryAuthorizerLambdaFunction!.Properties.Environment.Variables;
    expect(env).toMatchObject({
      TELEMETRY_BACKEND: 'timestream',
      TIMESTREAM_DATABASE: 'industrial-insights-ci',
      COGNITO_USER_POOL_ID: { Ref: 'UserPool' },
      FIREHOSE_STREAM: { Ref: 'LakeDeliveryStream' },
      DEAD_LETTER_BUCKET: { Ref: 'DeadLetterBucket' },
      OAUTH_RESOURCE: 'api://industrial-insights',
    });
    expect(env.DYNAMODB_ENDPOINT).toBe('');
    expect(env.AUTH_SIGNING_KEY_DIR).toBe('');
  });

  it('exports every output the admin CLI and the smoke script read', () => {
    for (const name of Object.values(STACK_OUTPUTS)) expect(outputs, name).toHaveProperty(name);
  });
});
