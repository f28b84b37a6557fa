// The offline stack shared by the files of the `integration-stack` and `integration-alone` projects
// (started once, in the background, by test/support/global-stack.ts). A file on it must only read
// and write its own tenant and must not stop, kill or restart the stack: stop() here only lets go.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import type { OfflineStack } from './offline-stack';
import { StopWaiting, waitUntil } from './ports';

export interface SharedStackInfo {
  readonly httpUrl: string;
  readonly mqttUrl: string;
  readonly dataDir: string;
  readonly ports: OfflineStack['ports'];
  /** Where the stack's stdout and stderr are appended. */
  readonly logFile: string;
  /** Written with the reason (and the stack's output) when the stack could not start. */
  readonly failureFile: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    offlineStack: SharedStackInfo;
  }
}

/**
 * The shared stack once its /health reports every component up.
 * @throws when it could not start (with its output), or after about 3 minutes (with its log so far).
 */
export async function sharedOfflineStack(): Promise<OfflineStack> {
  const info = inject('offlineStack');
  if (!info)
    throw new Error('no shared offline stack: run this file in a project that lists test/support/global-stack.ts');
  try {
    await waitUntil(
      async () => {
        const failure = await readFile(info.failureFile, 'utf8').catch(() => undefined);
        if (failure !== undefined) throw new StopWaiting(`the shared offline stack did not start: ${failure}`);
        const response = await fetch(`${info.httpUrl}/health`);
        return response.status === 200 && ((await response.json()) as { status: string }).status === 'up';
      },
      170_000,
      `the shared offline stack at ${info.httpUrl}/health`,
    );
  } catch (error) {
    if (error instanceof StopWaiting) throw error;
    const log = await readFile(info.logFile, 'utf8').catch(() => '(no log)');
    throw new Error(`${(error as Error).message}\n--- stack output ---\n${log}`);
  }
  return {
    ...info,
    output: () => readFileSync(info.logFile, 'utf8'),
    stop: async () => undefined,
    kill: () =>
      Promise.reject(
        new Error('the shared offline stack cannot be killed by one file; start one with startOfflineStack'),
      ),
  };
}
