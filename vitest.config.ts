import { readFileSync, readdirSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { RunOrder } from './test/support/run-order.js';

// Files that must have the stack to themselves: they measure that one client is not slowed by
// another. They run one at a time, after the rest, on the shared stack (idle by then). Files that
// kill or restart a stack of their own (npm-start, ingest-conservation) run beside the others:
// their stacks are their own.
const alone = ['test/integration/query-hardening-http.test.ts'];
// Files that use only their own tenant on one offline stack shared by all of them.
const onSharedStack = [
  'test/integration/identity.test.ts',
  'test/integration/query-conformance-http.test.ts',
  'test/integration/query-statements-http.test.ts',
  'test/integration/playground-browser.test.ts',
  'test/integration/openapi-live.test.ts',
  'test/integration/kusto-protocol.test.ts',
  'test/integration/kusto-batches-http.test.ts',
  'test/integration/dead-letter-replay.test.ts',
  'test/integration/ingest-e2e.test.ts',
  'test/integration/maintenance-api.test.ts',
  'test/integration/offline-stack.test.ts',
];
// Files that drive chromium over the playground's own server: no DynamoDB, no stack, no bundles.
const inBrowserOnly = ['test/integration/playground-editor.test.ts', 'test/integration/playground-charts.test.ts'];

// Unit files share one module context per worker (isolate: false): re-importing the compiler, the
// SDK and zod for each of ~110 files cost half of the unit project's CPU. A file that patches
// something shared (module mocks, SDK client mocks on prototypes, stubbed env/globals, fake timers,
// spies, process.env writes) keeps a fresh context of its own; this list is found from the files'
// text, so a new test that mocks is isolated without anyone remembering to list it.
const testFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `${dir}/${name}`);
const unitFiles = [...testFiles('test/unit'), ...testFiles('test/golden')];
const patchesShared =
  /vi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn)\(|mockClient\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/;
const unitIsolated = unitFiles.filter((file) => patchesShared.test(readFileSync(file, 'utf8')));

// Every global setup below returns at once and starts its engines in the background (vitest runs
// no file until all projects' setups have returned); the files wait for what they use.
export default defineConfig({
  test: {
    // vitest's default is one worker less than the cores: one worker on this 2-core machine, so no
    // file ever ran beside another. Integration files mostly wait on their engines' processes, so
    // three workers on the two cores: a fresh clone's .ci/run on a quiet machine (2026-11-26, tree
    // 6993130) took 272 s with three (vitest 215.6 s, 408 CPU-s, 4,572 passed, load peak ~9) against
    // 288-306 s with two. At a load of 27 (other runs on the machine) five files once ran into
    // their time limits with three; the tests that came near theirs at loads of 13-26 got room
    // (unit 60 s, package.test.ts), and the waits that raced are on conditions (local-iot-broker).
    maxWorkers: 3,
    // Longest files first, unit files last (test/support/run-order.ts).
    sequence: { sequencer: RunOrder },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/golden/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...unitIsolated],
          isolate: false,
          environment: 'node',
          // Handlers log structured JSON; tests that care about logs capture them explicitly.
          env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
          // Unit files run beside integration files that start stacks: a property test of 1000 runs
          // took 6.6 s against vitest's default 5 s limit on a loaded machine (fresh-clone CI run),
          // and the longest (query/injection) 23 s at a load of 20-26 with three workers.
          testTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'unit-isolated',
          include: unitIsolated,
          environment: 'node',
          env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
          testTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...alone, ...onSharedStack, ...inBrowserOnly],
          environment: 'node',
          // One DynamoDB Local for the run (a table per file); an offline stack of a file here is
          // its own, on free ports with its own data folder, so files run in parallel.
          globalSetup: ['test/support/global-run.ts', 'test/support/global-engines.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'integration-browser',
          include: inBrowserOnly,
          environment: 'node',
          sequence: { groupOrder: 0 },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'integration-stack',
          include: onSharedStack,
          environment: 'node',
          globalSetup: ['test/support/global-run.ts', 'test/support/global-stack.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'integration-alone',
          include: alone,
          environment: 'node',
          // The same stack as integration-stack's (test/support/global-stack.ts).
          globalSetup: ['test/support/global-run.ts', 'test/support/global-stack.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          // Slow queries run to their time limit while others are measured: minutes on a loaded machine.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
