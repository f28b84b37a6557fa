// The one progress display of both CLIs, on a recorded stream with a fake clock.
import { describe, expect, it } from 'vitest';
import { bar, countProgress, createProgress } from '../../../lib/cli/progress';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, write: (text: string) => writes.push(text) };
}

function clock() {
  let ms = 0;
  return { now: () => ms, advance: (by: number) => void (ms += by) };
}

describe('bar', () => {
  it('fills in proportion and clamps', () => {
    expect(bar(0.5)).toBe('[############------------] 50%');
    expect(bar(0)).toBe('[------------------------] 0%');
    expect(bar(1.7)).toBe('[########################] 100%');
  });
});

describe('createProgress', () => {
  it('redraws one line on a terminal at most every 200 ms and ends it with the latest state', () => {
    // Prepare
    const out = stream(true);
    const time = clock();
    const progress = createProgress(out, { label: 'import parts', now: time.now });
    // Act
    progress.update({ done: 0.25, text: '1/4' });
    time.advance(200);
    progress.update({ done: 0.5, text: '2/4' });
    time.advance(50);
    progress.update({ done: 1, text: '4/4' });
    progress.end();
    // Assess
    expect(out.writes).toEqual([
      '\r\x1b[Kimport parts [############------------] 50% 2/4',
      '\r\x1b[Kimport parts [########################] 100% 4/4\n',
    ]);
  });

  it('writes plain lines off a terminal at its own pace, and no bar nor control codes', () => {
    // Prepare
    const out = stream(false);
    const time = clock();
    const progress = createProgress(out, { label: 'gdm publish', plainEveryMs: 5000, now: time.now });
    // Act
    time.advance(1000);
    progress.update({ done: 0.1, text: 'published 1' });
    time.advance(4000);
    progress.update({ done: 0.5, text: 'published 5' });
    progress.end();
    // Assess
    expect(out.writes).toEqual(['gdm publish: published 5\n']);
  });

  it('is silent off a terminal without a plain pace', () => {
    // Prepare
    const out = stream(false);
    const progress = countProgress(out, 'replay');
    // Act
    progress.update(1, 3);
    progress.update(3, 3);
    progress.end();
    // Assess
    expect(out.writes).toEqual([]);
  });

  it('counts items, an empty run being complete', () => {
    // Prepare
    const out = stream(true);
    const progress = countProgress(out, 'import parts');
    // Act
    progress.update(0, 0);
    progress.end();
    // Assess
    expect(out.writes).toEqual(['\r\x1b[Kimport parts [########################] 100% 0/0\n']);
  });
});
