// Argument helpers shared by the gdm commands: node:util parseArgs with usage errors (exit 2) that
// name the option, and parsers for the numeric and list options.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A problem with how the command was called; the CLI prints it with a --help hint and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs in strict mode with positionals; its TypeErrors become UsageErrors. */
export function parseCommandArgs<const O extends Options>(args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Exactly one input: a file path or `-` for standard input. */
export function singleInput(positionals: readonly string[]): string {
  if (positionals.length !== 1 || positionals[0] === undefined) {
    throw new UsageError(`expected exactly one input (a FILE, or - for standard input); got ${positionals.length}`);
  }
  return positionals[0];
}

export function oneOf<T extends string>(
  option: string,
  raw: string | undefined,
  allowed: readonly T[],
  fallback?: T,
): T {
  if (raw === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`--${option} is required (one of ${allowed.join(', ')})`);
  }
  if (!(allowed as readonly string[]).includes(raw))
    throw new UsageError(`--${option} must be one of ${allowed.join(', ')}; got "${raw}"`);
  return raw as T;
}

export function positiveInteger(option: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`--${option} must be a positive integer; got "${raw}"`);
  return value;
}

export function positiveNumber(option: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw new UsageError(`--${option} must be a positive number; got "${raw}"`);
  return value;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration such as 90, 90s, 1.5m, 2h or 500ms (a bare number means seconds), in milliseconds. */
export function durationMs(option: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const match = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)?$/.exec(raw.trim());
  const amount = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  const unit = UNIT_MS[match?.[2] ?? 's'] ?? 1000;
  if (!(amount > 0))
    throw new UsageError(`--${option} must be a positive duration such as 30, 30s, 5m or 1h; got "${raw}"`);
  return amount * unit;
}

/** A comma-separated list whose items must all be allowed, without duplicates. */
export function listOf<T extends string>(
  option: string,
  raw: string | undefined,
  allowed: readonly T[],
  fallback: readonly T[],
): readonly T[] {
  if (raw === undefined) return fallback;
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const wrong = items.filter((s) => !(allowed as readonly string[]).includes(s));
  if (items.length === 0 || wrong.length > 0)
    throw new UsageError(`--${option} takes a comma-separated list of ${allowed.join(', ')}; got "${raw}"`);
  return [...new Set(items)] as T[];
}
