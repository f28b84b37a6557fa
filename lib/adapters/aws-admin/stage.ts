// The AWS side of the admin CLI on a deployed stage, built from the stage's region and outputs.
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { IoTClient } from '@aws-sdk/client-iot';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { STSClient } from '@aws-sdk/client-sts';
import { AppError } from '../../core/errors';
import type { DeadLetterStore, IngestInvoker } from '../../ingest/dead-letter';
import type { DeployedIdentity, DeployedThings } from '../../registry/deployed';
import { lambdaIngestInvoker } from '../lambda/lambda-invoker';
import { s3DeadLetterStore } from '../s3/dead-letter-store';
import { cognitoAppClients } from './cognito-app-clients';
import { iotThings } from './iot-things';
import { readStackOutputs } from './stack-outputs';

export interface StageAws {
  stackOutputs(stackName: string): Promise<Record<string, string>>;
  identity(userPoolId: string): DeployedIdentity;
  things(policyName: string): DeployedThings;
  deadLetterStore(bucket: string, ingestFunctionName: string): DeadLetterStore;
  ingestInvoker(functionName: string): IngestInvoker;
}

/**
 * The region of a command on a deployed stage, in the AWS CLI's order: the --region flag,
 * AWS_REGION, AWS_DEFAULT_REGION, then the region of the profile (AWS_PROFILE or `default`) in
 * the shared config file, which the SDK's own provider chain reads.
 * @throws AppError INVALID_INPUT saying where a region can be given, when none is found.
 */
export async function resolveRegion(
  flag: string | undefined,
  variables: { readonly AWS_REGION?: string; readonly AWS_DEFAULT_REGION?: string },
  profileRegion: () => Promise<string> = sdkProfileRegion,
): Promise<string> {
  const given = flag ?? variables.AWS_REGION ?? variables.AWS_DEFAULT_REGION;
  if (given) return given;
  try {
    return await profileRegion();
  } catch (error) {
    throw new AppError(
      'INVALID_INPUT',
      'no AWS region: give --region NAME, set AWS_REGION (or AWS_DEFAULT_REGION), or set a region in your AWS profile (aws configure)',
      { field: 'region' },
      { cause: error },
    );
  }
}

/** The SDK's default region chain (environment, then the profile's config); rejects when it finds none. */
async function sdkProfileRegion(): Promise<string> {
  const client = new STSClient({});
  try {
    return await client.config.region();
  } finally {
    client.destroy();
  }
}

export function stageAws(region: string): StageAws {
  return {
    stackOutputs: (stackName) => readStackOutputs(stackName, new CloudFormationClient({ region })),
    identity: (userPoolId) => cognitoAppClients(userPoolId, new CognitoIdentityProviderClient({ region })),
    things: (policyName) => iotThings(policyName, new IoTClient({ region })),
    deadLetterStore: (bucket, ingestFunctionName) =>
      s3DeadLetterStore({ bucket, ingestFunctionName, client: new S3Client({ region }) }),
    ingestInvoker: (functionName) => lambdaIngestInvoker(functionName, new LambdaClient({ region })),
  };
}
