import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../lib/cli/args';
import { formatOutput, parseInput } from '../../../../lib/cli/gdm/io';

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
    expect(
      formatOutput(
        input.shape,
        input.compact,
        input.entries.map((e) => e.value),
      ).trim(),
    ).toBe(text.replace(/\n\n/g, '\n').trim());
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
