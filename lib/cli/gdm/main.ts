// Dispatch of the `gdm` command line: gdm <validate|enrich|publish> [options]. Usage errors exit 2
// with a pointer to --help; any other failure exits 1 with its message (no stack trace for users).
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from '../args';
import { explainUnreachable, localStack } from '../local-stack';
import { runEnrich } from './enrich-command';
import type { CliIo } from './io';
import { runPublish } from './publish-command';
import { runValidate } from './validate-command';

export const MAIN_HELP = `Usage: gdm <command> [options]

Tools for GDM release-01 messages (see docs/gdm.md).

Commands:
  validate   check messages at the base, edge or cloud stage
  enrich     enrich messages to the edge or cloud stage
  publish    gateway simulator: publish edge messages over MQTT (QoS 1)

Run "gdm <command> --help" for the options of a command.
`;

const COMMANDS: Readonly<Record<string, (args: readonly string[], io: CliIo) => Promise<number>>> = {
  validate: runValidate,
  enrich: runEnrich,
  publish: runPublish,
};

/** A refused connection to the local stack, said with what to do (undefined otherwise). */
function unreachable(error: unknown): string | undefined {
  try {
    return explainUnreachable(error, localStack());
  } catch {
    return undefined;
  }
}

export async function runGdm(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(MAIN_HELP);
    return EXIT_OK;
  }
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command === undefined) {
    io.stderr.write(
      `${name === undefined ? 'gdm: a command is required' : `gdm: unknown command "${name}"`}\n\n${MAIN_HELP}`,
    );
    return EXIT_USAGE;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`gdm ${name}: ${error.message}\nRun "gdm ${name} --help" for usage.\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`gdm ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    const hint = unreachable(error);
    if (hint !== undefined) io.stderr.write(`gdm ${name}: ${hint}\n`);
    return EXIT_FAILURE;
  }
}
