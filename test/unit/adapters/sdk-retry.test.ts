// The retry settings every client gets (lib/adapters/sdk-config.ts), on a real SDK client whose
// HTTP handler is a stand-in: the whole middleware stack runs, retries included, so these count
// the HTTP requests one call makes. aws-sdk-client-mock replaces `send` and cannot show this.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { describe, expect, it } from 'vitest';
import { createDynamoDbClients } from '../../../lib/adapters/dynamodb/client';
import { SDK_MAX_ATTEMPTS, sdkClientConfig } from '../../../lib/adapters/sdk-config';

interface Answer {
  readonly status: number;
  readonly body: object;
}

/** An HTTP handler answering from a script (the last answer repeats), counting the requests. */
function scripted(answers: readonly Answer[]) {
  const seen: string[] = [];
  const handler = {
    metadata: { handlerProtocol: 'http/1.1' },
    async handle(request: { headers: Record<string, string> }) {
      seen.push(request.headers['x-amz-target'] ?? '');
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      return {
        response: {
          statusCode: answer.status,
          reason: '',
          headers: { 'content-type': 'application/x-amz-json-1.1' },
          body: new TextEncoder().encode(JSON.stringify(answer.body)),
        },
      };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  };
  return { handler, seen };
}

/** The SDK's strategy classes carry their mode; the interface does not declare it. */
const modeOf = (strategy: object): unknown => (strategy as { mode?: unknown }).mode;

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
const unavailable: Answer = { status: 503, body: { __type: 'ServiceUnavailableException', message: 'try later' } };
const invalid: Answer = { status: 400, body: { __type: 'InvalidArgumentException', message: 'bad stream' } };
const ok: Answer = { status: 200, body: { FailedPutCount: 0, RequestResponses: [{ RecordId: 'r1' }] } };
const put = new PutRecordBatchCommand({ DeliveryStreamName: 's', Records: [{ Data: new Uint8Array([1]) }] });

describe('SDK retry settings', () => {
  it('are standard mode with 3 attempts, whatever else a client is given', async () => {
    const client = new FirehoseClient(sdkClientConfig({ region: 'eu-west-1', maxAttempts: 10 }));
    expect(await client.config.maxAttempts()).toBe(SDK_MAX_ATTEMPTS);
    expect(SDK_MAX_ATTEMPTS).toBe(3);
    expect(modeOf(await client.config.retryStrategy())).toBe('standard');
  });

  it('retry a server error inside one call, which then succeeds', async () => {
    const { handler, seen } = scripted([unavailable, ok]);
    const client = new FirehoseClient(sdkClientConfig({ region: 'eu-west-1', credentials, requestHandler: handler }));
    const out = await client.send(put);
    expect(out.FailedPutCount).toBe(0);
    expect(seen).toHaveLength(2);
  });

  it('give up after 3 requests of a call that keeps failing', async () => {
    const { handler, seen } = scripted([unavailable]);
    const client = new FirehoseClient(sdkClientConfig({ region: 'eu-west-1', credentials, requestHandler: handler }));
    await expect(client.send(put)).rejects.toMatchObject({
      name: 'ServiceUnavailableException',
      $metadata: { attempts: 3 },
    });
    expect(seen).toHaveLength(3);
  });

  it('do not retry a client error', async () => {
    const { handler, seen } = scripted([invalid]);
    const client = new FirehoseClient(sdkClientConfig({ region: 'eu-west-1', credentials, requestHandler: handler }));
    await expect(client.send(put)).rejects.toMatchObject({ name: 'InvalidArgumentException' });
    expect(seen).toHaveLength(1);
  });

  it('apply to the DynamoDB clients of the one factory, locally and deployed', async () => {
    for (const target of [{ region: 'eu-west-1', endpoint: 'http://127.0.0.1:1' }, { region: 'eu-west-1' }]) {
      const { raw, close } = createDynamoDbClients(target);
      expect(raw).toBeInstanceOf(DynamoDBClient);
      expect(await raw.config.maxAttempts()).toBe(SDK_MAX_ATTEMPTS);
      expect(modeOf(await raw.config.retryStrategy())).toBe('standard');
      close();
    }
    const { raw } = createDynamoDbClients({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:1' });
    // The local endpoint gets fixed credentials, never the developer's own.
    expect(await raw.config.credentials()).toMatchObject({ accessKeyId: 'local', secretAccessKey: 'local' });
    raw.destroy();
  });
});
