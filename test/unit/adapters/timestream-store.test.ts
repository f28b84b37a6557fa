// Request shapes of the Timestream adapter against a mocked client (aws-sdk-client-mock):
// batches of at most 100, shared dimensions as CommonAttributes, Version, rejections, and no
// retry above the SDK's own (the mock replaces send, so the SDK's retries are not in play here).
import {
  RejectedRecordsException,
  ThrottlingException,
  TimestreamWriteClient,
  ValidationException,
  WriteRecordsCommand,
} from '@aws-sdk/client-timestream-write';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { timestreamTelemetryStore } from '../../../lib/adapters/timestream/telemetry-store';
import type { TelemetryRow } from '../../../lib/telemetry/tables';

const mock = mockClient(TimestreamWriteClient);

function rows(n: number, messageId = 'm1'): TelemetryRow[] {
  return Array.from({ length: n }, (_, i) => ({
    Timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000000Z`,
    PlantId: 'p1',
    Uid: 'a_d',
    DeviceId: 'd',
    AgentId: 'a',
    AgentTimestamp: '2026-01-01T00:01:00.000000Z',
    IngestionId: 'hub',
    IngestionTimestamp: '2026-01-01T00:01:01.000000Z',
    MessageId: messageId,
    MessageType: 'state',
    MessageVersion: '1.0',
    MessageMetadata: null,
    NameId: `n${Math.floor(i / 10)}`,
    Name: `item-${Math.floor(i / 10)}`,
    Value: i,
    Metadata: null,
    EquipmentId: '',
    Unit: '',
  }));
}

const store = () =>
  timestreamTelemetryStore({
    database: 'db',
    statesTable: 'States',
    eventsTable: 'Events',
    client: new TimestreamWriteClient({ region: 'eu-west-1' }),
  });

describe('Timestream telemetry store', () => {
  beforeEach(() => mock.reset());

  it('writes at most 100 records a call, 3 calls for 250 rows', async () => {
    mock.on(WriteRecordsCommand).resolves({});
    await store().write({ customerId: 'c', states: rows(250), events: [] });
    const calls = mock.commandCalls(WriteRecordsCommand);
    expect(calls.map((c) => c.args[0].input.Records?.length)).toEqual([100, 100, 50]);
    expect(calls.every((c) => c.args[0].input.TableName === 'States' && c.args[0].input.DatabaseName === 'db')).toBe(
      true,
    );
  });

  it('sends shared dimensions once, as common attributes, with MULTI measures and a Version', async () => {
    mock.on(WriteRecordsCommand).resolves({});
    await store().write({ customerId: 'c', states: rows(12), events: [] });
    const input = mock.commandCalls(WriteRecordsCommand)[0]?.args[0].input;
    const common = input?.CommonAttributes;
    expect(common).toMatchObject({
      MeasureName: 'gdm',
      MeasureValueType: 'MULTI',
      TimeUnit: 'MICROSECONDS',
      Version: Date.parse('2026-01-01T00:01:01Z'),
    });
    expect(common?.Dimensions?.map((d) => d.Name)).toEqual(
      expect.arrayContaining(['CustomerId', 'PlantId', 'AgentId', 'MessageId']),
    );
    const record = input?.Records?.[11];
    // NameId, Name and ValueIndex differ between records: they stay per record.
    expect(record?.Dimensions?.map((d) => [d.Name, d.Value])).toEqual(
      expect.arrayContaining([
        ['NameId', 'n1'],
        ['ValueIndex', '1'],
      ]),
    );
    expect(record?.Dimensions?.some((d) => d.Name === 'CustomerId')).toBe(false);
    expect(record?.MeasureValues?.find((m) => m.Name === 'ValueDouble')).toEqual({
      Name: 'ValueDouble',
      Value: '11',
      Type: 'DOUBLE',
    });
  });

  it('leaves throttling to the SDK (sdk-config.ts): an error that comes through is not sent again', async () => {
    mock
      .on(WriteRecordsCommand)
      .rejectsOnce(new ThrottlingException({ Message: 'slow down', message: 'slow down', $metadata: {} }))
      .resolves({});
    await expect(store().write({ customerId: 'c', states: rows(1), events: [] })).rejects.toThrow('slow down');
    expect(mock.commandCalls(WriteRecordsCommand)).toHaveLength(1);
  });

  it('returns permanently rejected records with their reason, without retrying them', async () => {
    mock.on(WriteRecordsCommand).rejects(
      new RejectedRecordsException({
        message: 'rejected',
        $metadata: {},
        RejectedRecords: [
          { RecordIndex: 1, Reason: 'The record timestamp is outside the time range of the data ingestion window.' },
        ],
      }),
    );
    const result = await store().write({ customerId: 'c', states: rows(2, 'm9'), events: [] });
    expect(result.rejected).toEqual([
      {
        table: 'States',
        messageId: 'm9',
        reason: 'The record timestamp is outside the time range of the data ingestion window.',
      },
    ]);
    expect(mock.commandCalls(WriteRecordsCommand)).toHaveLength(1);
  });

  it('lets a non-retryable error through so that the invocation fails and is retried by the platform', async () => {
    mock.on(WriteRecordsCommand).rejects(new ValidationException({ Message: 'bad', message: 'bad', $metadata: {} }));
    await expect(store().write({ customerId: 'c', states: rows(1), events: [] })).rejects.toThrow('bad');
    expect(mock.commandCalls(WriteRecordsCommand)).toHaveLength(1);
  });
});
