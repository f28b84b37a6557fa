// Process wiring of the `gdm` command (bin lib/cli/gdm.mjs loads this through tsx): real streams,
// Ctrl-C / SIGTERM as an abort signal, and the exit status. The commands live in lib/cli/gdm/.
import { runGdm } from './gdm/main';

const interrupt = new AbortController();
const onSignal = (): void => {
  // A second Ctrl-C means "stop now", without waiting for outstanding acknowledgements.
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

process.exitCode = await runGdm(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: interrupt.signal,
});
process.off('SIGINT', onSignal);
process.off('SIGTERM', onSignal);
