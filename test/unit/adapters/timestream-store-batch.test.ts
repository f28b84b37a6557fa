// The Timestream writer with the rows of many messages in one write() (the batch ingest core calls
// it once per customer): full WriteRecords calls across messages, rejected records traced back to
// their message, and a bounded number of calls in flight. Mocked client (aws-sdk-client-mock).
import {
  RejectedRecordsException,
  TimestreamWriteClient,
  ValidationException,
  WriteRecordsCommand,
  type WriteRecordsCommandInput,
} from '@aws-sdk/client-timestream-write';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { timestreamTelemetryStore } from '../../../lib/adapters/timestream/telemetry-store';
import type { TelemetryRow } from '../../../lib/telemetry/tables';

const mock = mockClient(TimestreamWriteClient);

/** `messages` messages of `perMessage` rows each (10 items of one value), ingested together. */
function rowsOf(messages: number, perMessage: number): TelemetryRow[] {
  return Array.from({ length: messages * perMessage }, (_, i) => {
    const m = Math.floor(i / perMessage);
    return {
      Timestamp: '2026-01-01T00:00:00.000000Z',
      PlantId: 'p1',
      Uid: `a_d${m % 10}`,
      DeviceId: `d${m % 10}`,
      AgentId: 'a',
      AgentTimestamp: '2026-01-01T00:00:00.000000Z',
      IngestionId: 'hub',
      IngestionTimestamp: '2026-01-01T00:00:01.000000Z',
      MessageId: `m${m}`,
      MessageType: 'state',
      MessageVersion: '1.0',
      MessageMetadata: null,
      NameId: `n${i % perMessage}`,
      Name: `item-${i % perMessage}`,
      Value: i,
      Metadata: null,
      EquipmentId: '',
      Unit: '',
    };
  });
}

const store = (concurrency?: number) =>
  timestreamTelemetryStore({
    database: 'db',
    statesTable: 'States',
    eventsTable: 'Events',
    client: new TimestreamWriteClient({ region: 'eu-west-1' }),
    ...(concurrency ? { concurrency } : {}),
  });

const messageIdsOf = (input: WriteRecordsCommandInput): string[] =>
  (input.Records ?? []).map(
    (r) =>
      [...(r.Dimensions ?? []), ...(input.CommonAttributes?.Dimensions ?? [])].find((d) => d.Name === 'MessageId')
        ?.Value ?? '?',
  );

beforeEach(() => mock.reset());

describe('Timestream writer, many messages in one write()', () => {
  it('writes 1,000 messages of 10 rows in 100 calls of 100 records, every row once', async () => {
    mock.on(WriteRecordsCommand).resolves({});
    const result = await store().write({ customerId: 'c', states: rowsOf(1000, 10), events: [] });
    expect(result.rejected).toEqual([]);
    const calls = mock.commandCalls(WriteRecordsCommand).map((c) => c.args[0].input);
    expect(calls).toHaveLength(100);
    expect(calls.every((c) => c.Records?.length === 100)).toBe(true);
    const written = calls.flatMap(messageIdsOf);
    expect(new Set(written).size).toBe(1000);
    expect(written).toHaveLength(10_000);
  });

  it('maps each rejected record of a call to the message it came from', async () => {
    mock.on(WriteRecordsCommand).callsFake((input: WriteRecordsCommandInput) => {
      const ids = messageIdsOf(input);
      // Refuse the 5th and the 57th record of the call holding messages m30..m39.
      if (ids[0] === 'm30')
        throw new RejectedRecordsException({
          message: 'rejected',
          $metadata: {},
          RejectedRecords: [
            { RecordIndex: 4, Reason: 'too old' },
            { RecordIndex: 56, Reason: 'dup', ExistingVersion: 7 },
          ],
        });
      return {};
    });
    const result = await store().write({ customerId: 'c', states: rowsOf(100, 10), events: [] });
    expect(result.rejected).toEqual([
      { table: 'States', messageId: 'm30', reason: 'too old' },
      { table: 'States', messageId: 'm35', reason: 'dup (existing version 7)' },
    ]);
  });

  it('keeps at most `concurrency` calls in flight, and does use them', async () => {
    let inFlight = 0;
    let most = 0;
    mock.on(WriteRecordsCommand).callsFake(async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return {};
    });
    await store(4).write({
      customerId: 'c',
      states: rowsOf(200, 10),
      events: rowsOf(50, 10).map((r) => ({
        ...r,
        MessageType: 'alarm',
        Text: '',
        State: '',
        Reason: '',
        Severity: null,
        Active: null,
        Acknowledged: null,
      })),
    });
    expect(mock.commandCalls(WriteRecordsCommand)).toHaveLength(25);
    expect(most).toBe(4);
  });

  it('on a failing call starts no new call, lets the ones under way finish, then throws', async () => {
    let started = 0;
    mock.on(WriteRecordsCommand).callsFake(async () => {
      // The first call fails at once; the others take longer (they end after it has failed).
      if (++started === 1) throw new ValidationException({ Message: 'bad', message: 'bad', $metadata: {} });
      await new Promise((resolve) => setImmediate(resolve));
      return {};
    });
    await expect(store(4).write({ customerId: 'c', states: rowsOf(100, 10), events: [] })).rejects.toThrow('bad');
    // The first four were under way together; none of the other six started.
    expect(started).toBe(4);
  });
});
