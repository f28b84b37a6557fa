// vitest setup file of the `integration` project: a file starts only once the run's function
// bundles are built (test/support/global-run.ts builds them in the background). Files that start a
// stack through startOfflineStack wait there anyway; this covers those that start one another way
// (`npm start` in npm-start.test.ts inherits INSIGHTS_PREBUILT_DIR and would find no bundles yet).
import { runBundlesReady } from './run-bundles';

await runBundlesReady();
