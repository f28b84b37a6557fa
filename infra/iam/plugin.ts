// osls plugin: one IAM role per function, made from the grants the function lists under `access`
// (infra/iam/grants.ts). A function without `access` stops the packaging, so a new function never
// falls back to a shared role. Runs only when packaging; the offline stack does not need roles.
import { functionRole, roleLogicalId } from './grants';

interface FunctionLike {
  name?: string;
  role?: unknown;
  access?: unknown;
}

export interface ServerlessLike {
  service: {
    getAllFunctions(): string[];
    getFunction(key: string): FunctionLike;
    resources?: { Resources?: Record<string, unknown> };
    provider: { environment?: Record<string, unknown> };
  };
  getProvider(name: 'aws'): { naming: { getNormalizedFunctionName(key: string): string } };
}

/** Adds each function's role to the resources and points the function at it. */
export function assignRoles(serverless: ServerlessLike): string[] {
  const service = serverless.service;
  const naming = serverless.getProvider('aws').naming;
  service.resources ??= {};
  service.resources.Resources ??= {};
  const resources = service.resources.Resources;
  // The resolved provider environment holds the database name the functions are given.
  const timestreamDatabase = String(service.provider.environment?.TIMESTREAM_DATABASE ?? '');
  const missing: string[] = [];
  const made: string[] = [];
  for (const key of service.getAllFunctions()) {
    const fn = service.getFunction(key);
    if (fn.role !== undefined) continue;
    if (!Array.isArray(fn.access)) {
      missing.push(key);
      continue;
    }
    const logicalId = roleLogicalId(naming.getNormalizedFunctionName(key));
    resources[logicalId] = functionRole(key, fn.access.map(String), {
      functionName: fn.name ?? key,
      timestreamDatabase,
    });
    fn.role = logicalId;
    made.push(logicalId);
  }
  if (missing.length > 0) {
    throw new Error(
      `functions without \`access\` (the AWS permissions they need; \`access: []\` for none, see infra/iam/grants.ts): ${missing.join(', ')}`,
    );
  }
  return made;
}
