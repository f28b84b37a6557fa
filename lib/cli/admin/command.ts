// The shape of an admin CLI command, shared by the command tables (commands.ts,
// dead-letter-commands.ts, import-command.ts) and the dispatcher that runs them.
import { UsageError } from '../args';
import type { Target } from './target';

export interface AdminIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
}

type Options = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export interface Command {
  readonly usage: string;
  readonly summary: string;
  readonly options: Options;
  /** Takes positional arguments (else any is a usage error). */
  readonly positionals?: boolean;
  run(
    values: Record<string, string | boolean | undefined>,
    positionals: string[],
    target: Target,
    io: AdminIo,
  ): Promise<unknown>;
  /** Human-readable rendering of run's result; JSON otherwise. */
  text(result: never, target: Target): string;
  /** The exit status for a result (default 0; an import that wrote nothing: 1). */
  exitCode?(result: never): number;
}

/** The value of a string option the command cannot do without. @throws UsageError when absent or empty. */
export function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}
