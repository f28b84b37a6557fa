import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { firehoseDataLake } from '../../../lib/adapters/firehose/data-lake';
import { s3DeadLetter } from '../../../lib/adapters/s3/dead-letter';

const firehose = mockClient(FirehoseClient);
const s3 = mockClient(S3Client);
const waits: number[] = [];
/** Three calls at most; waits are recorded instead of slept (random 0.5: half of each ceiling). */
const noWait = {
  maxRounds: 3,
  baseMs: 100,
  capMs: 1000,
  random: () => 0.5,
  sleep: async (ms: number) => void waits.push(ms),
};
const record = (i: number) => ({
  customerId: 'c',
  plantId: i % 2 ? 'p1' : '',
  date: '2026-01-01',
  message: { messageId: `m${i}` },
});

describe('Firehose data lake', () => {
  beforeEach(() => {
    firehose.reset();
    waits.length = 0;
  });

  it('sends at most 500 records a call, each one NDJSON line with its partition keys', async () => {
    firehose.on(PutRecordBatchCommand).resolves({ FailedPutCount: 0 });
    await firehoseDataLake('stream', new FirehoseClient({ region: 'eu-west-1' }), noWait).put(
      Array.from({ length: 501 }, (_, i) => record(i)),
    );
    const calls = firehose.commandCalls(PutRecordBatchCommand);
    expect(calls.map((c) => c.args[0].input.Records?.length)).toEqual([500, 1]);
    expect(waits).toEqual([]);
    const line = Buffer.from(calls[0]?.args[0].input.Records?.[0]?.Data as Uint8Array).toString();
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toEqual({
      customer: 'c',
      plant: '_none',
      date: '2026-01-01',
      message: { messageId: 'm0' },
    });
  });

  it('sends failed entries again, and only those', async () => {
    firehose
      .on(PutRecordBatchCommand)
      .resolvesOnce({
        FailedPutCount: 1,
        RequestResponses: [{ RecordId: '1' }, { ErrorCode: 'ServiceUnavailableException' }, { RecordId: '3' }],
      })
      .resolves({ FailedPutCount: 0 });
    await firehoseDataLake('stream', new FirehoseClient({ region: 'eu-west-1' }), noWait).put([
      record(0),
      record(1),
      record(2),
    ]);
    expect(firehose.commandCalls(PutRecordBatchCommand)).toHaveLength(2);
    expect(waits).toEqual([50]);
    const second = firehose.commandCalls(PutRecordBatchCommand)[1]?.args[0].input.Records ?? [];
    expect(second).toHaveLength(1);
    expect(JSON.parse(Buffer.from(second[0]?.Data as Uint8Array).toString()).message.messageId).toBe('m1');
  });

  it('throws when entries still fail after the last attempt, so the message is retried', async () => {
    firehose
      .on(PutRecordBatchCommand)
      .resolves({ FailedPutCount: 1, RequestResponses: [{ ErrorCode: 'InternalFailure' }] });
    await expect(
      firehoseDataLake('stream', new FirehoseClient({ region: 'eu-west-1' }), noWait).put([record(0)]),
    ).rejects.toThrow(/Firehose stream stream: 1 item\(s\) still not done after 3 attempts/);
    expect(firehose.commandCalls(PutRecordBatchCommand)).toHaveLength(3);
    expect(waits).toEqual([50, 100]);
  });

  it('does not repeat a call the SDK already retried: its error goes up after one send', async () => {
    firehose
      .on(PutRecordBatchCommand)
      .rejects(Object.assign(new Error('unavailable'), { name: 'ServiceUnavailableException' }));
    await expect(
      firehoseDataLake('stream', new FirehoseClient({ region: 'eu-west-1' }), noWait).put([record(0)]),
    ).rejects.toThrow('unavailable');
    expect(firehose.commandCalls(PutRecordBatchCommand)).toHaveLength(1);
  });
});

describe('S3 dead letter', () => {
  it('writes one JSON object per entry under dead-letter/date= of its receipt, named by its stable id', async () => {
    s3.reset();
    s3.on(PutObjectCommand).resolves({});
    const entry = {
      id: 'abc123',
      reason: 'NOT_JSON' as const,
      message: 'm',
      details: [],
      time: '2026-01-02T03:04:05.678Z',
      receivedAt: '2026-01-01T23:59:59.000Z',
      payloadBase64: 'eA==',
      source: {},
    };
    await s3DeadLetter('bucket', new S3Client({ region: 'eu-west-1' })).put([
      entry,
      { ...entry, receivedAt: undefined, id: 'def' },
    ]);
    const [first, second] = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
    expect(first?.Bucket).toBe('bucket');
    expect(first?.Key).toBe('dead-letter/date=2026-01-01/2026-01-01T23-59-59-000Z-NOT_JSON-abc123.json');
    expect(second?.Key).toBe('dead-letter/date=2026-01-02/2026-01-02T03-04-05-678Z-NOT_JSON-def.json');
    expect(JSON.parse(String(first?.Body)).payloadBase64).toBe('eA==');
  });
});
