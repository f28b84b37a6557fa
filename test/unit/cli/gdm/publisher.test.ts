import { describe, expect, it } from 'vitest';
import { toEdge, validateMessage, type EdgeMessage } from '../../../../lib/gdm';
import { publishMessages, type MessagePublisher } from '../../../../lib/cli/gdm/publisher';
import { createMessageGenerator } from '../../../../lib/gdm/simulator';

function source(): (now: Date) => EdgeMessage {
  const generate = createMessageGenerator({
    devices: 2,
    items: 1,
    values: 1,
    types: ['state', 'alarm'],
    keepAliveIntervalMs: 1000,
  });
  return (now) => toEdge(generate(now), { now: () => now });
}

class FakeBroker implements MessagePublisher {
  readonly received: { topic: string; payload: string }[] = [];
  constructor(private readonly behave: (n: number) => 'ack' | 'reject' | 'hang' = () => 'ack') {}
  publishAsync(topic: string, payload: string): Promise<unknown> {
    this.received.push({ topic, payload });
    const mode = this.behave(this.received.length);
    if (mode === 'ack') return Promise.resolve(undefined);
    if (mode === 'reject') return Promise.reject(new Error('not authorized'));
    return new Promise(() => {});
  }
}

describe('publishMessages', () => {
  it('publishes exactly --count valid edge messages on the topic, all acknowledged', async () => {
    // Prepare
    const broker = new FakeBroker();
    // Act
    const result = await publishMessages(broker, {
      topic: 'gdm/a/messages',
      rate: 1000,
      count: 25,
      ackTimeoutMs: 1000,
      next: source(),
    });
    // Assess
    expect(result).toMatchObject({ published: 25, acknowledged: 25, failed: 0 });
    expect(broker.received).toHaveLength(25);
    for (const { topic, payload } of broker.received) {
      expect(topic).toBe('gdm/a/messages');
      expect(validateMessage(JSON.parse(payload), 'edge').ok).toBe(true);
    }
  });

  it('counts rejected publishes and unacknowledged ones after the ack timeout as failed', async () => {
    // Prepare
    const broker = new FakeBroker((n) => (n === 2 ? 'reject' : n === 3 ? 'hang' : 'ack'));
    const failures: unknown[] = [];
    // Act
    const result = await publishMessages(broker, {
      topic: 't',
      rate: 1000,
      count: 5,
      ackTimeoutMs: 50,
      next: source(),
      onFailure: (e) => failures.push(e),
    });
    // Assess
    expect(result).toMatchObject({ published: 5, acknowledged: 3, failed: 2 });
    expect(failures).toHaveLength(1);
  });

  it('paces messages at the rate and stops at the duration', async () => {
    // Prepare
    const broker = new FakeBroker();
    // Act
    const result = await publishMessages(broker, {
      topic: 't',
      rate: 50,
      durationMs: 300,
      ackTimeoutMs: 100,
      next: source(),
    });
    // Assess: 50/s for 0.3 s is 15 messages (message k is due at k/50 s); a late timer may cost a few
    expect(result.published).toBeGreaterThanOrEqual(10);
    expect(result.published).toBeLessThanOrEqual(16);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(290);
  });

  it('stops when the source is exhausted or the signal aborts', async () => {
    // Prepare
    let left = 3;
    const next = source();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    // Act
    const exhausted = await publishMessages(new FakeBroker(), {
      topic: 't',
      rate: 1000,
      ackTimeoutMs: 100,
      next: (now) => (left-- > 0 ? next(now) : undefined),
    });
    const aborted = await publishMessages(new FakeBroker(), {
      topic: 't',
      rate: 20,
      ackTimeoutMs: 100,
      next,
      signal: controller.signal,
    });
    // Assess
    expect(exhausted.published).toBe(3);
    expect(aborted.published).toBeGreaterThan(0);
    expect(aborted.published).toBeLessThan(6);
  });
});
