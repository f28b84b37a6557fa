// The option parsers both CLIs share: malformed values are usage errors (exit 2) naming the option.
import { describe, expect, it } from 'vitest';
import {
  durationMs,
  listOf,
  oneOf,
  parseCommandArgs,
  positiveInteger,
  positiveNumber,
  singleInput,
  UsageError,
} from '../../../lib/cli/args';

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
    expect(() => positiveNumber('rate', '0', 1)).toThrow(/--rate must be a positive number/);
    expect(() => oneOf('stage', 'gateway', ['base', 'edge'] as const)).toThrow(
      /--stage must be one of base, edge; got "gateway"/,
    );
    expect(() => oneOf('to', undefined, ['edge', 'cloud'] as const)).toThrow(/--to is required/);
    expect(() => listOf('types', 'state,info', ['state', 'alarm'], ['state'])).toThrow(/--types/);
  });

  it('returns defaults for absent options and removes duplicates from lists', () => {
    expect(positiveInteger('count', undefined, 7)).toBe(7);
    expect(positiveNumber('rate', '2.5', 1)).toBe(2.5);
    expect(oneOf('stage', undefined, ['base', 'edge'] as const, 'edge')).toBe('edge');
    expect(listOf('types', 'alarm, state,alarm', ['state', 'alarm'], ['state'])).toEqual(['alarm', 'state']);
  });
});

describe('parseCommandArgs and singleInput', () => {
  it('turns node:util parse errors into usage errors', () => {
    // Act / Assess
    expect(() => parseCommandArgs(['--colour', 'x'], { json: { type: 'boolean' } })).toThrow(UsageError);
    expect(parseCommandArgs(['--json', 'f.json'], { json: { type: 'boolean' } })).toMatchObject({
      values: { json: true },
      positionals: ['f.json'],
    });
  });

  it('wants exactly one input', () => {
    expect(singleInput(['-'])).toBe('-');
    expect(() => singleInput([])).toThrow(/expected exactly one input .* got 0/);
    expect(() => singleInput(['a', 'b'])).toThrow(UsageError);
  });
});
