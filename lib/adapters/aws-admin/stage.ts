// The AWS side of the admin CLI on a deployed stage, built from the stage's region and outputs.
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { IoTClient } from '@aws-sdk/client-iot';
import type { DeployedIdentity, DeployedThings } from '../../registry/deployed';
import { cognitoAppClients } from './cognito-app-clients';
import { iotThings } from './iot-things';
import { readStackOutputs } from './stack-outputs';

export interface StageAws {
  stackOutputs(stackName: string): Promise<Record<string, string>>;
  identity(userPoolId: string): DeployedIdentity;
  things(policyName: string): DeployedThings;
}

export function stageAws(region: string): StageAws {
  return {
    stackOutputs: (stackName) => readStackOutputs(stackName, new CloudFormationClient({ region })),
    identity: (userPoolId) => cognitoAppClients(userPoolId, new CognitoIdentityProviderClient({ region })),
    things: (policyName) => iotThings(policyName, new IoTClient({ region })),
  };
}
