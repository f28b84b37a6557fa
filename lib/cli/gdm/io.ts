// Input and output of the gdm commands: one message, a JSON array, or NDJSON, read from a file or
// standard input; output written back in the same shape (and the same one-line/pretty layout).
import { readFile } from 'node:fs/promises';
import { UsageError } from '../args';

export interface CliIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Aborted on Ctrl-C / SIGTERM: long-running commands stop cleanly and still report. */
  readonly signal?: AbortSignal;
}

export type InputShape = 'object' | 'array' | 'ndjson';

/** One message of the input: its parsed value, or why it is not JSON. */
export type InputEntry =
  | { readonly value: unknown; readonly jsonError?: undefined }
  | { readonly value?: undefined; readonly jsonError: string };

export interface ParsedInput {
  readonly shape: InputShape;
  /** True when a single object or array was written on one line: output keeps it on one line. */
  readonly compact: boolean;
  readonly entries: readonly InputEntry[];
}

/** Reads FILE, or standard input for `-`. @throws UsageError when the file cannot be read. */
export async function readInput(source: string, io: CliIo): Promise<string> {
  if (source === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(source, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function tryParse(text: string): InputEntry {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { jsonError: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Decides the shape: the whole text as one JSON document (object or array) when it parses;
 * otherwise NDJSON when its first line is JSON on its own; otherwise one broken document.
 * @throws UsageError when the input holds no message at all.
 */
export function parseInput(text: string): ParsedInput {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError('the input holds no message');
  const compact = !trimmed.includes('\n');
  const whole = tryParse(trimmed);
  if (whole.jsonError === undefined) {
    if (Array.isArray(whole.value)) {
      if (whole.value.length === 0) throw new UsageError('the input is an empty array: it holds no message');
      return { shape: 'array', compact, entries: whole.value.map((value: unknown) => ({ value })) };
    }
    return { shape: 'object', compact, entries: [whole] };
  }
  const lines = text
    .split(/\r?\n/)
    .map((line, i) => ({ line: line.trim(), number: i + 1 }))
    .filter((l) => l.line !== '');
  const first = lines[0];
  if (trimmed.startsWith('[') || first === undefined || tryParse(first.line).jsonError !== undefined) {
    return {
      shape: trimmed.startsWith('[') ? 'array' : 'object',
      compact,
      entries: [{ jsonError: `the input is not JSON: ${whole.jsonError}` }],
    };
  }
  const entries = lines.map(({ line, number }): InputEntry => {
    const entry = tryParse(line);
    return entry.jsonError === undefined ? entry : { jsonError: `line ${number} is not JSON: ${entry.jsonError}` };
  });
  return { shape: 'ndjson', compact: false, entries };
}

/** Renders messages in the input's shape, ending with a newline. */
export function formatOutput(shape: InputShape, compact: boolean, values: readonly unknown[]): string {
  if (shape === 'ndjson') return values.map((v) => JSON.stringify(v)).join('\n') + '\n';
  const document = shape === 'array' ? values : values[0];
  return `${compact ? JSON.stringify(document) : JSON.stringify(document, null, 2)}\n`;
}
