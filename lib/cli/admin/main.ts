// Dispatch of `insights-admin <group> <action>`. Usage errors exit 2 with a pointer to --help,
// refused actions (AppError) and other failures exit 1 with their message.
import { UsageError } from '../args';
import { isAppError } from '../../core/errors';
import type { AdminIo } from './command';
import { COMMANDS, runCommand } from './commands';
import { explainUnreachable, localStack } from '../local-stack';
import { COMMON_HELP, type StageAwsFactory } from './target';

export const MAIN_HELP = `Usage: insights-admin <command> [options]

The operator's tool for customers, plants, agents, query clients, maintenance tokens, lookup
lists, imports and the dead letter. Works on the local stack by default; --stage NAME for a deployed stage.

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(18)} ${c.summary}`)
  .join('\n')}

Run "insights-admin <command> --help" for the options of a command.

${COMMON_HELP}`;

/** A refused connection to the local stack, said in one line with what to do (undefined otherwise). */
function unreachable(error: unknown): string | undefined {
  try {
    return explainUnreachable(error, localStack());
  } catch {
    return undefined;
  }
}

/** `aws`: the AWS side of `--stage` (tests pass mocks; default lib/adapters/aws-admin/stage.ts). */
export async function runAdmin(
  argv: readonly string[],
  io: AdminIo,
  aws?: (region: string) => StageAwsFactory,
): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    (first === undefined ? io.stderr : io.stdout).write(MAIN_HELP);
    return first === undefined ? 2 : 0;
  }
  const twoWords = second !== undefined ? `${first} ${second}` : '';
  // Own keys only: a plain lookup would also find inherited names such as "constructor".
  const name = [twoWords, first].find((candidate) => Object.hasOwn(COMMANDS, candidate));
  if (name === undefined) {
    io.stderr.write(`insights-admin: unknown command "${twoWords || first}"\n\n${MAIN_HELP}`);
    return 2;
  }
  const command = COMMANDS[name]!;
  try {
    return await runCommand(name, command, argv.slice(name.split(' ').length), io, aws);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`insights-admin ${name}: ${error.message}\nRun "insights-admin ${name} --help" for usage.\n`);
      return 2;
    }
    const message =
      unreachable(error) ??
      (isAppError(error)
        ? error.message
        : error instanceof Error
          ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`
          : String(error));
    io.stderr.write(`insights-admin ${name}: ${message}\n`);
    return 1;
  }
}
