// `insights-admin dead-letter ... --stage dev`: the bucket comes from the stack outputs, the entries
// from S3, the replay goes to the stage's ingest function. Request shapes against mocked clients.
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { stageAws } from '../../../../lib/adapters/aws-admin/stage';
import { runAdmin } from '../../../../lib/cli/admin/main';

const cloudFormation = mockClient(CloudFormationClient);
const s3 = mockClient(S3Client);
const lambda = mockClient(LambdaClient);
const BUCKET = 'industrial-insights-dev-deadletterbucket-1a2b3c';
const KEY =
  'dead-letter/date=2026-01-02/2026-01-02T01-02-03-000Z-UNKNOWN_AGENT-00000000-0000-4000-8000-000000000001.json';
const payload = Buffer.from('{"messageId":"m-1"}').toString('base64');

const outputs = {
  HttpApiUrl: 'https://abc123.execute-api.eu-west-1.amazonaws.com',
  MainTableName: 'industrial-insights-dev-main',
  UserPoolId: 'eu-west-1_AbCdEf123',
  OAuthTokenUrl: 'https://x.auth.eu-west-1.amazoncognito.com/oauth2/token',
  OAuthIssuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123',
  OAuthResource: 'api://industrial-insights',
  AgentPolicyName: 'industrial-insights-dev-agent',
  DeadLetterBucketName: BUCKET,
};

async function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runAdmin(
    [...args, '--stage', 'dev', '--region', 'eu-west-1'],
    { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } },
    stageAws,
  );
  return { code, out, err };
}

beforeEach(() => {
  cloudFormation.reset();
  s3.reset();
  lambda.reset();
  cloudFormation.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'industrial-insights-dev',
        StackStatus: 'UPDATE_COMPLETE',
        CreationTime: new Date(),
        Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
      },
    ],
  });
  s3.on(ListObjectsV2Command, { Prefix: 'dead-letter/' }).resolves({ Contents: [{ Key: KEY }] });
  s3.on(ListObjectsV2Command, { Prefix: 'aws/lambda/async/industrial-insights-dev-ingest/' }).resolves({
    Contents: [],
  });
  const body = JSON.stringify({
    reason: 'UNKNOWN_AGENT',
    message: 'agent not registered',
    details: [],
    time: '2026-01-02T01:02:03.000Z',
    payloadBase64: payload,
    source: { agentId: 'a1', clientId: 'a1' },
  });
  s3.on(GetObjectCommand).resolves({
    Body: { transformToString: async () => body },
    LastModified: new Date(),
  } as unknown as GetObjectCommandOutput);
  s3.on(CopyObjectCommand).resolves({});
  s3.on(DeleteObjectCommand).resolves({});
});

describe('dead-letter commands on a deployed stage', () => {
  it("list reads the stage's dead-letter bucket and the ingest function's on-failure records", async () => {
    const { code, out } = await admin('dead-letter', 'list');
    expect(code).toBe(0);
    expect(out).toContain(`1 entry in s3://${BUCKET}: UNKNOWN_AGENT 1`);
    expect(s3.commandCalls(ListObjectsV2Command).map((c) => [c.args[0].input.Bucket, c.args[0].input.Prefix])).toEqual([
      [BUCKET, 'aws/lambda/async/industrial-insights-dev-ingest/'],
      [BUCKET, 'dead-letter/'],
    ]);
  });

  it("replay invokes the stage's ingest function and moves the object to replayed/", async () => {
    lambda.on(InvokeCommand).resolves({
      StatusCode: 200,
      Payload: new TextEncoder().encode(JSON.stringify({ status: 'stored', messageId: 'm-1', rows: 2, rejected: 0 })),
    } as never);
    const { code, out, err } = await admin('dead-letter', 'replay', '--all');
    expect(code, err).toBe(0);
    expect(out).toContain('through Lambda function industrial-insights-dev-ingest');
    const invoke = lambda.commandCalls(InvokeCommand)[0]?.args[0].input;
    expect(invoke?.FunctionName).toBe('industrial-insights-dev-ingest');
    expect(JSON.parse(new TextDecoder().decode(invoke?.Payload as Uint8Array))).toEqual({
      payload,
      agentId: 'a1',
      clientId: 'a1',
      receivedAt: Date.parse('2026-01-02T01:02:03.000Z'),
    });
    expect(s3.commandCalls(CopyObjectCommand)[0]?.args[0].input).toMatchObject({
      Bucket: BUCKET,
      Key: `replayed/${KEY}`,
      Metadata: expect.objectContaining({ 'replay-status': 'stored', 'replay-message-id': 'm-1' }),
    });
    expect(s3.commandCalls(DeleteObjectCommand)[0]?.args[0].input).toEqual({ Bucket: BUCKET, Key: KEY });
  });

  it('refuses the local-only options with --stage', async () => {
    const { code, err } = await admin('dead-letter', 'list', '--dead-letter-dir', '/tmp/x');
    expect(code).toBe(2);
    expect(err).toContain('--dead-letter-dir and --lambda-port are for the local stack');
  });
});
