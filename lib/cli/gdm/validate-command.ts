// gdm validate [--stage base|edge|cloud] [--json] FILE|-
// Exit 0 when every message is valid, 1 when any is not, 2 for a usage error.
import { validateMessage } from '../../gdm/validate';
import type { GdmError, GdmIssue } from '../../gdm/issues';
import { STAGES, type Stage } from '../../gdm/rules';
import { EXIT_FAILURE, EXIT_OK, oneOf, parseCommandArgs, singleInput } from '../args';
import { parseInput, readInput, type CliIo, type InputEntry } from './io';

export const VALIDATE_HELP = `Usage: gdm validate [--stage base|edge|cloud] [--json] FILE|-

Validates GDM release-01 messages. FILE (or - for standard input) holds one message,
a JSON array of messages, or NDJSON (one message per line).

Options:
  --stage STAGE  base, edge or cloud (default: edge, what a gateway publishes)
  --json         print one JSON object per message and line:
                 {"index","valid","errors":[{"path","code","message"}],"warnings":[...]}
  -h, --help     show this help

Exit status: 0 all messages valid, 1 any message invalid, 2 usage error.
Warnings (the spec's alarm and keep-alive conventions) never make a message invalid.

Examples:
  gdm validate --stage base machine-output.ndjson
  mosquitto_sub -t 'gdm/+/messages' -C 10 | gdm validate --json -
`;

export interface MessageReport {
  readonly index: number;
  readonly valid: boolean;
  readonly errors: readonly GdmError[];
  readonly warnings: readonly GdmIssue[];
}

export function reportFor(entry: InputEntry, index: number, stage: Stage): MessageReport {
  if (entry.jsonError !== undefined) {
    return {
      index,
      valid: false,
      errors: [{ path: '', code: 'GDM_INVALID_JSON', message: entry.jsonError }],
      warnings: [],
    };
  }
  const result = validateMessage(entry.value, stage);
  return { index, valid: result.ok, errors: result.errors, warnings: result.warnings };
}

function humanLines(report: MessageReport): string {
  const line = (kind: string, issue: GdmIssue): string =>
    `  ${kind} ${issue.path === '' ? '(message)' : issue.path}  ${issue.code}  ${issue.message}\n`;
  const counts = `${report.errors.length} error(s), ${report.warnings.length} warning(s)`;
  return (
    `message ${report.index}: ${report.valid ? 'valid' : 'invalid'}, ${counts}\n` +
    report.errors.map((e) => line('error  ', e)).join('') +
    report.warnings.map((w) => line('warning', w)).join('')
  );
}

export async function runValidate(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    stage: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(VALIDATE_HELP);
    return EXIT_OK;
  }
  const stage = oneOf('stage', values.stage, STAGES, 'edge');
  const input = parseInput(await readInput(singleInput(positionals), io));
  const reports = input.entries.map((entry, index) => reportFor(entry, index, stage));
  const invalid = reports.filter((r) => !r.valid).length;
  if (values.json) {
    io.stdout.write(reports.map((r) => JSON.stringify(r)).join('\n') + '\n');
  } else {
    const noteworthy = reports.filter((r) => !r.valid || r.warnings.length > 0);
    io.stdout.write(noteworthy.map(humanLines).join(''));
    const warned = reports.filter((r) => r.warnings.length > 0).length;
    io.stdout.write(
      `${reports.length} message(s) checked at stage ${stage}: ${reports.length - invalid} valid, ${invalid} invalid, ${warned} with warnings\n`,
    );
  }
  return invalid === 0 ? EXIT_OK : EXIT_FAILURE;
}
