// vitest globalSetup of every integration project (listed first): what all offline stacks and
// DynamoDB Locals of the run share. Passed on through the environment: test workers inherit this
// process's environment, and stacks and JVMs inherit theirs.
// - The function bundles, built once (test/support/prebuilt-bundles.ts) instead of by every stack.
// - JVM options for DynamoDB Local that halve its start-up CPU (C1 compiler only, serial GC:
//   measured 8.1 s -> 3.9-4.7 s of CPU to the first answer). Benchmarks do not run here and keep
//   the JVM's defaults.
import { buildFunctionBundles, type PrebuiltBundles } from './prebuilt-bundles';

const quickStartJvm = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

// Each project loads this module on its own; the build is shared through a process-wide slot, so
// projects whose setups run at the same time still build once.
const slot = Symbol.for('industrial-insights.prebuilt-bundles');
type Shared = { [slot]?: Promise<PrebuiltBundles> };

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const shared = globalThis as Shared;
  // The caller brought its own bundles, or another project's setup is building them.
  if (process.env.INSIGHTS_PREBUILT_DIR || shared[slot]) {
    await shared[slot];
    return undefined;
  }
  process.env.JDK_JAVA_OPTIONS ??= quickStartJvm;
  const building = buildFunctionBundles();
  shared[slot] = building;
  const bundles = await building;
  process.env.INSIGHTS_PREBUILT_DIR = bundles.dir;
  return async () => {
    delete process.env.INSIGHTS_PREBUILT_DIR;
    delete shared[slot];
    await bundles.remove();
  };
}
