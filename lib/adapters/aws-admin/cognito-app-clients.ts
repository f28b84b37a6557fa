// DeployedIdentity on Cognito: one app client per query-API client, with a secret, the client
// credentials flow and the API's `.default` scope; access tokens last an hour (expires_in 3600).
import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import {
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
  type CreateUserPoolClientCommandInput,
} from '@aws-sdk/client-cognito-identity-provider';
import type { DeployedIdentity } from '../../registry/deployed';

export function appClientRequest(userPoolId: string, name: string, scope: string): CreateUserPoolClientCommandInput {
  return {
    UserPoolId: userPoolId,
    ClientName: name,
    GenerateSecret: true,
    AllowedOAuthFlows: ['client_credentials'],
    AllowedOAuthFlowsUserPoolClient: true,
    AllowedOAuthScopes: [scope],
    SupportedIdentityProviders: ['COGNITO'],
    AccessTokenValidity: 60,
    TokenValidityUnits: { AccessToken: 'minutes' },
    EnableTokenRevocation: true,
  };
}

export function cognitoAppClients(userPoolId: string, client: CognitoIdentityProviderClient): DeployedIdentity {
  return {
    async createAppClient({ name, scope }) {
      const out = await client.send(new CreateUserPoolClientCommand(appClientRequest(userPoolId, name, scope)));
      const created = out.UserPoolClient;
      if (!created?.ClientId || !created.ClientSecret)
        throw new Error('Cognito created an app client without id or secret');
      return { clientId: created.ClientId, clientSecret: created.ClientSecret };
    },
    async deleteAppClient(clientId) {
      await client.send(new DeleteUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: clientId }));
    },
  };
}
