// The names a stage's stack fixes (serverless.yml, infra/resources/*.yml) and the rules AWS puts on
// them, as plain functions: what the preflight checks without asking AWS.
export interface StageNames {
  readonly stage: string;
  readonly stack: string;
  readonly mainTable: string;
  readonly lakeStream: string;
  readonly timestreamDatabase: string;
  /** Cognito hosted domain prefix (infra/resources/cognito.yml): global in the region, so the account id is in it. */
  cognitoDomain(accountId: string): string;
  /** What is wrong with the stage name itself; undefined when nothing. */
  readonly problem?: string;
}

const SERVICE = 'industrial-insights';

export function stageNames(stage: string, timestreamDatabase?: string): StageNames {
  const prefix = `${SERVICE}-${stage}`;
  const problem = !/^[a-zA-Z0-9-]+$/.test(stage)
    ? `stage "${stage}": letters, digits and dashes only`
    : stage === 'local'
      ? 'the stage "local" is the local stack (npm start) and is never deployed: choose another --stage'
      : undefined;
  return {
    stage,
    stack: prefix,
    mainTable: `${prefix}-main`,
    lakeStream: `${prefix}-lake`,
    timestreamDatabase: timestreamDatabase || prefix,
    cognitoDomain: (accountId) => `${prefix}-${accountId}`,
    ...(problem ? { problem } : {}),
  };
}

/**
 * Cognito's rules for a domain prefix: lowercase letters, digits and hyphens, at most 63
 * characters, not starting or ending with a hyphen, and without the reserved words.
 */
export function cognitoDomainProblem(domain: string): string | undefined {
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(domain))
    return `the Cognito domain prefix ${domain} is not valid (lowercase letters, digits and hyphens, at most 63): use a lowercase, shorter --stage`;
  const reserved = ['aws', 'amazon', 'cognito'].find((word) => domain.includes(word));
  if (reserved)
    return `the Cognito domain prefix ${domain} contains the reserved word "${reserved}": use another --stage`;
  return undefined;
}

export function errorName(error: unknown): string {
  return (error as { name?: string })?.name ?? 'Error';
}

/**
 * Why Timestream refused, in one line. An IAM denial names the action ("is not authorized to
 * perform"); any other AccessDeniedException is taken for the account-level closure of
 * LiveAnalytics to new customers (2025-06-20), whose exact wording AWS does not document.
 */
export function timestreamRefusal(error: unknown, region: string): string {
  const name = errorName(error);
  const message = (error as Error)?.message ?? '';
  if (name === 'AccessDeniedException' && /not authorized to perform/i.test(message)) {
    return `the deploying principal may not use Timestream (${message.slice(0, 160)}): grant it timestream:DescribeEndpoints and the timestream:* actions of docs/deploy.md`;
  }
  if (name === 'AccessDeniedException') {
    return `this account has no access to Timestream for LiveAnalytics (closed to new customers since 2025-06-20; AWS said: ${message.slice(0, 160)}): deploy from an account that already uses it, or see docs/deploy.md, "Accounts without Timestream"`;
  }
  if (/ENOTFOUND|UnknownEndpoint|EndpointError|getaddrinfo/i.test(`${name} ${message}`)) {
    return `Timestream for LiveAnalytics is not offered in ${region}: deploy to a region that has it (e.g. eu-west-1, us-east-1)`;
  }
  return `Timestream for LiveAnalytics did not answer (${name}: ${message.slice(0, 160)}): check the region and the network, then run this again`;
}
