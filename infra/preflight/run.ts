// `npm run deploy:check -- --stage NAME [--region R] [--param=timestreamExisting=true]`: asks AWS
// whether this account and region can take the stage's stack, and prints one line per
// prerequisite. Exit 0 when nothing is missing (warnings allowed), 1 when something is, 2 on usage.
import '../../lib/cli/node-runtime.mjs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { FirehoseClient } from '@aws-sdk/client-firehose';
import { IoTClient } from '@aws-sdk/client-iot';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { STSClient } from '@aws-sdk/client-sts';
import { TimestreamWriteClient } from '@aws-sdk/client-timestream-write';
import { resolveRegion } from '../../lib/adapters/aws-admin/stage';
import { awsRegionVariables } from '../../lib/core/config';
import { preflight, type Finding, type PreflightOptions } from './checks';

export const PREFLIGHT_HELP = `Usage: npm run deploy:check -- --stage NAME [--region R] [--param=KEY=VALUE ...]

Checks, before npx osls deploy, that this account and region can take the stage: credentials,
Timestream for LiveAnalytics access and the database name, the Cognito domain prefix, names the
stack fixes (main table, lake stream), the IoT Core endpoint and the Lambda concurrency quota.
Only reads; creates nothing.

  --stage NAME         the stage to deploy (stack industrial-insights-NAME)
  --region R           AWS region (default: AWS_REGION, AWS_DEFAULT_REGION, then the profile's)
  --param=KEY=VALUE    the same --param you give osls deploy: timestreamDatabase, timestreamExisting
  -h, --help           show this help
Exit status: 0 ready (warnings allowed), 1 something is missing, 2 usage error.
`;

/** @returns undefined for --help. @throws Error naming the wrong argument. */
export function parsePreflightArgs(
  argv: readonly string[],
): (Omit<PreflightOptions, 'region'> & { region?: string }) | undefined {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      stage: { type: 'string' },
      region: { type: 'string' },
      param: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return undefined;
  if (!values.stage) throw new Error('--stage is required');
  const params = new Map<string, string>();
  for (const item of values.param ?? []) {
    const match = /^([^=]+)=(.+)$/.exec(item);
    if (!match) throw new Error(`--param "${item}": use --param=KEY=VALUE`);
    params.set(match[1]!, match[2]!.trim());
  }
  const existing = params.get('timestreamExisting') ?? 'false';
  if (existing !== 'true' && existing !== 'false') throw new Error('--param=timestreamExisting must be true or false');
  const database = params.get('timestreamDatabase');
  return {
    stage: values.stage,
    ...(values.region ? { region: values.region } : {}),
    ...(database ? { timestreamDatabase: database } : {}),
    timestreamExisting: existing === 'true',
  };
}

export function renderFindings(findings: readonly Finding[]): { text: string; ready: boolean } {
  const label = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;
  const lines = findings.map((f) => `${label[f.level]} ${f.check}: ${f.line}`);
  const missing = findings.filter((f) => f.level === 'fail').length;
  lines.push(
    missing === 0
      ? 'ready to deploy'
      : `${missing} missing: fix ${missing === 1 ? 'it' : 'them'} and run npm run deploy:check again`,
  );
  return { text: `${lines.join('\n')}\n`, ready: missing === 0 };
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parsePreflightArgs>;
  try {
    parsed = parsePreflightArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`deploy:check: ${(error as Error).message}\n\n${PREFLIGHT_HELP}`);
    return 2;
  }
  if (!parsed) {
    process.stdout.write(PREFLIGHT_HELP);
    return 0;
  }
  let region: string;
  try {
    region = await resolveRegion(parsed.region, awsRegionVariables());
  } catch (error) {
    process.stdout.write(renderFindings([{ level: 'fail', check: 'region', line: (error as Error).message }]).text);
    return 1;
  }
  const config = { region, maxAttempts: 2 };
  const findings = await preflight(
    { ...parsed, region },
    {
      sts: new STSClient(config),
      cloudFormation: new CloudFormationClient(config),
      timestream: new TimestreamWriteClient(config),
      cognito: new CognitoIdentityProviderClient(config),
      dynamodb: new DynamoDBClient(config),
      firehose: new FirehoseClient(config),
      iot: new IoTClient(config),
      lambda: new LambdaClient(config),
    },
  );
  const { text, ready } = renderFindings(findings);
  process.stdout.write(text);
  return ready ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().then(
    (code) => (process.exitCode = code),
    (error: Error) => {
      process.stderr.write(`deploy:check: ${error.message}\n`);
      process.exitCode = 1;
    },
  );
}
