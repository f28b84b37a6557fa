// The offline stack shared by the files of the `integration-stack` project (started once by
// test/support/global-stack.ts). A file on it must only read and write its own tenant and must not
// stop, kill or restart the stack: stop() here only lets go of it.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { OfflineStack } from './offline-stack';

export interface SharedStackInfo {
  readonly httpUrl: string;
  readonly mqttUrl: string;
  readonly dataDir: string;
  readonly ports: OfflineStack['ports'];
  /** Where the stack's stdout and stderr are appended. */
  readonly logFile: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    offlineStack: SharedStackInfo;
  }
}

export function sharedOfflineStack(): OfflineStack {
  const info = inject('offlineStack');
  if (!info)
    throw new Error('no shared offline stack: run this file in the integration-stack project (vitest.config.ts)');
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
