// What `npm run deploy:check -- --stage NAME` asks AWS before a first (or repeated) deployment:
// each prerequisite becomes one finding, and each missing one says in one line what to do. Only
// read calls; nothing is created. The clients are given, so tests run against mocks.
import {
  DescribeStackResourceCommand,
  DescribeStacksCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import {
  DescribeUserPoolDomainCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { DescribeTableCommand as DescribeDynamoTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeDeliveryStreamCommand, type FirehoseClient } from '@aws-sdk/client-firehose';
import { DescribeEndpointCommand, type IoTClient } from '@aws-sdk/client-iot';
import { GetAccountSettingsCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { GetCallerIdentityCommand, type STSClient } from '@aws-sdk/client-sts';
import {
  DescribeDatabaseCommand,
  DescribeTableCommand,
  type TimestreamWriteClient,
} from '@aws-sdk/client-timestream-write';
import { cognitoDomainProblem, errorName, stageNames, timestreamRefusal, type StageNames } from './rules';

export type Level = 'ok' | 'warn' | 'fail';

export interface Finding {
  readonly level: Level;
  readonly check: string;
  /** One line: what was found, or what is missing and what to do. */
  readonly line: string;
}

export interface PreflightClients {
  readonly sts: STSClient;
  readonly cloudFormation: CloudFormationClient;
  readonly timestream: TimestreamWriteClient;
  readonly cognito: CognitoIdentityProviderClient;
  readonly dynamodb: DynamoDBClient;
  readonly firehose: FirehoseClient;
  readonly iot: IoTClient;
  readonly lambda: LambdaClient;
}

export interface PreflightOptions {
  readonly stage: string;
  readonly region: string;
  /** `--param timestreamDatabase=...` as given to osls; default `industrial-insights-<stage>`. */
  readonly timestreamDatabase?: string;
  /** `--param timestreamExisting=true`: deploy on the database and tables a removed stage left. */
  readonly timestreamExisting: boolean;
}

/** Below this Lambda concurrency (new accounts get 10) the ingest and API functions throttle each other. */
export const MIN_LAMBDA_CONCURRENCY = 100;

const ok = (check: string, line: string): Finding => ({ level: 'ok', check, line });
const warn = (check: string, line: string): Finding => ({ level: 'warn', check, line });
const fail = (check: string, line: string): Finding => ({ level: 'fail', check, line });

/** Runs every check in order; stops after the credentials when there are none (everything else would fail the same way). */
export async function preflight(options: PreflightOptions, clients: PreflightClients): Promise<Finding[]> {
  const names = stageNames(options.stage, options.timestreamDatabase);
  const stageProblem = names.problem;
  if (stageProblem) return [fail('stage', stageProblem)];
  const identity = await credentials(clients.sts, options.region);
  if (identity.level === 'fail') return [identity.finding];
  const account = identity.account;
  const stack = await stackState(clients.cloudFormation, names);
  const findings = [identity.finding, stack.finding];
  findings.push(await timestream(clients, names, options, stack.exists));
  if (!stack.exists) {
    findings.push(await cognitoDomain(clients.cognito, names.cognitoDomain(account)));
    findings.push(
      await nameFree(
        'main table',
        names.mainTable,
        () => clients.dynamodb.send(new DescribeDynamoTableCommand({ TableName: names.mainTable })),
        'a table of that name exists (a removed stage leaves it when its deletion protection was on): delete it, or deploy under another --stage',
      ),
    );
    findings.push(
      await nameFree(
        'lake stream',
        names.lakeStream,
        () => clients.firehose.send(new DescribeDeliveryStreamCommand({ DeliveryStreamName: names.lakeStream })),
        'a Firehose stream of that name exists: delete it (aws firehose delete-delivery-stream), or deploy under another --stage',
      ),
    );
  }
  findings.push(await iotEndpoint(clients.iot, options.region));
  findings.push(await lambdaConcurrency(clients.lambda));
  return findings;
}

async function credentials(
  sts: STSClient,
  region: string,
): Promise<{ level: 'ok'; account: string; finding: Finding } | { level: 'fail'; finding: Finding }> {
  try {
    const out = await sts.send(new GetCallerIdentityCommand({}));
    return {
      level: 'ok',
      account: out.Account ?? '',
      finding: ok('credentials', `account ${out.Account} as ${out.Arn}, region ${region}`),
    };
  } catch (error) {
    const name = errorName(error);
    if (/Expired/i.test(name) || /expired/i.test((error as Error).message ?? ''))
      return {
        level: 'fail',
        finding: fail(
          'credentials',
          'the AWS credentials have expired: renew them (aws sso login --profile NAME, or new access keys) and run this again',
        ),
      };
    return {
      level: 'fail',
      finding: fail(
        'credentials',
        `no usable AWS credentials (${name}: ${(error as Error).message}): set AWS_PROFILE to a configured profile (aws configure / aws sso login) or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
      ),
    };
  }
}

async function stackState(
  cloudFormation: CloudFormationClient,
  names: StageNames,
): Promise<{ exists: boolean; finding: Finding }> {
  try {
    const out = await cloudFormation.send(new DescribeStacksCommand({ StackName: names.stack }));
    const status = out.Stacks?.[0]?.StackStatus ?? 'UNKNOWN';
    if (status === 'ROLLBACK_COMPLETE')
      return {
        exists: true,
        finding: fail(
          'stack',
          `stack ${names.stack} is ROLLBACK_COMPLETE (a failed first deployment) and cannot be updated: npx osls remove --stage ${names.stage}, fix what failed, deploy again`,
        ),
      };
    if (status.endsWith('_IN_PROGRESS'))
      return { exists: true, finding: fail('stack', `stack ${names.stack} is ${status}: wait until it settles`) };
    return { exists: true, finding: ok('stack', `stack ${names.stack} exists (${status}): the deployment updates it`) };
  } catch (error) {
    if (errorName(error) === 'ValidationError' && /does not exist/.test((error as Error).message))
      return { exists: false, finding: ok('stack', `stack ${names.stack} does not exist: a first deployment`) };
    return {
      exists: false,
      finding: fail(
        'stack',
        `cannot read stack ${names.stack} (${errorName(error)}): the deploying principal needs cloudformation:DescribeStacks`,
      ),
    };
  }
}

async function timestream(
  clients: Pick<PreflightClients, 'timestream' | 'cloudFormation'>,
  names: StageNames,
  options: PreflightOptions,
  stackExists: boolean,
): Promise<Finding> {
  const client = clients.timestream;
  const db = names.timestreamDatabase;
  try {
    await client.send(new DescribeDatabaseCommand({ DatabaseName: db }));
  } catch (error) {
    if (errorName(error) === 'ResourceNotFoundException') {
      if (options.timestreamExisting)
        return fail(
          'timestream',
          `timestreamExisting=true but there is no database ${db} in ${options.region}: drop the parameter to create it, or name the kept one with --param=timestreamDatabase=NAME`,
        );
      return ok('timestream', `Timestream for LiveAnalytics is open to this account; database ${db} will be created`);
    }
    return fail('timestream', timestreamRefusal(error, options.region));
  }
  // The database exists: the stack's own (an update), or one a removed stage kept (Retain).
  if (stackExists && !options.timestreamExisting) {
    // An update without the parameter would create the database again unless the stack owns it.
    if (await stackManages(clients.cloudFormation, names.stack, 'TelemetryDatabase'))
      return ok('timestream', `Timestream for LiveAnalytics is open to this account; database ${db} exists`);
    return fail(
      'timestream',
      `stack ${names.stack} uses database ${db} without managing it (it was deployed with timestreamExisting=true): give --param=timestreamExisting=true again, or put it under params.${names.stage} in serverless.yml`,
    );
  }
  if (!options.timestreamExisting)
    return fail(
      'timestream',
      `database ${db} exists, kept from a removed stage: deploy with --param=timestreamExisting=true to use it and its data, or with --param=timestreamDatabase=NEW_NAME to start another`,
    );
  for (const table of ['States', 'Events']) {
    try {
      await client.send(new DescribeTableCommand({ DatabaseName: db, TableName: table }));
    } catch (error) {
      return fail(
        'timestream',
        `database ${db} has no table ${table} (${errorName(error)}): create it as infra/resources/telemetry.yml does, or deploy without timestreamExisting under another database name`,
      );
    }
  }
  return ok(
    'timestream',
    `using the existing database ${db} with its States and Events tables (the stack will not manage them)`,
  );
}

async function stackManages(cloudFormation: CloudFormationClient, stack: string, logicalId: string): Promise<boolean> {
  try {
    await cloudFormation.send(new DescribeStackResourceCommand({ StackName: stack, LogicalResourceId: logicalId }));
    return true;
  } catch {
    return false;
  }
}

async function cognitoDomain(cognito: CognitoIdentityProviderClient, domain: string): Promise<Finding> {
  const problem = cognitoDomainProblem(domain);
  if (problem) return fail('cognito domain', problem);
  try {
    const out = await cognito.send(new DescribeUserPoolDomainCommand({ Domain: domain }));
    const owner = out.DomainDescription?.UserPoolId;
    if (owner)
      return fail(
        'cognito domain',
        `the Cognito domain prefix ${domain} is taken by user pool ${owner} (a removed stage's retained pool keeps it): aws cognito-idp delete-user-pool-domain --domain ${domain} --user-pool-id ${owner}`,
      );
    return ok('cognito domain', `domain prefix ${domain} is free`);
  } catch (error) {
    return fail(
      'cognito domain',
      `cannot check the Cognito domain ${domain} (${errorName(error)}): the deploying principal needs cognito-idp:DescribeUserPoolDomain`,
    );
  }
}

async function nameFree(
  check: string,
  name: string,
  describe: () => Promise<unknown>,
  whatToDo: string,
): Promise<Finding> {
  try {
    await describe();
    return fail(check, `${name}: ${whatToDo}`);
  } catch (error) {
    if (errorName(error) === 'ResourceNotFoundException') return ok(check, `${name} is free`);
    return fail(check, `cannot check ${name} (${errorName(error)}: ${(error as Error).message})`);
  }
}

async function iotEndpoint(iot: IoTClient, region: string): Promise<Finding> {
  try {
    const out = await iot.send(new DescribeEndpointCommand({ endpointType: 'iot:Data-ATS' }));
    return ok('iot', `IoT Core data endpoint ${out.endpointAddress}`);
  } catch (error) {
    return fail(
      'iot',
      `no IoT Core data endpoint in ${region} (${errorName(error)}): use a region with IoT Core and grant iot:DescribeEndpoint to the deploying principal`,
    );
  }
}

async function lambdaConcurrency(lambda: LambdaClient): Promise<Finding> {
  try {
    const out = await lambda.send(new GetAccountSettingsCommand({}));
    const limit = out.AccountLimit?.ConcurrentExecutions ?? 0;
    if (limit < MIN_LAMBDA_CONCURRENCY)
      return warn(
        'lambda quota',
        `Lambda concurrency limit is ${limit} (new accounts get 10): request at least 1000 in Service Quotas (AWS Lambda, "Concurrent executions") before taking traffic`,
      );
    return ok('lambda quota', `Lambda concurrency limit ${limit}`);
  } catch (error) {
    return warn(
      'lambda quota',
      `cannot read the Lambda account settings (${errorName(error)}); check "Concurrent executions" in Service Quotas`,
    );
  }
}
