// The local IoT rule engine honours the SQL subset it claims and refuses the rest at start.
// Rule SQL reference: https://docs.aws.amazon.com/iot/latest/developerguide/iot-sql-reference.html
import { describe, expect, it } from 'vitest';
import { parseRuleSql, ruleMatches, ruleOutput, topicMatches } from '../../../infra/local/iot/rule-sql';

const input = (payload: string, topic = 'gdm/agent-1/messages') => ({
  topic,
  clientId: 'agent-1',
  payload: Buffer.from(payload),
  timestampMs: 1_700_000_000_000,
});

describe('rule SQL', () => {
  it('builds the ingest rule event: base64 payload, topic segment, client id, timestamp', () => {
    const rule = parseRuleSql(
      "SELECT encode(*, 'base64') AS payload, topic(2) AS agentId, clientid() AS clientId, timestamp() AS receivedAt FROM 'gdm/+/messages'",
    );
    expect(rule.topicFilter).toBe('gdm/+/messages');
    expect(ruleOutput(rule, input('not json'))).toEqual({
      payload: Buffer.from('not json').toString('base64'),
      agentId: 'agent-1',
      clientId: 'agent-1',
      receivedAt: 1_700_000_000_000,
    });
  });

  it('merges SELECT * with named items and passes a lone * through as is', () => {
    const rule = parseRuleSql("SELECT *, topic() AS t FROM 'a/#'");
    expect(ruleOutput(rule, input('{"x":1}', 'a/b/c'))).toEqual({ x: 1, t: 'a/b/c' });
    expect(ruleOutput(parseRuleSql("SELECT * FROM 'a/#'"), input('[1,2]', 'a/b'))).toEqual([1, 2]);
  });

  it('fails a SELECT * rule on a payload that is not JSON (the error action takes it)', () => {
    expect(() => ruleOutput(parseRuleSql("SELECT * FROM 'a'"), input('nope', 'a'))).toThrow(/not JSON/);
  });

  it('honours WHERE with fields, comparisons and logic', () => {
    const rule = parseRuleSql(
      "SELECT * FROM 'gdm/+/messages' WHERE messageType = 'state' AND (value.level > 3 OR NOT topic(2) <> 'agent-1')",
    );
    expect(ruleMatches(rule, input('{"messageType":"state","value":{"level":5}}'))).toBe(true);
    expect(ruleMatches(rule, input('{"messageType":"state","value":{"level":1}}'))).toBe(true);
    expect(ruleMatches(rule, input('{"messageType":"state","value":{"level":1}}', 'gdm/agent-2/messages'))).toBe(false);
    expect(ruleMatches(rule, input('{"messageType":"alarm"}'))).toBe(false);
    expect(ruleMatches(rule, input('garbage'))).toBe(false);
  });

  it('refuses what it does not honour, naming it', () => {
    expect(() => parseRuleSql("SELECT * FROM 'a' WHERE startswith(x, 'y')")).toThrow(/startswith\(\) is not supported/);
    expect(() => parseRuleSql("SELECT encode(*, 'hex') AS p FROM 'a'")).toThrow(/encode\(\*, 'base64'\)/);
    expect(() => parseRuleSql("SELECT topic(2) FROM 'a'")).toThrow(/AS/);
    expect(() => parseRuleSql('SELECT * FROM a')).toThrow(/quoted topic filter/);
    expect(() => parseRuleSql("SELECT * FROM 'a' WHERE x IN (1)")).toThrow();
    expect(() => parseRuleSql("SELECT * FROM 'a' WHERE x % 2 = 0")).toThrow(/'%'/);
  });

  it('matches MQTT topic filters with + and #', () => {
    expect(topicMatches('gdm/+/messages', 'gdm/a/messages')).toBe(true);
    expect(topicMatches('gdm/+/messages', 'gdm/a/b/messages')).toBe(false);
    expect(topicMatches('gdm/#', 'gdm/a/b')).toBe(true);
    expect(topicMatches('gdm/+', 'gdm')).toBe(false);
  });
});
