// Request shapes of the deployed dead-letter store (S3) and the Lambda invoker, against mocked
// clients (aws-sdk-client-mock): ListObjectsV2 paging, GetObject, CopyObject + DeleteObject, Invoke.
import { InvokeCommand, LambdaClient, ResourceNotFoundException } from '@aws-sdk/client-lambda';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { lambdaIngestInvoker } from '../../../lib/adapters/lambda/lambda-invoker';
import { copySource, s3DeadLetterStore } from '../../../lib/adapters/s3/dead-letter-store';
import type { DeadLetterEntry } from '../../../lib/ingest/ports';
import { listAll } from '../../../lib/ingest/replay';

const s3 = mockClient(S3Client);
const lambda = mockClient(LambdaClient);
const BUCKET = 'industrial-insights-dev-deadletterbucket-1a2b3c';
const FN = 'industrial-insights-dev-ingest';
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const b64 = (text: string) => Buffer.from(text).toString('base64');

const own = (i: number, day: string, reason = 'UNKNOWN_AGENT'): { key: string; body: DeadLetterEntry } => {
  const time = `${day}T01:02:${String(i).padStart(2, '0')}.000Z`;
  return {
    key: `dead-letter/date=${day}/${time.replace(/[:.]/g, '-')}-${reason}-${uuid(i)}.json`,
    body: {
      id: `id-${i}`,
      reason: reason as DeadLetterEntry['reason'],
      message: `entry ${i}`,
      details: [],
      time,
      payloadBase64: b64(`{"n":${i}}`),
      source: { agentId: 'a1' },
    },
  };
};

/** Serves GetObject from a key -> body map. */
function serveObjects(objects: ReadonlyArray<{ key: string; body: unknown }>): void {
  const byKey = new Map(objects.map((o) => [o.key, JSON.stringify(o.body)]));
  s3.on(GetObjectCommand).callsFake((input: { Key: string }) => {
    const text = byKey.get(input.Key);
    if (text === undefined) throw new NoSuchKey({ message: 'gone', $metadata: {} });
    return {
      Body: { transformToString: async () => text },
      LastModified: new Date('2026-01-05T00:00:00Z'),
    } as unknown as GetObjectCommandOutput;
  });
}

const store = (functionName?: string) =>
  s3DeadLetterStore({
    bucket: BUCKET,
    ...(functionName ? { ingestFunctionName: functionName } : {}),
    client: new S3Client({ region: 'eu-west-1' }),
  });

beforeEach(() => {
  s3.reset();
  lambda.reset();
});

describe('S3 dead-letter store', () => {
  it('pages through ListObjectsV2 with the continuation token and reads every entry', async () => {
    const first = [own(1, '2026-01-02'), own(2, '2026-01-02')];
    const second = [own(3, '2026-01-03')];
    serveObjects([...first, ...second]);
    s3.on(ListObjectsV2Command)
      .resolvesOnce({
        Contents: first.map((o) => ({ Key: o.key })),
        IsTruncated: true,
        NextContinuationToken: 'page-2',
      })
      .resolvesOnce({ Contents: second.map((o) => ({ Key: o.key })), IsTruncated: false });
    const { items } = await listAll(store(), {});
    expect(items.map((i) => i.entry.message)).toEqual(['entry 1', 'entry 2', 'entry 3']);
    const calls = s3.commandCalls(ListObjectsV2Command).map((c) => c.args[0].input);
    expect(calls).toEqual([
      { Bucket: BUCKET, Prefix: 'dead-letter/' },
      { Bucket: BUCKET, Prefix: 'dead-letter/', ContinuationToken: 'page-2' },
    ]);
  });

  it('lists from the day before --from and stops after the day after --to, matching entries on their time; filters reasons by key', async () => {
    const objects = [
      own(1, '2026-01-02'),
      own(2, '2026-01-02', 'NOT_JSON'),
      own(3, '2026-01-03'),
      own(4, '2026-01-04'),
      own(5, '2026-01-06'),
    ];
    serveObjects(objects);
    s3.on(ListObjectsV2Command).resolves({
      Contents: objects.map((o) => ({ Key: o.key })),
      IsTruncated: true,
      NextContinuationToken: 'never-used',
    });
    const { items } = await listAll(store(), {
      from: new Date('2026-01-02T00:00:00Z'),
      to: new Date('2026-01-04T00:00:00Z'),
      reason: 'UNKNOWN_AGENT',
    });
    expect(items.map((i) => i.entry.message)).toEqual(['entry 1', 'entry 3']);
    // A key past the widened range ends the listing: no second page is asked for.
    expect(s3.commandCalls(ListObjectsV2Command).map((c) => c.args[0].input)).toEqual([
      { Bucket: BUCKET, Prefix: 'dead-letter/', StartAfter: 'dead-letter/date=2026-01-01' },
    ]);
    const read = s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input.Key);
    // The NOT_JSON entry's reason is in its key: never read; 01-04 is read (the day after) and dropped by its time; 01-06 is not read.
    expect(read).toEqual([objects[0]!.key, objects[2]!.key, objects[3]!.key]);
  });

  it("also reads the ingest function's Lambda on-failure records, and returns a cursor for the next page", async () => {
    const lambdaKey = `aws/lambda/async/${FN}/2026/01/02/2026-01-02T05.06.07-${uuid(9)}`;
    const record = {
      timestamp: '2026-01-02T05:06:07.000Z',
      requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 3 },
      requestPayload: { payload: b64('{}'), agentId: 'a2' },
      responsePayload: { errorMessage: 'boom' },
    };
    const entry = own(1, '2026-01-02');
    serveObjects([{ key: lambdaKey, body: record }, entry]);
    s3.on(ListObjectsV2Command, { Prefix: `aws/lambda/async/${FN}/` }).resolves({ Contents: [{ Key: lambdaKey }] });
    s3.on(ListObjectsV2Command, { Prefix: 'dead-letter/' }).resolves({ Contents: [{ Key: entry.key }] });
    const page = await store(FN).list({}, { limit: 1 });
    expect(page.items.map((i) => [i.id, i.entry.reason, i.entry.source.agentId])).toEqual([
      [lambdaKey, 'RULE_ACTION_FAILED', 'a2'],
    ]);
    expect(page.next).toBe(lambdaKey);
    const rest = await store(FN).list({}, { after: page.next!, limit: 1 });
    expect(rest.items.map((i) => i.id)).toEqual([entry.key]);
    // The second page resumes after the cursor in the Lambda prefix, then reads the dead-letter prefix.
    expect(
      s3
        .commandCalls(ListObjectsV2Command)
        .slice(1)
        .map((c) => c.args[0].input),
    ).toEqual([
      { Bucket: BUCKET, Prefix: `aws/lambda/async/${FN}/`, StartAfter: lambdaKey },
      { Bucket: BUCKET, Prefix: 'dead-letter/' },
    ]);
  });

  it('reports objects of an unknown shape, and gets one entry by key (none for a missing key)', async () => {
    const entry = own(1, '2026-01-02');
    serveObjects([entry, { key: 'dead-letter/date=2026-01-02/odd.json', body: { hello: 'world' } }]);
    s3.on(ListObjectsV2Command).resolves({
      Contents: [{ Key: entry.key }, { Key: 'dead-letter/date=2026-01-02/odd.json' }],
    });
    const page = await store().list({});
    expect(page.unreadable).toEqual(['dead-letter/date=2026-01-02/odd.json']);
    expect((await store().get(entry.key))?.entry).toEqual(entry.body);
    await expect(store().get('dead-letter/date=2026-01-02/gone.json')).resolves.toBeUndefined();
    await expect(store().get('lake/customer=x/file.json')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('marks replayed: copies to replayed/<key> with the outcome as metadata, then deletes the original', async () => {
    s3.on(CopyObjectCommand).resolves({});
    s3.on(DeleteObjectCommand).resolves({});
    const { key } = own(1, '2026-01-02');
    await store().markReplayed(key, {
      status: 'dead-lettered',
      reason: 'NOT_JSON',
      replayedAt: '2026-02-01T00:00:00.000Z',
    });
    expect(s3.commandCalls(CopyObjectCommand)[0]?.args[0].input).toEqual({
      Bucket: BUCKET,
      Key: `replayed/${key}`,
      CopySource: `${BUCKET}/dead-letter/date%3D2026-01-02/${key.split('/').pop()}`,
      MetadataDirective: 'REPLACE',
      ContentType: 'application/json',
      Metadata: {
        'replay-status': 'dead-lettered',
        'replay-reason': 'NOT_JSON',
        'replayed-at': '2026-02-01T00:00:00.000Z',
      },
    });
    expect(s3.commandCalls(DeleteObjectCommand)[0]?.args[0].input).toEqual({ Bucket: BUCKET, Key: key });
    expect(s3.calls().map((c) => (c.args[0] as object).constructor.name)).toEqual([
      'CopyObjectCommand',
      'DeleteObjectCommand',
    ]);
  });

  it('treats a copy of a key that is gone as marked before (a run that stopped after deleting)', async () => {
    s3.on(CopyObjectCommand).rejects(new NoSuchKey({ message: 'gone', $metadata: {} }));
    await store().markReplayed(own(1, '2026-01-02').key, { status: 'stored', replayedAt: '2026-02-01T00:00:00.000Z' });
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });

  it('encodes each key segment of CopySource', () => {
    expect(copySource('b', 'dead-letter/date=2026-01-02/a b+c.json')).toBe(
      'b/dead-letter/date%3D2026-01-02/a%20b%2Bc.json',
    );
  });
});

describe('Lambda ingest invoker', () => {
  const event = { payload: b64('{}'), agentId: 'a1', clientId: 'a1', receivedAt: 1 };
  const answer = (json: unknown, extra: Record<string, unknown> = {}) =>
    ({ StatusCode: 200, Payload: new TextEncoder().encode(JSON.stringify(json)), ...extra }) as never;
  const invoker = () => lambdaIngestInvoker(FN, new LambdaClient({ region: 'eu-west-1' }));

  it('invokes the function synchronously with the rule event and returns its outcome', async () => {
    lambda.on(InvokeCommand).resolves(answer({ status: 'stored', messageId: 'm-1', rows: 3, rejected: 0 }));
    await expect(invoker().invoke(event)).resolves.toEqual({ status: 'stored', messageId: 'm-1' });
    const input = lambda.commandCalls(InvokeCommand)[0]?.args[0].input;
    expect(input?.FunctionName).toBe(FN);
    expect(input?.InvocationType).toBe('RequestResponse');
    expect(JSON.parse(new TextDecoder().decode(input?.Payload as Uint8Array))).toEqual(event);
  });

  it('turns a function error into SERVICE_UNAVAILABLE and a missing function into NOT_FOUND', async () => {
    lambda.on(InvokeCommand).resolves(answer({ errorMessage: 'DynamoDB is down' }, { FunctionError: 'Unhandled' }));
    await expect(invoker().invoke(event)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('DynamoDB is down'),
    });
    lambda.on(InvokeCommand).rejects(new ResourceNotFoundException({ message: 'no such function', $metadata: {} }));
    await expect(invoker().invoke(event)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses an answer that is not an ingest outcome', async () => {
    lambda.on(InvokeCommand).resolves(answer({ batchItemFailures: [] }));
    await expect(invoker().invoke(event)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
