// The admin CLI on a deployed stage: stack outputs, Cognito app clients and IoT things, checked
// by the requests sent to AWS (aws-sdk-client-mock) and what lands in the registry.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DescribeEndpointCommand,
  IoTClient,
} from '@aws-sdk/client-iot';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stageAws } from '../../lib/adapters/aws-admin/stage';
import { createCustomer, createPlant } from '../../lib/registry/admin';
import { COMMANDS } from '../../lib/cli/admin/commands';
import { STACK_OUTPUTS } from '../../lib/cli/admin/stage';
import { openTarget, type Target } from '../../lib/cli/admin/target';
import { createAgentWithThing, createCognitoClient } from '../../lib/registry/deployed';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoDbRegistry } from '../../lib/adapters/dynamodb/registry';
import { createMainTable, type DynamoDbLocal } from '../support/dynamodb-local';
import { sharedDynamoDb } from '../support/shared-dynamodb';

const cloudFormation = mockClient(CloudFormationClient);
const cognito = mockClient(CognitoIdentityProviderClient);
const iot = mockClient(IoTClient);
const now = new Date('2026-03-01T00:00:00Z');
const AGENT = '0b8a1f4e-6a52-4a0d-9d7e-3c2b1a0f9e8d';

const outputs = {
  HttpApiUrl: 'https://abc123.execute-api.eu-west-1.amazonaws.com',
  MainTableName: 'industrial-insights-dev-main',
  UserPoolId: 'eu-west-1_AbCdEf123',
  OAuthTokenUrl: 'https://industrial-insights-dev-123456789012.auth.eu-west-1.amazoncognito.com/oauth2/token',
  OAuthIssuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123',
  OAuthResource: 'api://industrial-insights',
  AgentPolicyName: 'industrial-insights-dev-agent',
  DeadLetterBucketName: 'industrial-insights-dev-deadletterbucket-1a2b3c',
};

function mockIot(): void {
  iot
    .on(CreateThingCommand)
    .resolves({ thingName: AGENT, thingArn: `arn:aws:iot:eu-west-1:123456789012:thing/${AGENT}` });
  iot.on(CreateKeysAndCertificateCommand).resolves({
    certificateArn: 'arn:aws:iot:eu-west-1:123456789012:cert/c0ffee',
    certificateId: 'c0ffee',
    certificatePem: '-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----\n',
    keyPair: { PrivateKey: '-----BEGIN RSA PRIVATE KEY-----\nY\n-----END RSA PRIVATE KEY-----\n', PublicKey: 'P' },
  });
  iot.on(AttachPolicyCommand).resolves({});
  iot.on(AttachThingPrincipalCommand).resolves({});
  iot.on(DescribeEndpointCommand).resolves({ endpointAddress: 'abc-ats.iot.eu-west-1.amazonaws.com' });
}

// Each test gets its own table on one DynamoDB Local, so each starts with an empty registry.
let db: DynamoDbLocal;
let tables = 0;
beforeAll(async () => {
  db = await sharedDynamoDb('deployed-stage');
});
afterAll(async () => db?.stop());

async function registryWithCustomer() {
  const table = `${db.tableName}-${++tables}`;
  await createMainTable(db.client, table);
  const registry = dynamoDbRegistry(DynamoDBDocumentClient.from(db.client), table);
  await createCustomer(registry, { customerId: 'acme', now });
  await createPlant(registry, { customerId: 'acme', plantId: 'p1', now });
  return registry;
}

beforeEach(() => {
  cloudFormation.reset();
  cognito.reset();
  iot.reset();
});

describe('openTarget --stage', () => {
  it('reads the table, API address and identity settings from the stack outputs', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [
        {
          StackName: 'industrial-insights-dev',
          StackStatus: 'UPDATE_COMPLETE',
          CreationTime: now,
          Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
        },
      ],
    });
    const target = await openTarget({ stage: 'dev', region: 'eu-west-1' }, stageAws);
    try {
      expect(cloudFormation.commandCalls(DescribeStacksCommand)[0]!.args[0].input).toEqual({
        StackName: 'industrial-insights-dev',
      });
      expect(target.apiUrl).toBe(outputs.HttpApiUrl);
      expect(target.resource).toBe('api://industrial-insights');
      expect(target.deployed?.info).toMatchObject({
        mainTable: outputs.MainTableName,
        userPoolId: outputs.UserPoolId,
        agentPolicy: outputs.AgentPolicyName,
        tokenUrl: outputs.OAuthTokenUrl,
      });
    } finally {
      target.close();
    }
  });

  it('names the outputs an older stack lacks, and a stack that does not exist', async () => {
    cloudFormation.on(DescribeStacksCommand).resolvesOnce({
      Stacks: [
        {
          StackName: 'x',
          StackStatus: 'CREATE_COMPLETE',
          CreationTime: now,
          Outputs: [{ OutputKey: 'MainTableName', OutputValue: 't' }],
        },
      ],
    });
    await expect(openTarget({ stage: 'dev', region: 'eu-west-1' }, stageAws)).rejects.toThrow(
      /lacks the outputs HttpApiUrl, UserPoolId/,
    );
    cloudFormation
      .on(DescribeStacksCommand)
      .rejects(
        Object.assign(new Error('Stack with id industrial-insights-nope does not exist'), { name: 'ValidationError' }),
      );
    await expect(openTarget({ stage: 'nope', region: 'eu-west-1' }, stageAws)).rejects.toThrow(
      /industrial-insights-nope not found/,
    );
  });

  it('refuses a stage name that cannot be a stack name', async () => {
    await expect(openTarget({ stage: 'dev;rm' }, stageAws)).rejects.toThrow(/letters, digits and dashes/);
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it('lists every output name the template must export', () => {
    expect(Object.values(STACK_OUTPUTS).sort()).toEqual(Object.keys(outputs).sort());
  });
});

describe('clients create on Cognito', () => {
  it('creates a client-credentials app client with a secret and the .default scope, and records the mapping', async () => {
    const registry = await registryWithCustomer();
    cognito
      .on(CreateUserPoolClientCommand)
      .resolves({ UserPoolClient: { ClientId: '4abc5defg6hij7klm8nop9qrst', ClientSecret: 's3cr3t' } });
    const identity = stageAws('eu-west-1').identity(outputs.UserPoolId);

    const { client, clientSecret } = await createCognitoClient(registry, identity, {
      customerId: 'acme',
      plantIds: ['p1'],
      name: 'dashboard',
      resource: 'api://industrial-insights',
      now,
    });

    expect(cognito.commandCalls(CreateUserPoolClientCommand)[0]!.args[0].input).toEqual({
      UserPoolId: outputs.UserPoolId,
      ClientName: 'acme: dashboard',
      GenerateSecret: true,
      AllowedOAuthFlows: ['client_credentials'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['api://industrial-insights/.default'],
      SupportedIdentityProviders: ['COGNITO'],
      AccessTokenValidity: 60,
      TokenValidityUnits: { AccessToken: 'minutes' },
      EnableTokenRevocation: true,
    });
    expect(clientSecret).toBe('s3cr3t');
    expect(await registry.getClient('4abc5defg6hij7klm8nop9qrst')).toEqual({
      ...client,
      idp: 'cognito',
      plantIds: ['p1'],
    });
    expect(client.secretHash).toBeUndefined();
  });

  it('checks the customer and plants before creating anything, and deletes the app client when the registry refuses', async () => {
    const registry = await registryWithCustomer();
    const identity = stageAws('eu-west-1').identity(outputs.UserPoolId);
    await expect(
      createCognitoClient(registry, identity, { customerId: 'acme', plantIds: ['other'], resource: 'api://x', now }),
    ).rejects.toThrow(/do not belong/);
    expect(cognito.calls()).toHaveLength(0);

    cognito.on(CreateUserPoolClientCommand).resolves({ UserPoolClient: { ClientId: 'dup', ClientSecret: 's' } });
    cognito.on(DeleteUserPoolClientCommand).resolves({});
    await createCognitoClient(registry, identity, { customerId: 'acme', resource: 'api://x', now });
    await expect(
      createCognitoClient(registry, identity, { customerId: 'acme', resource: 'api://x', now }),
    ).rejects.toThrow(/already exists/);
    expect(cognito.commandCalls(DeleteUserPoolClientCommand)[0]!.args[0].input).toEqual({
      UserPoolId: outputs.UserPoolId,
      ClientId: 'dup',
    });
  });
});

describe('agents create on IoT Core', () => {
  it('makes the thing, an active certificate, attaches the agent policy and this thing only, then records the agent', async () => {
    const registry = await registryWithCustomer();
    mockIot();
    const things = stageAws('eu-west-1').things(outputs.AgentPolicyName);

    const { agent, thing } = await createAgentWithThing(registry, things, { customerId: 'acme', agentId: AGENT, now });

    expect(iot.calls().map((c) => c.args[0].constructor.name)).toEqual([
      'CreateThingCommand',
      'CreateKeysAndCertificateCommand',
      'AttachPolicyCommand',
      'AttachThingPrincipalCommand',
      'DescribeEndpointCommand',
    ]);
    expect(iot.commandCalls(CreateThingCommand)[0]!.args[0].input).toEqual({
      thingName: AGENT,
      attributePayload: { attributes: { customer: 'acme' } },
    });
    expect(iot.commandCalls(CreateKeysAndCertificateCommand)[0]!.args[0].input).toEqual({ setAsActive: true });
    expect(iot.commandCalls(AttachPolicyCommand)[0]!.args[0].input).toEqual({
      policyName: 'industrial-insights-dev-agent',
      target: 'arn:aws:iot:eu-west-1:123456789012:cert/c0ffee',
    });
    expect(iot.commandCalls(AttachThingPrincipalCommand)[0]!.args[0].input).toEqual({
      thingName: AGENT,
      principal: 'arn:aws:iot:eu-west-1:123456789012:cert/c0ffee',
      thingPrincipalType: 'EXCLUSIVE_THING',
    });
    expect(iot.commandCalls(DescribeEndpointCommand)[0]!.args[0].input).toEqual({ endpointType: 'iot:Data-ATS' });
    expect(await registry.getAgent(AGENT)).toEqual(agent);
    expect(thing.endpoint).toBe('abc-ats.iot.eu-west-1.amazonaws.com');
  });

  it('makes nothing in IoT Core for an unknown customer or a taken agent id', async () => {
    const registry = await registryWithCustomer();
    mockIot();
    const things = stageAws('eu-west-1').things(outputs.AgentPolicyName);
    await expect(createAgentWithThing(registry, things, { customerId: 'nobody', agentId: AGENT, now })).rejects.toThrow(
      /does not exist/,
    );
    await createAgentWithThing(registry, things, { customerId: 'acme', agentId: AGENT, now });
    iot.resetHistory();
    await expect(createAgentWithThing(registry, things, { customerId: 'acme', agentId: AGENT, now })).rejects.toThrow(
      /already exists/,
    );
    expect(iot.calls()).toHaveLength(0);
  });

  describe('the command', () => {
    let dir: string;
    beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'agent-files-'))));
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('writes the certificate and a private key only its owner can read, and prints how to publish', async () => {
      const registry = await registryWithCustomer();
      mockIot();
      const aws = stageAws('eu-west-1');
      const target = {
        registry,
        stage: 'dev',
        apiUrl: outputs.HttpApiUrl,
        resource: 'api://industrial-insights',
        close: () => undefined,
        deployed: {
          info: { agentPolicy: outputs.AgentPolicyName },
          things: aws.things(outputs.AgentPolicyName),
          identity: aws.identity(outputs.UserPoolId),
        },
      } as unknown as Target;
      const io = { stdout: { write: () => true }, stderr: { write: () => true } };
      const command = COMMANDS['agents create']!;

      const result = (await command.run({ customer: 'acme', agent: AGENT, out: dir }, [], target, io)) as {
        files: { certificate: string; privateKey: string; rootCa: string };
      };

      expect(await readFile(result.files.certificate, 'utf8')).toContain('BEGIN CERTIFICATE');
      expect((await stat(result.files.privateKey)).mode & 0o777).toBe(0o600);
      expect(result.files.rootCa).toBe('https://www.amazontrust.com/repository/AmazonRootCA1.pem');
      expect(JSON.stringify(result)).not.toContain('PRIVATE KEY');
      expect(command.text(result as never, target)).toContain(
        `gdm publish --agent-id ${AGENT} --endpoint abc-ats.iot.eu-west-1.amazonaws.com --cert ${result.files.certificate}`,
      );
    });
  });
});
