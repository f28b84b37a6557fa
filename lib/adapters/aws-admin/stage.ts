// The AWS side of the admin CLI on a deployed stage, built from the stage's region and outputs.
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { IoTClient } from '@aws-sdk/client-iot';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
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

export function stageAws(region: string): StageAws {
  return {
    stackOutputs: (stackName) => readStackOutputs(stackName, new CloudFormationClient({ region })),
    identity: (userPoolId) => cognitoAppClients(userPoolId, new CognitoIdentityProviderClient({ region })),
    things: (policyName) => iotThings(policyName, new IoTClient({ region })),
    deadLetterStore: (bucket, ingestFunctionName) => s3DeadLetterStore({ bucket, ingestFunctionName, client: new S3Client({ region }) }),
    ingestInvoker: (functionName) => lambdaIngestInvoker(functionName, new LambdaClient({ region })),
  };
}
