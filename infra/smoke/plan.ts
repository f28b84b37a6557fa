// What `npm run smoke -- --stage NAME` checks on a deployed stage, as plain data: the options it
// takes and the HTTP calls it makes. Secrets come from the environment, never from the command
// line (where `ps` and shell history would show them).
import { UsageError, parseCommandArgs } from '../../lib/cli/args';

export const SMOKE_HELP = `Usage: npm run smoke -- --stage NAME --client-id ID --plant P [options]

Checks a deployed stage end to end: gets a token from Cognito, runs a query, calls every
maintenance endpoint and, with an agent's certificate, publishes a message through IoT Core and
waits until the query API returns it.

Required:
  --stage NAME         the deployed stage (stack industrial-insights-NAME)
  --client-id ID       a query client of the plant's customer (insights-admin clients create --stage)
  --plant P            a plant of that customer
Environment:
  SMOKE_CLIENT_SECRET       the client's secret (required)
  SMOKE_MAINTENANCE_TOKEN   a maintenance token of the plant (required; insights-admin tokens issue)
Options:
  --region R           AWS region (default: AWS_REGION, AWS_DEFAULT_REGION, then the profile's, as the AWS CLI)
  --agent-id UUID --cert FILE --key FILE --ca FILE
                       publish one generated message as this agent (insights-admin agents create --stage)
  --task FILE          create this task (JSON body) instead of only checking that POST tasks answers 400 to {}
  --wait D             how long to wait for the published message in the query API, in seconds (default 120)
  -h, --help           show this help
Exit status: 0 every check passed, 1 a check failed, 2 usage error.
`;

export interface SmokeOptions {
  readonly stage: string;
  /** Absent: resolved as the AWS CLI does (infra/smoke/run.ts). */
  readonly region?: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly plant: string;
  readonly maintenanceToken: string;
  readonly publish?: { readonly agentId: string; readonly cert: string; readonly key: string; readonly ca: string };
  readonly taskFile?: string;
  readonly waitSeconds: number;
}

const OPTIONS = {
  stage: { type: 'string' },
  region: { type: 'string' },
  'client-id': { type: 'string' },
  plant: { type: 'string' },
  'agent-id': { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  ca: { type: 'string' },
  task: { type: 'string' },
  wait: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** @returns undefined for --help. @throws UsageError naming what is missing or wrong. */
export function parseSmokeArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): SmokeOptions | undefined {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS);
  if (values.help) return undefined;
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const need = (name: 'stage' | 'client-id' | 'plant'): string => {
    const value = values[name];
    if (!value) throw new UsageError(`--${name} is required`);
    return value;
  };
  const secret = (name: string): string => {
    const value = env[name];
    if (!value) throw new UsageError(`set ${name} in the environment`);
    return value;
  };
  const stage = need('stage');
  if (!/^[a-zA-Z0-9-]+$/.test(stage)) throw new UsageError('--stage: letters, digits and dashes only');
  const publishFlags = (['agent-id', 'cert', 'key', 'ca'] as const).filter((f) => values[f] !== undefined);
  if (publishFlags.length > 0 && publishFlags.length < 4)
    throw new UsageError('publishing needs all of --agent-id, --cert, --key and --ca');
  const waitSeconds = values.wait === undefined ? 120 : Number(values.wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds <= 0)
    throw new UsageError('--wait must be a positive number of seconds');
  return {
    stage,
    ...(values.region !== undefined ? { region: values.region } : {}),
    clientId: need('client-id'),
    clientSecret: secret('SMOKE_CLIENT_SECRET'),
    plant: need('plant'),
    maintenanceToken: secret('SMOKE_MAINTENANCE_TOKEN'),
    ...(publishFlags.length === 4
      ? { publish: { agentId: values['agent-id']!, cert: values.cert!, key: values.key!, ca: values.ca! } }
      : {}),
    ...(values.task !== undefined ? { taskFile: values.task } : {}),
    waitSeconds,
  };
}

export interface SmokeRequest {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly auth: 'none' | 'query' | 'maintenance';
  readonly body?: unknown;
  /** The status that proves the route, its authorizer and its function are wired. */
  readonly expect: number;
}

/** The HTTP calls of a smoke run, in order (the IoT publish and its query come after these). */
export function smokeRequests(
  options: Pick<SmokeOptions, 'plant'>,
  window: { startTime: string; endTime: string },
  task?: unknown,
): SmokeRequest[] {
  const plant = `/maintenance/v1/plants/${encodeURIComponent(options.plant)}`;
  return [
    { name: 'health', method: 'GET', path: '/health', auth: 'none', expect: 200 },
    {
      name: 'query without a token is refused',
      method: 'POST',
      path: '/insights/v1/telemetry/query/table',
      auth: 'none',
      body: { query: 'States | take 1', ...window },
      expect: 401,
    },
    {
      name: 'query',
      method: 'POST',
      path: '/insights/v1/telemetry/query/table',
      auth: 'query',
      body: { query: 'States | summarize count()', ...window, plantIds: [options.plant] },
      expect: 200,
    },
    {
      name: 'explain',
      method: 'POST',
      path: '/insights/v1/telemetry/query/explain',
      auth: 'query',
      body: { query: 'Events | take 1', ...window },
      expect: 200,
    },
    { name: 'openapi', method: 'GET', path: '/maintenance/v1/openapi.json', auth: 'none', expect: 200 },
    {
      name: 'jobs done',
      method: 'GET',
      path: `${plant}/jobs-done?startDate=${window.startTime.slice(0, 10)}&endDate=${window.endTime.slice(0, 10)}`,
      auth: 'maintenance',
      expect: 200,
    },
    {
      name: 'jobs planned',
      method: 'GET',
      path: `${plant}/jobs-planned?startDate=${window.startTime.slice(0, 10)}&endDate=${window.endTime.slice(0, 10)}`,
      auth: 'maintenance',
      expect: 200,
    },
    { name: 'assets', method: 'GET', path: `${plant}/assets`, auth: 'maintenance', expect: 200 },
    { name: 'tasks', method: 'GET', path: `${plant}/tasks`, auth: 'maintenance', expect: 200 },
    task === undefined
      ? {
          name: 'create task (refuses {}: route wired, nothing written)',
          method: 'POST',
          path: `${plant}/tasks`,
          auth: 'maintenance',
          body: {},
          expect: 400,
        }
      : { name: 'create task', method: 'POST', path: `${plant}/tasks`, auth: 'maintenance', body: task, expect: 200 },
    {
      name: 'stock level (refuses {}: route wired, nothing written)',
      method: 'PUT',
      path: `${plant}/parts/smoke-check/stock-level`,
      auth: 'maintenance',
      body: {},
      expect: 400,
    },
    {
      name: 'maintenance call without a token is refused',
      method: 'GET',
      path: `${plant}/tasks`,
      auth: 'none',
      expect: 401,
    },
  ];
}

/** The query that finds the published message: the agent's state rows since the publish began. */
export function publishedRowsQuery(agentId: string, since: Date): string {
  if (!/^[0-9a-f-]{36}$/.test(agentId)) throw new UsageError('--agent-id must be a lowercase UUID');
  return `States | where AgentId == '${agentId}' and Timestamp >= datetime(${since.toISOString()}) | count`;
}

/** The `gdm publish` arguments for one generated message through IoT Core. */
export function publishArgs(publish: NonNullable<SmokeOptions['publish']>, endpoint: string, plant: string): string[] {
  return [
    'publish',
    '--agent-id',
    publish.agentId,
    '--endpoint',
    endpoint,
    '--cert',
    publish.cert,
    '--key',
    publish.key,
    '--ca',
    publish.ca,
    '--generate',
    '--types',
    'state',
    '--plant-id',
    plant,
    '--count',
    '1',
  ];
}
