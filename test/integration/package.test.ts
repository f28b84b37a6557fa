// `npm run package` for a deployed stage, offline: the CloudFormation template has what issue 8
// asks for (least-privilege roles, encryption, recovery, the IoT rule and its error action, the
// authorizer on every private route) and every function's zip is small and free of DuckDB.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ZIP_BYTES, packageService, renderReport, type PackageResult } from '../../infra/package/report';
import { STACK_OUTPUTS } from '../../lib/cli/admin/stage';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: unknown }; // eslint-disable-line @typescript-eslint/no-explicit-any
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;
let result: PackageResult;
let resources: Record<string, Resource>;
let outputs: Record<string, unknown>;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const actions = (statements: Statement[]) => statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
const roleStatements = (role: Resource): Statement[] => (role.Properties.Policies as Array<{ PolicyDocument: { Statement: Statement[] } }>).flatMap((p) => p.PolicyDocument.Statement);
const functionRole = (functionLogicalId: string): Resource => {
  const ref = resources[functionLogicalId]?.Properties.Role as { 'Fn::GetAtt': [string, string] };
  return resources[ref['Fn::GetAtt'][0]]!;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'insights-package-'));
  result = await packageService({ stage: 'ci', dir, buildDir: `.esbuild/test-${path.basename(dir)}` });
  const template = JSON.parse(await readFile(result.templateFile, 'utf8')) as { Resources: Record<string, Resource>; Outputs: Record<string, unknown> };
  resources = template.Resources;
  outputs = template.Outputs;
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(path.join(root, `.esbuild/test-${path.basename(dir)}`), { recursive: true, force: true });
});

describe('function packages', () => {
  it('are each under 1 MB zipped and hold no DuckDB', () => {
    expect(result.packages.length).toBeGreaterThanOrEqual(10);
    for (const p of result.packages) {
      expect(p.zipBytes, p.functionKey).toBeLessThan(MAX_ZIP_BYTES);
      expect(p.duckdb, p.functionKey).toEqual([]);
    }
    expect(renderReport(result).ok).toBe(true);
  });
});

describe('IAM', () => {
  // What each function does in AWS (read from its adapters); anything more is a finding.
  const expected: Record<string, string[]> = {
    HealthLambdaFunction: ['dynamodb:DescribeTable', 'timestream:DescribeTable', 'timestream:DescribeEndpoints'],
    IngestLambdaFunction: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem', 'timestream:WriteRecords', 'timestream:DescribeEndpoints', 'firehose:PutRecordBatch', 's3:PutObject', 's3:ListBucket'],
    QueryTableLambdaFunction: ['timestream:Select', 'timestream:CancelQuery', 'timestream:DescribeEndpoints'],
    QueryExplainLambdaFunction: [],
    QueryAuthorizerLambdaFunction: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
    MaintenanceAuthorizerLambdaFunction: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
    OauthTokenLambdaFunction: [],
    OauthJwksLambdaFunction: [],
    WhoamiLambdaFunction: [],
    // Kusto protocol (issue 18): the two query routes run queries like QueryTable; the others touch nothing.
    KustoQueryV2LambdaFunction: ['timestream:Select', 'timestream:CancelQuery', 'timestream:DescribeEndpoints'],
    KustoQueryV1LambdaFunction: ['timestream:Select', 'timestream:CancelQuery', 'timestream:DescribeEndpoints'],
    KustoMgmtLambdaFunction: [],
    KustoAuthMetadataLambdaFunction: [],
  };

  it('gives every function a role of its own and no shared role', () => {
    const functions = ofType('AWS::Lambda::Function');
    expect(resources.IamRoleLambdaExecution).toBeUndefined();
    const roles = functions.map(([id]) => (resources[id]!.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0]);
    expect(new Set(roles).size).toBe(functions.length);
  });

  it('grants each function exactly the actions it uses, plus writing its own log group', () => {
    for (const [fn, wanted] of Object.entries(expected)) {
      const granted = actions(roleStatements(functionRole(fn)));
      expect(new Set(granted), fn).toEqual(new Set(['logs:CreateLogStream', 'logs:PutLogEvents', ...wanted]));
    }
    const ingestLogs = roleStatements(functionRole('IngestLambdaFunction'))[0]!;
    expect(JSON.stringify(ingestLogs.Resource)).toContain('log-group:/aws/lambda/industrial-insights-ci-ingest:*');
  });

  it('lets read-only maintenance routes read and only the writing routes write', () => {
    for (const [id] of ofType('AWS::Lambda::Function').filter(([id]) => id.startsWith('Maintenance') && !id.startsWith('MaintenanceAuthorizer') && !id.startsWith('MaintenanceTokenLink'))) {
      const granted = actions(roleStatements(functionRole(id)));
      expect(granted.filter((a) => !a.startsWith('logs:') && !a.startsWith('dynamodb:')), id).toEqual([]);
      if (/CreateTask|StockLevel/.test(id)) expect(granted, id).toContain('dynamodb:PutItem');
      else if (!/OpenApi/.test(id)) expect(granted.filter((a) => a.startsWith('dynamodb:')).sort(), id).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
    }
  });

  it('has no wildcard action anywhere and a wildcard resource only where AWS has no resource type', () => {
    const statements = ofType('AWS::IAM::Role').flatMap(([, role]) => roleStatements(role));
    expect(actions(statements).filter((a) => a.includes('*'))).toEqual([]);
    const wildcard = statements.filter((s) => s.Resource === '*' || (Array.isArray(s.Resource) && s.Resource.includes('*')));
    expect(new Set(actions(wildcard))).toEqual(new Set(['timestream:DescribeEndpoints', 'timestream:CancelQuery']));
  });

  it('scopes table grants to the main table and its indexes', () => {
    const read = roleStatements(functionRole('QueryAuthorizerLambdaFunction')).find((s) => actions([s]).includes('dynamodb:Query'))!;
    expect(read.Resource).toEqual([{ 'Fn::GetAtt': ['MainTable', 'Arn'] }, { 'Fn::Sub': '${MainTable.Arn}/index/*' }]);
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
  });

  it('buckets: encrypted, public access blocked, TLS only, with lifecycle rules', () => {
    for (const id of ['LakeBucket', 'DeadLetterBucket']) {
      const bucket = resources[id]!.Properties;
      expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm, id).toBe('AES256');
      expect(Object.values(bucket.PublicAccessBlockConfiguration), id).toEqual([true, true, true, true]);
      expect(bucket.LifecycleConfiguration.Rules.length, id).toBeGreaterThan(0);
    }
    const policies = ['LakeBucketPolicy', 'DeadLetterBucketPolicy'].map((id) => resources[id]!.Properties.PolicyDocument.Statement[0]);
    expect(policies.map((s) => s.Condition)).toEqual([{ Bool: { 'aws:SecureTransport': 'false' } }, { Bool: { 'aws:SecureTransport': 'false' } }]);
  });

  it('Firehose partitions the lake by customer, plant and date read with JQ', () => {
    const s3 = resources.LakeDeliveryStream!.Properties.ExtendedS3DestinationConfiguration;
    expect(s3.DynamicPartitioningConfiguration.Enabled).toBe(true);
    expect(s3.Prefix).toBe('customer=!{partitionKeyFromQuery:customer}/plant=!{partitionKeyFromQuery:plant}/date=!{partitionKeyFromQuery:date}/');
    expect(s3.ProcessingConfiguration.Processors[0].Parameters).toContainEqual({ ParameterName: 'MetadataExtractionQuery', ParameterValue: '{customer:.customer,plant:.plant,date:.date}' });
    expect(s3.BucketARN).toEqual({ 'Fn::GetAtt': ['LakeBucket', 'Arn'] });
  });

  it('Timestream: States and Events with retention and magnetic writes reported to S3', () => {
    for (const id of ['StatesTable', 'EventsTable']) {
      const table = resources[id]!.Properties;
      expect(table.RetentionProperties.MemoryStoreRetentionPeriodInHours).toBeDefined();
      expect(table.RetentionProperties.MagneticStoreRetentionPeriodInDays).toBeDefined();
      expect(table.MagneticStoreWriteProperties.EnableMagneticStoreWrites).toBe(true);
      expect(table.MagneticStoreWriteProperties.MagneticStoreRejectedDataLocation.S3Configuration.BucketName).toEqual({ Ref: 'DeadLetterBucket' });
    }
    expect(resources.TelemetryDatabase!.Properties.DatabaseName).toBe('industrial-insights-ci');
  });
});

describe('IoT', () => {
  it('runs the ingest rule with its SQL, the Lambda action and an error action to the dead-letter bucket', () => {
    const rule = resources.IngestTopicRule!.Properties.TopicRulePayload;
    expect(rule.Sql).toBe("SELECT encode(*, 'base64') AS payload, topic(2) AS agentId, clientid() AS clientId, timestamp() AS receivedAt FROM 'gdm/+/messages'");
    expect(rule.AwsIotSqlVersion).toBe('2016-03-23');
    expect(rule.Actions).toEqual([{ Lambda: { FunctionArn: { 'Fn::GetAtt': ['IngestLambdaFunction', 'Arn'] } } }]);
    expect(rule.ErrorAction.S3.BucketName).toEqual({ Ref: 'DeadLetterBucket' });
    expect(resources.IngestTopicRulePermission!.Properties).toMatchObject({ Principal: 'iot.amazonaws.com', SourceArn: { 'Fn::GetAtt': ['IngestTopicRule', 'Arn'] } });
    expect(resources.IngestAsyncConfig!.Properties.DestinationConfig.OnFailure.Destination).toEqual({ 'Fn::GetAtt': ['DeadLetterBucket', 'Arn'] });
  });

  it('lets an agent connect only as its own thing and publish only to its own topic', () => {
    const [connect, publish] = resources.AgentPolicy!.Properties.PolicyDocument.Statement as Array<{ Action: string; Resource: { 'Fn::Sub': string }; Condition?: unknown }>;
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
    expect(resources.UserPoolDomain).toBeDefined();
  });

  it('puts an authorizer on every route but the token, JWKS, token-link, OpenAPI and health routes', () => {
    const routes = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    const open = routes.filter((r) => r.AuthorizationType !== 'CUSTOM').map((r) => r.RouteKey as string);
    expect(open.sort()).toEqual(['GET /.well-known/jwks.json', 'GET /health', 'GET /maintenance/v1/openapi.json', 'GET /maintenance/v1/token-links/{id}', 'GET /v1/rest/auth/metadata', 'POST /oauth2/token']);
    for (const r of routes.filter((r) => r.AuthorizationType === 'CUSTOM')) {
      const authorizer = (r.AuthorizerId as { Ref: string }).Ref;
      expect(authorizer, r.RouteKey).toBe(r.RouteKey.includes('/maintenance/') ? 'HttpApiAuthorizerMaintenanceAuthorizer' : 'HttpApiAuthorizerQueryAuthorizer');
    }
  });

  it('routes the Kusto protocol through the query authorizer, each route to its own function', () => {
    const routes = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    for (const key of ['POST /v2/rest/query', 'POST /v1/rest/query', 'POST /v1/rest/mgmt']) {
      const route = routes.find((r) => r.RouteKey === key);
      expect(route, key).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: 'HttpApiAuthorizerQueryAuthorizer' } });
    }
    const targets = ['POST /v2/rest/query', 'POST /v1/rest/query', 'POST /v1/rest/mgmt', 'GET /v1/rest/auth/metadata'].map((key) => JSON.stringify(routes.find((r) => r.RouteKey === key)?.Target));
    expect(new Set(targets).size).toBe(4);
  });

  it('throttles and writes access logs', () => {
    const stage = resources.HttpApiStage!.Properties;
    expect(stage.DefaultRouteSettings.ThrottlingBurstLimit).toBeGreaterThan(0);
    expect(stage.DefaultRouteSettings.ThrottlingRateLimit).toBeGreaterThan(0);
    expect(stage.AccessLogSettings.DestinationArn).toEqual({ 'Fn::GetAtt': ['HttpApiLogGroup', 'Arn'] });
    expect(stage.AccessLogSettings.Format).not.toMatch(/authorization|header/i);
  });

  it('configures deployed functions for Timestream, Firehose, S3 and Cognito', () => {
    const env = resources.QueryAuthorizerLambdaFunction!.Properties.Environment.Variables;
    expect(env).toMatchObject({ TELEMETRY_BACKEND: 'timestream', TIMESTREAM_DATABASE: 'industrial-insights-ci', COGNITO_USER_POOL_ID: { Ref: 'UserPool' }, FIREHOSE_STREAM: { Ref: 'LakeDeliveryStream' }, DEAD_LETTER_BUCKET: { Ref: 'DeadLetterBucket' }, OAUTH_RESOURCE: 'api://industrial-insights' });
    expect(env.DYNAMODB_ENDPOINT).toBe('');
    expect(env.AUTH_SIGNING_KEY_DIR).toBe('');
  });

  it('exports every output the admin CLI and the smoke script read', () => {
    for (const name of Object.values(STACK_OUTPUTS)) expect(outputs, name).toHaveProperty(name);
  });
});
