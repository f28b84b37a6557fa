// vitest globalSetup of every integration project (listed first): what all offline stacks and
// DynamoDB Locals of the run share. Passed on through the environment: test workers inherit this
// process's environment, and stacks and JVMs inherit theirs.
// - The function bundles, built once (test/support/prebuilt-bundles.ts) instead of by every stack.
//   The build runs in the background: vitest runs no test file until every project's setup has
//   returned, and the unit files need no bundles. Stacks wait for them (test/support/run-bundles.ts).
// - JVM options for DynamoDB Local that halve its start-up CPU (C1 compiler only, serial GC:
//   measured 8.1 s -> 3.9-4.7 s of CPU to the first answer). Benchmarks do not run here and keep
//   the JVM's defaults.
import { randomBytes } from 'node:crypto';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildFunctionBundles, type PrebuiltBundles } from './prebuilt-bundles';
import { bundlesFailure } from './run-bundles';

const root = path.resolve(import.meta.dirname, '../..');
const quickStartJvm = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

// Each project loads this module on its own; the build is shared through a process-wide slot, so
// every project's setup after the first finds it started.
const slot = Symbol.for('industrial-insights.prebuilt-bundles');
type Shared = { [slot]?: Promise<PrebuiltBundles | undefined> };

export default function setup(): (() => Promise<void>) | undefined {
  const shared = globalThis as Shared;
  // The caller brought its own bundles, or another project's setup is building them.
  if (process.env.INSIGHTS_PREBUILT_DIR || shared[slot]) return undefined;
  process.env.JDK_JAVA_OPTIONS ??= quickStartJvm;
  const link = path.join(root, '.esbuild', `run-${randomBytes(4).toString('hex')}`);
  process.env.INSIGHTS_PREBUILT_DIR = link;
  const building = buildFunctionBundles().then(
    async (bundles) => {
      await symlink(bundles.dir, link, 'dir');
      return bundles;
    },
    // Nothing awaits this promise but the teardown: the error goes where the stacks look for it.
    async (error: unknown) => {
      await mkdir(path.dirname(link), { recursive: true });
      await writeFile(bundlesFailure(link), error instanceof Error ? (error.stack ?? error.message) : String(error));
      return undefined;
    },
  );
  shared[slot] = building;
  return async () => {
    delete process.env.INSIGHTS_PREBUILT_DIR;
    delete shared[slot];
    const bundles = await building;
    await rm(link, { force: true });
    await rm(bundlesFailure(link), { force: true });
    await bundles?.remove();
  };
}
