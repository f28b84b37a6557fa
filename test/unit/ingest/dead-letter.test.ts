// The dead letter's pure parts: the rule event rebuilt for a replay, payload decoding, filters,
// and the three stored shapes (own entries, IoT error actions, Lambda on-failure records).
import { describe, expect, it } from 'vitest';
import {
  agentOf,
  dayInRange,
  decodePayload,
  matchesFilter,
  messageIdOf,
  ruleEventOf,
} from '../../../lib/ingest/dead-letter';
import { parseStoredDeadLetter } from '../../../lib/ingest/dead-letter-formats';
import type { DeadLetterEntry } from '../../../lib/ingest/ports';
import { ruleEventSchema } from '../../../lib/ingest/rule-event';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const entry = (over: Partial<DeadLetterEntry> = {}): DeadLetterEntry => ({
  id: 'id-1',
  reason: 'UNKNOWN_AGENT',
  message: 'm',
  details: [],
  time: '2026-01-02T03:04:05.678Z',
  payloadBase64: b64('{"messageId":"m-1"}'),
  source: {},
  ...over,
});

describe('ruleEventOf', () => {
  it('takes the agent from topic segment 2 of a broker entry, and its client id', () => {
    const event = ruleEventOf(
      entry({
        reason: 'RULE_ACTION_FAILED',
        source: { topic: 'gdm/agent-7/messages', clientId: 'agent-7', rule: 'ingest' },
      }),
    );
    expect(event).toEqual({
      payload: b64('{"messageId":"m-1"}'),
      agentId: 'agent-7',
      clientId: 'agent-7',
      receivedAt: Date.parse('2026-01-02T03:04:05.678Z'),
    });
    expect(ruleEventSchema.safeParse(event).success).toBe(true);
  });

  it("takes the ingest's own agentId and clientId, and leaves out what is unknown", () => {
    expect(ruleEventOf(entry({ source: { agentId: 'a1', clientId: 'c1' } }))).toMatchObject({
      agentId: 'a1',
      clientId: 'c1',
    });
    const bare = ruleEventOf(entry({ source: { messageId: 'x' } }));
    expect(Object.keys(bare).sort()).toEqual(['payload', 'receivedAt']);
  });

  it('prefers the recorded agent over the topic', () => {
    expect(agentOf(entry({ source: { agentId: 'a1', topic: 'gdm/other/messages' } }))).toBe('a1');
    expect(agentOf(entry({ source: { topic: 'gdm//messages' } }))).toBeUndefined();
  });
});

describe('decodePayload', () => {
  it('decodes JSON, text and binary payloads', () => {
    expect(decodePayload(b64('{"a":[1,2]}'))).toEqual({ kind: 'json', value: { a: [1, 2] } });
    expect(decodePayload(b64('{ not json\nline 2'))).toEqual({ kind: 'text', value: '{ not json\nline 2' });
    expect(decodePayload(Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64'))).toEqual({
      kind: 'binary',
      bytes: 4,
    });
    expect(decodePayload(b64('abc\u0000def'))).toEqual({ kind: 'binary', bytes: 7 });
  });

  it('finds the message id in the source or the payload', () => {
    expect(messageIdOf(entry())).toBe('m-1');
    expect(messageIdOf(entry({ source: { messageId: 'recorded' } }))).toBe('recorded');
    expect(messageIdOf(entry({ payloadBase64: b64('[1]') }))).toBeUndefined();
  });
});

describe('filters', () => {
  it('keeps entries from `from` inclusive to `to` exclusive, of the reason asked for', () => {
    const e = entry();
    expect(matchesFilter(e, { from: new Date('2026-01-02T03:04:05.678Z') })).toBe(true);
    expect(matchesFilter(e, { from: new Date('2026-01-02T03:04:05.679Z') })).toBe(false);
    expect(matchesFilter(e, { to: new Date('2026-01-02T03:04:05.679Z') })).toBe(true);
    expect(matchesFilter(e, { to: new Date('2026-01-02T03:04:05.678Z') })).toBe(false);
    expect(matchesFilter(e, { reason: 'NOT_JSON' })).toBe(false);
    expect(matchesFilter(e, { reason: 'UNKNOWN_AGENT' })).toBe(true);
  });

  it('skips day partitions outside the range; `to` at midnight excludes that day', () => {
    const filter = { from: new Date('2026-01-02T12:00:00Z'), to: new Date('2026-01-04T00:00:00Z') };
    expect(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04'].map((d) => dayInRange(d, filter))).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(dayInRange('1999-01-01', {})).toBe(true);
  });
});

describe('parseStoredDeadLetter', () => {
  const written = new Date('2026-03-04T05:06:07.000Z');

  it("reads the service's own entries unchanged", () => {
    const own = entry({ details: [{ path: '/x' }], source: { agentId: 'a1' } });
    expect(parseStoredDeadLetter(JSON.stringify(own), written)).toEqual(own);
  });

  it("reads the IoT rule's error action as RULE_ACTION_FAILED, timed by the object's write", () => {
    const action = {
      ruleName: 'IngestTopicRule',
      topic: 'gdm/agent-7/messages',
      cloudwatchTraceId: 't',
      clientId: 'agent-7',
      base64OriginalPayload: b64('{"messageId":"m-1"}'),
      failures: [{ failedAction: 'LambdaAction', failedResource: 'fn', errorMessage: 'Rate exceeded' }],
    };
    const parsed = parseStoredDeadLetter(JSON.stringify(action), written);
    expect(parsed).toMatchObject({
      reason: 'RULE_ACTION_FAILED',
      time: written.toISOString(),
      payloadBase64: action.base64OriginalPayload,
      source: { topic: 'gdm/agent-7/messages', clientId: 'agent-7', rule: 'IngestTopicRule' },
    });
    expect(parsed?.message).toContain('Rate exceeded');
    expect(ruleEventOf(parsed!)).toMatchObject({ agentId: 'agent-7', clientId: 'agent-7' });
  });

  it("reads Lambda's on-failure record: the rule event it carries, the error and the attempts", () => {
    const record = {
      version: '1.0',
      timestamp: '2026-03-04T05:00:00.123Z',
      requestContext: {
        requestId: 'r',
        functionArn: 'arn:aws:lambda:eu-west-1:1:function:fn:$LATEST',
        condition: 'RetriesExhausted',
        approximateInvokeCount: 3,
      },
      requestPayload: { payload: b64('{"messageId":"m-2"}'), agentId: 'a9', clientId: 'a9', receivedAt: 1 },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: { errorType: 'ProvisionedThroughputExceededException', errorMessage: 'throughput exceeded' },
    };
    const parsed = parseStoredDeadLetter(JSON.stringify(record), written);
    expect(parsed).toMatchObject({
      reason: 'RULE_ACTION_FAILED',
      time: '2026-03-04T05:00:00.123Z',
      payloadBase64: record.requestPayload.payload,
      source: { agentId: 'a9', clientId: 'a9' },
    });
    expect(parsed?.message).toBe('the ingest function failed 3 times (RetriesExhausted): throughput exceeded');
  });

  it('returns undefined for anything else (an empty or half-written file, another JSON shape)', () => {
    expect(parseStoredDeadLetter('', written)).toBeUndefined();
    expect(parseStoredDeadLetter('{"reason":"NOT_JSON","mess', written)).toBeUndefined();
    expect(
      parseStoredDeadLetter('{"reason":"NOT_A_REASON","message":"m","time":"t","payloadBase64":""}', written),
    ).toBeUndefined();
    expect(parseStoredDeadLetter('[1,2]', written)).toBeUndefined();
  });
});
