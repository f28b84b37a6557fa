import { describe, expect, it } from 'vitest';
import { describeCounts, shareDone } from '../../../../lib/cli/gdm/publish-counts';

describe('publish counts', () => {
  it('describes counts with the total and the rate when the total is known', () => {
    expect(describeCounts({ published: 10, acknowledged: 9, failed: 1 }, 2000, { total: 20 })).toBe(
      'published 10/20, acknowledged 9, failed 1, 5.0 msg/s, 2.0 s',
    );
    expect(shareDone({ published: 10, acknowledged: 9, failed: 1 }, 2000, { total: 20 })).toBe(0.5);
  });

  it('shows counts only, and no share, when the run is open-ended', () => {
    expect(describeCounts({ published: 3, acknowledged: 3, failed: 0 }, 1500, {})).toBe(
      'published 3, acknowledged 3, failed 0, 2.0 msg/s, 1.5 s',
    );
    expect(shareDone({ published: 3, acknowledged: 3, failed: 0 }, 1500, {})).toBeUndefined();
  });

  it('takes the nearer of --count and --duration', () => {
    expect(shareDone({ published: 2, acknowledged: 2, failed: 0 }, 30_000, { total: 10, durationMs: 60_000 })).toBe(
      0.5,
    );
    expect(shareDone({ published: 9, acknowledged: 9, failed: 0 }, 90_000, { total: 10, durationMs: 60_000 })).toBe(1);
  });
});
