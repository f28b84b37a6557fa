// `npm run deploy:check`: each prerequisite is one finding, and a missing one says what to do in
// one line. AWS answers come from aws-sdk-client-mock.
import {
  CloudFormationClient,
  DescribeStackResourceCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import {
  CognitoIdentityProviderClient,
  DescribeUserPoolDomainCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DescribeTableCommand as DescribeDynamoTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeDeliveryStreamCommand, FirehoseClient } from '@aws-sdk/client-firehose';
import { DescribeEndpointCommand, IoTClient } from '@aws-sdk/client-iot';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { DescribeDatabaseCommand, DescribeTableCommand, TimestreamWriteClient } from '@aws-sdk/client-timestream-write';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { preflight, type Finding, type PreflightOptions } from '../../../infra/preflight/checks';
import { parsePreflightArgs, renderFindings } from '../../../infra/preflight/run';

const sts = mockClient(STSClient);
const cloudFormation = mockClient(CloudFormationClient);
const timestream = mockClient(TimestreamWriteClient);
const cognito = mockClient(CognitoIdentityProviderClient);
const dynamodb = mockClient(DynamoDBClient);
const firehose = mockClient(FirehoseClient);
const iot = mockClient(IoTClient);
const lambda = mockClient(LambdaClient);
const clients = () => ({
  sts: new STSClient({}),
  cloudFormation: new CloudFormationClient({}),
  timestream: new TimestreamWriteClient({}),
  cognito: new CognitoIdentityProviderClient({}),
  dynamodb: new DynamoDBClient({}),
  firehose: new FirehoseClient({}),
  iot: new IoTClient({}),
  lambda: new LambdaClient({}),
});

const awsError = (name: string, message: string) => Object.assign(new Error(message), { name });
const notFound = (what: string) => awsError('ResourceNotFoundException', `${what} not found`);
const options: PreflightOptions = { stage: 'prod', region: 'eu-west-1', timestreamExisting: false };
const run = (o: Partial<PreflightOptions> = {}) => preflight({ ...options, ...o }, clients());
const byCheck = (findings: Finding[], check: string) => findings.find((f) => f.check === check)!;

beforeEach(() => {
  for (const mock of [sts, cloudFormation, timestream, cognito, dynamodb, firehose, iot, lambda]) mock.reset();
  // A new stage on an account that already uses Timestream: everything is free.
  sts.on(GetCallerIdentityCommand).resolves({ Account: '123456789012', Arn: 'arn:aws:iam::123456789012:user/ops' });
  cloudFormation
    .on(DescribeStacksCommand)
    .rejects(awsError('ValidationError', 'Stack with id industrial-insights-prod does not exist'));
  timestream.on(DescribeDatabaseCommand).rejects(notFound('database'));
  cognito.on(DescribeUserPoolDomainCommand).resolves({ DomainDescription: {} });
  dynamodb.on(DescribeDynamoTableCommand).rejects(notFound('table'));
  firehose.on(DescribeDeliveryStreamCommand).rejects(notFound('stream'));
  iot.on(DescribeEndpointCommand).resolves({ endpointAddress: 'abc123-ats.iot.eu-west-1.amazonaws.com' });
  lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 1000 } });
});

describe('deploy preflight', () => {
  it('passes a new stage on an account with every prerequisite, asking for the stage names', async () => {
    const findings = await run();
    expect(findings.map((f) => `${f.level} ${f.check}`)).toEqual([
      'ok credentials',
      'ok stack',
      'ok timestream',
      'ok cognito domain',
      'ok main table',
      'ok lake stream',
      'ok iot',
      'ok lambda quota',
    ]);
    expect(cognito.commandCalls(DescribeUserPoolDomainCommand)[0]!.args[0].input).toEqual({
      Domain: 'industrial-insights-prod-123456789012',
    });
    expect(dynamodb.commandCalls(DescribeDynamoTableCommand)[0]!.args[0].input).toEqual({
      TableName: 'industrial-insights-prod-main',
    });
    expect(timestream.commandCalls(DescribeDatabaseCommand)[0]!.args[0].input).toEqual({
      DatabaseName: 'industrial-insights-prod',
    });
    expect(renderFindings(findings)).toMatchObject({ ready: true, text: expect.stringContaining('ready to deploy') });
  });

  it('says in one line that an account without LiveAnalytics cannot deploy as is, and where the options are', async () => {
    timestream
      .on(DescribeDatabaseCommand)
      .rejects(
        awsError(
          'AccessDeniedException',
          'Only existing Timestream for LiveAnalytics customers can access the service. Contact AWS Support.',
        ),
      );
    const finding = byCheck(await run(), 'timestream');
    expect(finding.level).toBe('fail');
    expect(finding.line).toMatch(
      /this account has no access to Timestream for LiveAnalytics \(closed to new customers since 2025-06-20.*docs\/deploy\.md, "Accounts without Timestream"/,
    );
    expect(finding.line).not.toContain('\n');
  });

  it('tells an IAM denial apart from the account closure', async () => {
    timestream
      .on(DescribeDatabaseCommand)
      .rejects(
        awsError(
          'AccessDeniedException',
          'User: arn:aws:iam::1:user/x is not authorized to perform: timestream:DescribeEndpoints',
        ),
      );
    expect(byCheck(await run(), 'timestream').line).toMatch(
      /^the deploying principal may not use Timestream .*grant it timestream:DescribeEndpoints/,
    );
  });

  it('finds the database a removed stage kept and offers both ways to deploy again', async () => {
    timestream.on(DescribeDatabaseCommand).resolves({ Database: { DatabaseName: 'industrial-insights-prod' } });
    expect(byCheck(await run(), 'timestream')).toMatchObject({
      level: 'fail',
      line: expect.stringMatching(
        /exists, kept from a removed stage: deploy with --param=timestreamExisting=true .* or with --param=timestreamDatabase=NEW_NAME/,
      ),
    });
    timestream.on(DescribeTableCommand).resolves({ Table: {} });
    expect(byCheck(await run({ timestreamExisting: true }), 'timestream')).toMatchObject({
      level: 'ok',
      line: expect.stringContaining('using the existing database industrial-insights-prod'),
    });
    expect(timestream.commandCalls(DescribeTableCommand).map((c) => c.args[0].input.TableName)).toEqual([
      'States',
      'Events',
    ]);
  });

  it('refuses timestreamExisting when there is nothing to use, and a database missing a table', async () => {
    expect(byCheck(await run({ timestreamExisting: true }), 'timestream').line).toMatch(
      /timestreamExisting=true but there is no database industrial-insights-prod/,
    );
    timestream.on(DescribeDatabaseCommand).resolves({ Database: {} });
    timestream.on(DescribeTableCommand, { TableName: 'States' }).resolves({ Table: {} });
    timestream.on(DescribeTableCommand, { TableName: 'Events' }).rejects(notFound('table'));
    expect(byCheck(await run({ timestreamExisting: true }), 'timestream').line).toMatch(/has no table Events/);
  });

  it('accepts the database of an existing stack (an update) and skips the name checks', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [{ StackName: 'industrial-insights-prod', StackStatus: 'UPDATE_COMPLETE', CreationTime: new Date() }],
    });
    timestream.on(DescribeDatabaseCommand).resolves({ Database: {} });
    cloudFormation.on(DescribeStackResourceCommand).resolves({
      StackResourceDetail: {
        LogicalResourceId: 'TelemetryDatabase',
        ResourceType: 'AWS::Timestream::Database',
        ResourceStatus: 'CREATE_COMPLETE',
        LastUpdatedTimestamp: new Date(),
      },
    });
    const findings = await run();
    expect(findings.every((f) => f.level === 'ok')).toBe(true);
    expect(findings.map((f) => f.check)).not.toContain('cognito domain');
  });

  it('reminds a stage deployed on a kept database to keep giving timestreamExisting', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [{ StackName: 'industrial-insights-prod', StackStatus: 'UPDATE_COMPLETE', CreationTime: new Date() }],
    });
    timestream.on(DescribeDatabaseCommand).resolves({ Database: {} });
    cloudFormation
      .on(DescribeStackResourceCommand)
      .rejects(
        awsError('ValidationError', 'Resource TelemetryDatabase does not exist for stack industrial-insights-prod'),
      );
    expect(byCheck(await run(), 'timestream')).toMatchObject({
      level: 'fail',
      line: expect.stringContaining(
        'without managing it (it was deployed with timestreamExisting=true): give --param=timestreamExisting=true again',
      ),
    });
  });

  it('reports a taken Cognito domain prefix, a stage Cognito would refuse and names taken by leftovers', async () => {
    cognito.on(DescribeUserPoolDomainCommand).resolves({
      DomainDescription: { UserPoolId: 'eu-west-1_Old', Domain: 'industrial-insights-prod-123456789012' },
    });
    dynamodb.on(DescribeDynamoTableCommand).resolves({ Table: {} });
    const findings = await run();
    expect(byCheck(findings, 'cognito domain').line).toMatch(
      /is taken by user pool eu-west-1_Old .*delete-user-pool-domain/,
    );
    expect(byCheck(findings, 'main table')).toMatchObject({
      level: 'fail',
      line: expect.stringContaining('industrial-insights-prod-main: a table of that name exists'),
    });
    expect(byCheck(await run({ stage: 'Prod' }), 'cognito domain').line).toMatch(/not valid \(lowercase letters/);
  });

  it('stops at missing credentials and refuses the local stage without asking AWS', async () => {
    sts
      .on(GetCallerIdentityCommand)
      .rejects(awsError('CredentialsProviderError', 'Could not load credentials from any providers'));
    const findings = await run();
    expect(findings).toEqual([
      {
        level: 'fail',
        check: 'credentials',
        line: expect.stringMatching(/no usable AWS credentials .*set AWS_PROFILE/),
      },
    ]);
    expect(cloudFormation.calls()).toHaveLength(0);
    expect(await run({ stage: 'local' })).toEqual([
      { level: 'fail', check: 'stage', line: expect.stringContaining('never deployed') },
    ]);
  });

  it("refuses a stack left in ROLLBACK_COMPLETE and warns about a new account's Lambda concurrency", async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [{ StackName: 'industrial-insights-prod', StackStatus: 'ROLLBACK_COMPLETE', CreationTime: new Date() }],
    });
    lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 10 } });
    const findings = await run();
    expect(byCheck(findings, 'stack').line).toMatch(/ROLLBACK_COMPLETE .*npx osls remove --stage prod/);
    expect(byCheck(findings, 'lambda quota')).toMatchObject({
      level: 'warn',
      line: expect.stringContaining('limit is 10'),
    });
    expect(renderFindings(findings.filter((f) => f.check !== 'stack')).ready).toBe(true);
    expect(renderFindings(findings)).toMatchObject({ ready: false, text: expect.stringContaining('1 missing') });
  });
});

describe('deploy preflight arguments', () => {
  it('takes the same --param as osls deploy', () => {
    expect(
      parsePreflightArgs(['--stage', 'prod', '--param=timestreamExisting=true', '--param=timestreamDatabase=old-db']),
    ).toEqual({ stage: 'prod', timestreamExisting: true, timestreamDatabase: 'old-db' });
    expect(parsePreflightArgs(['--stage', 'prod', '--region', 'us-east-1'])).toEqual({
      stage: 'prod',
      region: 'us-east-1',
      timestreamExisting: false,
    });
    expect(() => parsePreflightArgs([])).toThrow('--stage is required');
    expect(() => parsePreflightArgs(['--stage', 'x', '--param=timestreamExisting=yes'])).toThrow(/true or false/);
  });
});
