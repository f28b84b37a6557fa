// The one loop that sends again the items a batch call left undone (lib/adapters/partial-batch.ts).
import { describe, expect, it } from 'vitest';
import { backoffMs, chunks, PartialBatchError, sendUntilDone } from '../../../lib/adapters/partial-batch';

const recording = (maxRounds: number) => {
  const waits: number[] = [];
  return {
    waits,
    policy: {
      maxRounds,
      baseMs: 100,
      capMs: 1000,
      random: () => 0.5,
      sleep: async (ms: number) => void waits.push(ms),
    },
  };
};

describe('sendUntilDone', () => {
  it('sends once, without waiting, when every item is done', async () => {
    const { waits, policy } = recording(5);
    const sent: number[][] = [];
    await sendUntilDone('test', [1, 2, 3], async (items) => (sent.push([...items]), []), policy);
    expect(sent).toEqual([[1, 2, 3]]);
    expect(waits).toEqual([]);
  });

  it('sends only the undone items again, with a growing wait before each round', async () => {
    const { waits, policy } = recording(5);
    const sent: number[][] = [];
    const left = [[2, 3], [3], []];
    await sendUntilDone('test', [1, 2, 3], async (items) => (sent.push([...items]), left[sent.length - 1]!), policy);
    expect(sent).toEqual([[1, 2, 3], [2, 3], [3]]);
    expect(waits).toEqual([50, 100]);
  });

  it('throws a PartialBatchError naming what and how many after the last round', async () => {
    const { waits, policy } = recording(3);
    let calls = 0;
    const failing = sendUntilDone('ledger completions', [1, 2], async (items) => (calls++, items.slice(0, 1)), policy);
    await expect(failing).rejects.toThrow(new PartialBatchError('ledger completions', 1, 3));
    await expect(failing).rejects.toThrow('ledger completions: 1 item(s) still not done after 3 attempts');
    expect(calls).toBe(3);
    expect(waits).toEqual([50, 100]);
  });

  it('lets an error of the call through at once (the SDK has retried it already)', async () => {
    const { waits, policy } = recording(5);
    let calls = 0;
    await expect(
      sendUntilDone('test', [1], async () => (calls++, Promise.reject(new Error('denied'))), policy),
    ).rejects.toThrow('denied');
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it('sends nothing for no items', async () => {
    let calls = 0;
    await sendUntilDone('test', [], async () => (calls++, []));
    expect(calls).toBe(0);
  });
});

describe('backoff with full jitter', () => {
  it('stays below the exponential ceiling and the cap', () => {
    const policy = { maxRounds: 5, baseMs: 100, capMs: 1000 };
    expect(backoffMs({ ...policy, random: () => 0.999 }, 1)).toBe(99);
    expect(backoffMs({ ...policy, random: () => 0.999 }, 3)).toBe(399);
    expect(backoffMs({ ...policy, random: () => 0.999 }, 11)).toBe(999);
    expect(backoffMs({ ...policy, random: () => 0 }, 4)).toBe(0);
  });
});

describe('chunks', () => {
  it('cuts into runs of the request limit, the last one shorter', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 25)).toEqual([]);
  });
});
