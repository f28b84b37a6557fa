// `npm run smoke -- --stage NAME ...` (help: infra/smoke/plan.ts). Needs AWS credentials for
// the stack outputs and the IoT endpoint, a query client, a maintenance token and, to publish,
// an agent's certificate. It writes nothing unless given --task.
import '../../lib/cli/node-runtime.mjs';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DescribeEndpointCommand, IoTClient } from '@aws-sdk/client-iot';
import { readStackOutputs } from '../../lib/adapters/aws-admin/stack-outputs';
import { resolveRegion } from '../../lib/adapters/aws-admin/stage';
import { awsRegionVariables } from '../../lib/core/config';
import { UsageError } from '../../lib/cli/args';
import { stackName, stageInfo, type StageInfo } from '../../lib/cli/admin/stage';
import {
  SMOKE_HELP,
  parseSmokeArgs,
  publishArgs,
  publishedRowsQuery,
  smokeRequests,
  type SmokeOptions,
  type SmokeRequest,
} from './plan';

const root = path.resolve(import.meta.dirname, '../..');

async function token(info: StageInfo, options: SmokeOptions): Promise<string> {
  const response = await fetch(info.tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: `${info.resource}/.default` }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (!response.ok || !body.access_token)
    throw new Error(`token endpoint answered ${response.status} ${body.error ?? ''}`);
  return body.access_token;
}

async function call(
  info: StageInfo,
  request: SmokeRequest,
  credentials: { query: string; maintenance: string },
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (request.auth !== 'none') headers.authorization = `Bearer ${credentials[request.auth]}`;
  const response = await fetch(`${info.apiUrl}${request.path}`, {
    method: request.method,
    headers,
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: response.status, body };
}

function gdm(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'lib/cli/gdm.mjs'), ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function smoke(options: SmokeOptions, log: (line: string) => void): Promise<boolean> {
  const name = stackName('industrial-insights', options.stage);
  const region = await resolveRegion(options.region, awsRegionVariables());
  const info = stageInfo(options.stage, name, await readStackOutputs(name, new CloudFormationClient({ region })));
  log(`stack ${name} in ${region}: API ${info.apiUrl}`);
  const credentials = { query: await token(info, options), maintenance: options.maintenanceToken };
  log('ok   token from Cognito');
  const now = new Date();
  const window = {
    startTime: new Date(now.getTime() - 86_400_000).toISOString(),
    endTime: new Date(now.getTime() + 3_600_000).toISOString(),
  };
  const task = options.taskFile !== undefined ? JSON.parse(await readFile(options.taskFile, 'utf8')) : undefined;
  let ok = true;
  for (const request of smokeRequests(options, window, task)) {
    const { status, body } = await call(info, request, credentials);
    const passed = status === request.expect;
    ok &&= passed;
    log(
      `${passed ? 'ok  ' : 'FAIL'} ${request.name}: ${request.method} ${request.path} -> ${status}${passed ? '' : ` (expected ${request.expect}) ${JSON.stringify(body).slice(0, 300)}`}`,
    );
  }
  if (options.publish) {
    const endpoint =
      (await new IoTClient({ region }).send(new DescribeEndpointCommand({ endpointType: 'iot:Data-ATS' })))
        .endpointAddress ?? '';
    const since = new Date(Date.now() - 60_000);
    const published = (await gdm(publishArgs(options.publish, endpoint, options.plant))) === 0;
    ok &&= published;
    log(`${published ? 'ok  ' : 'FAIL'} publish through IoT Core (${endpoint})`);
    if (published) {
      const deadline = Date.now() + options.waitSeconds * 1000;
      const query: SmokeRequest = {
        name: 'published message is queryable',
        method: 'POST',
        path: '/insights/v1/telemetry/query/table',
        auth: 'query',
        body: { query: publishedRowsQuery(options.publish.agentId, since), ...window },
        expect: 200,
      };
      let found = false;
      while (!found && Date.now() < deadline) {
        const { status, body } = await call(info, query, credentials);
        found = status === 200 && Number((body as { data?: { rows?: unknown[][] } }).data?.rows?.[0]?.[0] ?? 0) > 0;
        if (!found) await new Promise((r) => setTimeout(r, 5000));
      }
      ok &&= found;
      log(`${found ? 'ok  ' : 'FAIL'} the published message reached Timestream within ${options.waitSeconds} s`);
    }
  } else {
    log('skip publish through IoT Core (give --agent-id, --cert, --key and --ca)');
  }
  return ok;
}

async function main(): Promise<number> {
  let options: SmokeOptions | undefined;
  try {
    options = parseSmokeArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`smoke: ${error.message}\n\n${SMOKE_HELP}`);
    return 2;
  }
  if (!options) {
    process.stdout.write(SMOKE_HELP);
    return 0;
  }
  return (await smoke(options, (line) => process.stdout.write(`${line}\n`))) ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (error: Error) => {
    process.stderr.write(`smoke: ${error.message}\n`);
    process.exitCode = 1;
  },
);
