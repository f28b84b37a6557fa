// Which registry the admin CLI works on: the local stack by default (DynamoDB Local on
// 127.0.0.1:8000, table industrial-insights-local-main), or a deployed stage with --stage NAME.
import { openRegistry } from '../../adapters/dynamodb/registry';
import type { Registry } from '../ports';

export const SERVICE = 'industrial-insights';
export const DEFAULT_RESOURCE = 'api://industrial-insights';

/** Options every command accepts (node:util parseArgs shape). */
export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  stage: { type: 'string' },
  'dynamodb-endpoint': { type: 'string' },
  table: { type: 'string' },
  region: { type: 'string' },
  'api-url': { type: 'string' },
} as const;

export const COMMON_HELP = `Common options:
  --json                      print the result as JSON
  --dynamodb-endpoint URL     DynamoDB endpoint (default http://127.0.0.1:8000, the local stack)
  --table NAME                main table (default ${SERVICE}-local-main, or ${SERVICE}-<stage>-main)
  --stage NAME                a deployed stage: AWS credentials from the environment, table of that stage
  --region REGION             AWS region (default eu-west-1)
  --api-url URL               base address of the HTTP API, for printed links (default http://127.0.0.1:3000)
  -h, --help                  show this help
`;

export interface CommonValues {
  readonly json?: boolean;
  readonly stage?: string;
  readonly 'dynamodb-endpoint'?: string;
  readonly table?: string;
  readonly region?: string;
  readonly 'api-url'?: string;
}

export interface Target {
  readonly registry: Registry;
  /** Undefined for the local stack. */
  readonly stage: string | undefined;
  readonly apiUrl: string;
  readonly resource: string;
  close(): void;
}

export function connect(values: CommonValues): Target {
  const stage = values.stage;
  const tableName = values.table ?? `${SERVICE}-${stage ?? 'local'}-main`;
  // Deployed stages: table by the service's naming convention (serverless.yml custom.mainTable).
  const endpoint = values['dynamodb-endpoint'] ?? (stage === undefined ? 'http://127.0.0.1:8000' : undefined);
  const { registry, close } = openRegistry({ tableName, region: values.region ?? 'eu-west-1', ...(endpoint ? { endpoint } : {}) });
  return { registry, stage, apiUrl: (values['api-url'] ?? 'http://127.0.0.1:3000').replace(/\/+$/, ''), resource: DEFAULT_RESOURCE, close };
}
