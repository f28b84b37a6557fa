import { describe, expect, it } from 'vitest';
import { durationMs, listOf, positiveInteger, UsageError } from '../../../lib/gdm/cli/args';
import { formatOutput, parseInput } from '../../../lib/gdm/cli/io';
import { formatProgress } from '../../../lib/gdm/cli/progress';

describe('parseInput and formatOutput', () => {
  it.each([
    ['{"a":1}', 'object', true, 1],
    ['{\n  "a": 1\n}\n', 'object', false, 1],
    ['[{"a":1},{"a":2}]', 'array', true, 2],
    ['{"a":1}\n{"a":2}\n\n{"a":3}\n', 'ndjson', false, 3],
  ] as const)('reads %j as %s', (text, shape, compact, count) => {
    // Act
    const input = parseInput(text);
    // Assess
    expect([input.shape, input.compact, input.entries.length]).toEqual([shape, compact, count]);
    expect(formatOutput(input.shape, input.compact, input.entries.map((e) => e.value)).trim()).toBe(text.replace(/\n\n/g, '\n').trim());
  });

  it('reports a broken document as one entry and refuses empty input', () => {
    // Act
    const broken = parseInput('{\n  "a": 1,\n}');
    // Assess
    expect(broken.entries).toEqual([{ jsonError: expect.stringContaining('not JSON') }]);
    expect(() => parseInput(' \n')).toThrow(UsageError);
    expect(() => parseInput('[]')).toThrow(UsageError);
  });
});

describe('option parsers', () => {
  it.each([
    ['30', 30_000],
    ['1.5s', 1500],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['250ms', 250],
  ])('reads the duration %s', (raw, ms) => {
    expect(durationMs('duration', raw)).toBe(ms);
  });

  it('rejects malformed values as usage errors naming the option', () => {
    expect(() => durationMs('duration', '-1')).toThrow(/--duration/);
    expect(() => durationMs('duration', '0s')).toThrow(UsageError);
    expect(() => positiveInteger('count', '1.5', 1)).toThrow(/--count must be a positive integer/);
    expect(() => listOf('types', 'state,info', ['state', 'alarm'], ['state'])).toThrow(/--types/);
    expect(listOf('types', 'alarm, state,alarm', ['state', 'alarm'], ['state'])).toEqual(['alarm', 'state']);
  });
});

describe('formatProgress', () => {
  it('shows a bar and the share done when the total is known', () => {
    expect(formatProgress({ published: 10, acknowledged: 9, failed: 1 }, 2000, { total: 20 }, true)).toBe(
      '[############------------] 50% published 10/20, acknowledged 9, failed 1, 5.0 msg/s, 2.0 s',
    );
  });

  it('shows counts only when the run is open-ended', () => {
    expect(formatProgress({ published: 3, acknowledged: 3, failed: 0 }, 1500, {}, true)).toBe('published 3, acknowledged 3, failed 0, 2.0 msg/s, 1.5 s');
  });
});
