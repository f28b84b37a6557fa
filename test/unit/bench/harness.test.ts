// The benchmark harness's interleaved timing: warm-up rounds are run but never timed.
import { describe, expect, it } from 'vitest';
import { interleaved } from '../../../bench/harness';

function counter(): { calls: number; fn: () => Promise<void> } {
  const c = { calls: 0, fn: async () => void c.calls++ };
  return c;
}

describe('interleaved', () => {
  it('runs one untimed round first by default', async () => {
    // Prepare
    const a = counter();
    const b = counter();
    // Act
    const t = await interleaved(4, { a: a.fn, b: b.fn });
    // Assess
    expect([a.calls, b.calls]).toEqual([5, 5]);
    expect([t.a.wallMs.length, t.b.cpuMs.length]).toEqual([4, 4]);
  });

  it('runs the asked warm-up rounds of every variant, timing none of them', async () => {
    // Prepare
    const a = counter();
    const b = counter();
    // Act
    const t = await interleaved(2, { a: a.fn, b: b.fn }, { warmupRounds: 6 });
    // Assess
    expect([a.calls, b.calls]).toEqual([8, 8]);
    expect([t.a.wallMs.length, t.b.wallMs.length]).toEqual([2, 2]);
  });
});
