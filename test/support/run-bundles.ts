// Where a stack of the test run finds the run's function bundles. test/support/global-run.ts builds
// them in the background (the unit files need none of it and start at once) and names the folder
// in INSIGHTS_PREBUILT_DIR before it exists: the name is a link made only once the build has
// ended, so a folder that exists is complete. A failed build leaves its error in `<name>.failed`.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { StopWaiting, waitUntil } from './ports';

/** The file holding the build's error when the bundles of `dir` could not be built. */
export const bundlesFailure = (dir: string): string => `${dir}.failed`;

/**
 * Waits until the run's bundles are built; at once when the run has none (the stack bundles by itself).
 * @throws the build's error when it failed, or a timeout.
 */
export async function runBundlesReady(timeoutMs = 170_000): Promise<void> {
  const dir = process.env.INSIGHTS_PREBUILT_DIR;
  if (!dir) return;
  await waitUntil(
    async () => {
      if (existsSync(path.join(dir, 'functions'))) return true;
      const failure = await readFile(bundlesFailure(dir), 'utf8').catch(() => undefined);
      if (failure !== undefined) throw new StopWaiting(`the run's function bundles were not built:\n${failure}`);
      return false;
    },
    timeoutMs,
    `the run's function bundles (${dir})`,
  );
}
