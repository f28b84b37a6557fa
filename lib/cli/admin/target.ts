// Which registry the admin CLI works on: the local stack by default (DynamoDB Local on the port
// lib/cli/local-stack.ts finds, table industrial-insights-local-main), or a deployed stage with --stage NAME.
import path from 'node:path';
import { openMaintenance } from '../../adapters/dynamodb/maintenance';
import { openRegistry } from '../../adapters/dynamodb/registry';
import { fileDeadLetterStore } from '../../adapters/files/dead-letter-store';
import { localIngestInvoker } from '../../adapters/lambda/local-invoker';
import { awsRegionVariables } from '../../core/config';
import type { DeadLetterStore, IngestInvoker } from '../../ingest/dead-letter';
import type { MaintenanceRepository } from '../../maintenance/ports';
import type { DeployedIdentity, DeployedThings } from '../../registry/deployed';
import type { Registry } from '../../registry/ports';
import { localStack } from '../local-stack';
import { stackName, stageInfo, type StageInfo } from './stage';

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
  --dynamodb-endpoint URL     DynamoDB endpoint (default: the local stack's, port INSIGHTS_DYNAMODB_PORT
                              or the running npm start's, else 8000)
  --table NAME                main table (default ${SERVICE}-local-main, or ${SERVICE}-<stage>-main)
  --stage NAME                a deployed stage: AWS credentials from the environment; table, API address
                              and identity settings from the stack's outputs
  --region REGION             AWS region (default: AWS_REGION, AWS_DEFAULT_REGION, the profile's)
  --api-url URL               base address of the HTTP API, for printed links (default: the local
                              stack's, port INSIGHTS_HTTP_PORT or the running npm start's, else 3000)
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
  readonly maintenance: MaintenanceRepository;
  /** Undefined for the local stack. */
  readonly stage: string | undefined;
  readonly apiUrl: string;
  readonly resource: string;
  /** A deployed stage: its stack outputs and the AWS identities the CLI creates there. */
  readonly deployed?: {
    readonly info: StageInfo;
    readonly identity: DeployedIdentity;
    readonly things: DeployedThings;
  };
  /**
   * The dead letter and the ingest function to replay it through. Local: `<INSIGHTS_DATA_DIR>/dead-letter`
   * (default .data) and the Lambda port INSIGHTS_LAMBDA_PORT (default 3002), unless given;
   * deployed: the stage's dead-letter bucket and its ingest function.
   */
  deadLetters(local?: { readonly dir?: string; readonly lambdaPort?: number }): DeadLetterAccess;
  close(): void;
}

export interface DeadLetterAccess {
  readonly store: DeadLetterStore;
  readonly invoker: IngestInvoker;
}

/** `industrial-insights-<stage>-ingest`: osls names functions <service>-<stage>-<function key>. */
export function ingestFunctionName(stage: string): string {
  return `${stackName(SERVICE, stage)}-ingest`;
}

/** What a deployed stage needs from AWS (lib/adapters/aws-admin/stage.ts; mocked in tests). */
export interface StageAwsFactory {
  stackOutputs(stackName: string): Promise<Record<string, string>>;
  identity(userPoolId: string): DeployedIdentity;
  things(policyName: string): DeployedThings;
  /** The dead-letter bucket, with the ingest function's Lambda on-failure records in it. */
  deadLetterStore(bucket: string, ingestFunctionName: string): DeadLetterStore;
  ingestInvoker(functionName: string): IngestInvoker;
}

/**
 * The local stack (as `connect`), or a deployed stage whose table, API address and resource come
 * from its stack outputs (an explicit --table or --api-url still wins).
 */
export async function openTarget(values: CommonValues, aws?: (region: string) => StageAwsFactory): Promise<Target> {
  if (values.stage === undefined) return connect(values);
  const name = stackName(SERVICE, values.stage);
  const stageAdapters = await import('../../adapters/aws-admin/stage');
  // The AWS CLI's order: --region, AWS_REGION, AWS_DEFAULT_REGION, the profile's region.
  const region = await stageAdapters.resolveRegion(values.region, awsRegionVariables());
  const factory = aws ? aws(region) : stageAdapters.stageAws(region);
  const info = stageInfo(values.stage, name, await factory.stackOutputs(name));
  const target = connect({
    ...values,
    region,
    table: values.table ?? info.mainTable,
    'api-url': values['api-url'] ?? info.apiUrl,
  });
  const functionName = ingestFunctionName(values.stage);
  const deadLetters = (): DeadLetterAccess => ({
    store: factory.deadLetterStore(info.deadLetterBucket, functionName),
    invoker: factory.ingestInvoker(functionName),
  });
  return {
    ...target,
    resource: info.resource,
    deployed: { info, identity: factory.identity(info.userPoolId), things: factory.things(info.agentPolicy) },
    deadLetters,
  };
}

export function connect(values: CommonValues): Target {
  const stage = values.stage;
  const tableName = values.table ?? `${SERVICE}-${stage ?? 'local'}-main`;
  // Deployed stages: table by the service's naming convention (serverless.yml custom.mainTable).
  const local = stage === undefined ? localStack() : undefined;
  const endpoint = values['dynamodb-endpoint'] ?? (local ? `http://127.0.0.1:${local.ports.dynamodb}` : undefined);
  const where = { tableName, region: values.region ?? 'eu-west-1', ...(endpoint ? { endpoint } : {}) };
  const { registry, close: closeRegistry } = openRegistry(where);
  const { repository: maintenance, close: closeMaintenance } = openMaintenance(where);
  const close = () => {
    closeRegistry();
    closeMaintenance();
  };
  const deadLetters = (given: { readonly dir?: string; readonly lambdaPort?: number } = {}): DeadLetterAccess => {
    const stack = local ?? localStack();
    return {
      store: fileDeadLetterStore(given.dir ?? path.join(stack.dataDir, 'dead-letter')),
      invoker: localIngestInvoker(given.lambdaPort ?? stack.ports.lambda),
    };
  };
  return {
    registry,
    maintenance,
    stage,
    apiUrl: (values['api-url'] ?? `http://127.0.0.1:${(local ?? localStack()).ports.http}`).replace(/\/+$/, ''),
    resource: DEFAULT_RESOURCE,
    deadLetters,
    close,
  };
}
