// gdm enrich --to edge|cloud [--agent-id ID] [--ingestion-id ID] [--device-id ID] [--now TIME] FILE|-
// All-or-nothing: when any message cannot be enriched, nothing is printed and the exit status is 1.
import { GdmEnrichmentError, toCloud, toEdge, type Clock } from '../../gdm/enrich';
import { validateMessage } from '../../gdm/validate';
import { DATE_TIME_PATTERN, DEVICE_ID_PATTERN, INGESTION_ID_PATTERN, UUID_PATTERN, type Stage } from '../../gdm/rules';
import type { GdmIssue } from '../../gdm/issues';
import type { EdgeMessage } from '../../gdm/types';
import { EXIT_FAILURE, EXIT_OK, oneOf, parseCommandArgs, singleInput, UsageError } from '../args';
import { formatOutput, parseInput, readInput, type CliIo, type InputEntry } from './io';

export const ENRICH_HELP = `Usage: gdm enrich --to edge|cloud [options] FILE|-

Enriches GDM messages to the next stage and prints them in the input's shape
(one message, a JSON array, or NDJSON).

  --to edge   input: base messages. Sets agentTimestamp; deviceId from the message,
              else from --device-id.
  --to cloud  input: edge messages (base messages, those without agentTimestamp, go
              through edge first). Sets agentId, ingestionId, ingestionTimestamp,
              uid and a nameId per data item.

Options:
  --agent-id ID      agent (gateway) id, a lowercase UUID; required for --to cloud
  --ingestion-id ID  name of the message hub (default: gdm-cli)
  --device-id ID     deviceId for base messages that have none
  --now TIME         fixed clock, an ISO 8601 date-time with offset (default: system time)
  -h, --help         show this help

Exit status: 0 all enriched, 1 any message invalid (nothing printed), 2 usage error.

Example:
  gdm enrich --to edge --device-id press-7 base.json | gdm validate --stage edge -
`;

export const DEFAULT_INGESTION_ID = 'gdm-cli';

interface EnrichSettings {
  readonly to: 'edge' | 'cloud';
  readonly now: Clock;
  readonly deviceId?: string;
  readonly agentId?: string;
  readonly ingestionId: string;
}

type Outcome =
  | { readonly message: unknown; readonly warnings: readonly GdmIssue[]; readonly problems?: undefined }
  | { readonly message?: undefined; readonly warnings?: undefined; readonly problems: readonly GdmIssue[] };

function settingsFrom(values: Readonly<Record<string, string | boolean | undefined>>): EnrichSettings {
  const to = oneOf('to', values.to as string | undefined, ['edge', 'cloud'] as const);
  const text = (name: string): string | undefined => values[name] as string | undefined;
  const check = (name: string, pattern: RegExp, what: string): string | undefined => {
    const value = text(name);
    if (value !== undefined && !pattern.test(value)) throw new UsageError(`--${name} must be ${what}; got "${value}"`);
    return value;
  };
  const agentId = check('agent-id', UUID_PATTERN, 'a lowercase hexadecimal UUID (8-4-4-4-12)');
  if (to === 'cloud' && agentId === undefined) throw new UsageError('--agent-id is required with --to cloud');
  const deviceId = check('device-id', DEVICE_ID_PATTERN, 'letters, digits, _ - . # =');
  const ingestionId = check('ingestion-id', INGESTION_ID_PATTERN, 'letters, digits, _ - .') ?? DEFAULT_INGESTION_ID;
  const fixed = check('now', DATE_TIME_PATTERN, 'an ISO 8601 date-time with a UTC offset, e.g. 2024-05-01T10:00:00Z');
  const now: Clock = fixed === undefined ? () => new Date() : () => new Date(fixed);
  return {
    to,
    now,
    ingestionId,
    ...(deviceId !== undefined && { deviceId }),
    ...(agentId !== undefined && { agentId }),
  };
}

function enrichOne(entry: InputEntry, settings: EnrichSettings): Outcome {
  if (entry.jsonError !== undefined)
    return { problems: [{ path: '', code: 'GDM_INVALID_JSON', message: entry.jsonError }] };
  const value = entry.value;
  const isEdge = settings.to === 'cloud' && typeof value === 'object' && value !== null && 'agentTimestamp' in value;
  const from: Stage = isEdge ? 'edge' : 'base';
  const result = validateMessage(value, from);
  if (!result.ok) return { problems: result.errors };
  try {
    const edge = result.message as EdgeMessage;
    const asEdge =
      from === 'edge'
        ? edge
        : toEdge(result.message, {
            now: settings.now,
            ...(settings.deviceId !== undefined && { deviceId: settings.deviceId }),
          });
    const { warnings } = result;
    if (settings.to === 'edge') return { message: asEdge, warnings };
    return {
      message: toCloud(asEdge, {
        now: settings.now,
        agentId: settings.agentId ?? '',
        ingestionId: settings.ingestionId,
      }),
      warnings,
    };
  } catch (error) {
    if (error instanceof GdmEnrichmentError)
      return { problems: [{ path: error.path, code: error.code, message: error.message }] };
    throw error;
  }
}

export async function runEnrich(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    to: { type: 'string' },
    'agent-id': { type: 'string' },
    'ingestion-id': { type: 'string' },
    'device-id': { type: 'string' },
    now: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(ENRICH_HELP);
    return EXIT_OK;
  }
  const settings = settingsFrom(values);
  const input = parseInput(await readInput(singleInput(positionals), io));
  const outcomes = input.entries.map((entry) => enrichOne(entry, settings));
  const failed = outcomes.flatMap((o, index) =>
    o.problems === undefined ? [] : o.problems.map((p) => ({ index, ...p })),
  );
  if (failed.length > 0) {
    for (const p of failed)
      io.stderr.write(`message ${p.index}: ${p.path === '' ? '(message)' : p.path}  ${p.code}  ${p.message}\n`);
    io.stderr.write(
      `gdm enrich: ${new Set(failed.map((p) => p.index)).size} of ${outcomes.length} message(s) cannot be enriched; nothing printed\n`,
    );
    return EXIT_FAILURE;
  }
  outcomes.forEach((o, index) => {
    for (const w of o.warnings ?? []) io.stderr.write(`message ${index}: warning ${w.path}  ${w.code}  ${w.message}\n`);
  });
  io.stdout.write(
    formatOutput(
      input.shape,
      input.compact,
      outcomes.map((o) => o.message),
    ),
  );
  return EXIT_OK;
}
