// A deployed stage as the admin CLI sees it: the stack `industrial-insights-<stage>` and the
// outputs it reads (infra/resources/outputs.yml; HttpApiUrl is added by osls).
import { AppError } from '../../core/errors';

export const STACK_OUTPUTS = {
  apiUrl: 'HttpApiUrl',
  mainTable: 'MainTableName',
  userPoolId: 'UserPoolId',
  tokenUrl: 'OAuthTokenUrl',
  issuer: 'OAuthIssuer',
  resource: 'OAuthResource',
  agentPolicy: 'AgentPolicyName',
  deadLetterBucket: 'DeadLetterBucketName',
} as const;

export type StageInfo = { readonly [K in keyof typeof STACK_OUTPUTS]: string } & {
  readonly stage: string;
  readonly stackName: string;
};

/** `dev` -> `industrial-insights-dev` (osls names the stack <service>-<stage>). */
export function stackName(service: string, stage: string): string {
  if (!/^[a-zA-Z0-9-]+$/.test(stage))
    throw new AppError('INVALID_INPUT', `stage "${stage}": letters, digits and dashes only`, {
      field: 'stage',
      value: stage,
    });
  return `${service}-${stage}`;
}

/** @throws AppError NOT_FOUND naming the outputs the stack lacks (an older deployment). */
export function stageInfo(stage: string, name: string, outputs: Readonly<Record<string, string>>): StageInfo {
  const missing = Object.values(STACK_OUTPUTS).filter((key) => !outputs[key]);
  if (missing.length > 0)
    throw new AppError(
      'NOT_FOUND',
      `stack ${name} lacks the outputs ${missing.join(', ')}; deploy the current version (npx osls deploy --stage ${stage})`,
    );
  const values = Object.fromEntries(
    Object.entries(STACK_OUTPUTS).map(([field, key]) => [field, outputs[key]!.replace(/\/+$/, '')]),
  );
  return { ...(values as { [K in keyof typeof STACK_OUTPUTS]: string }), stage, stackName: name };
}
