// The test run's engines start in the background (test/support/global-*.ts); a file waits for what
// it uses. A wait must end as soon as the engine is ready, and at once with the engine's own
// error when it failed, not at the end of its time limit.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StopWaiting, waitUntil } from '../../support/ports';
import { bundlesFailure, runBundlesReady } from '../../support/run-bundles';

describe('waitUntil', () => {
  it('polls through other errors until the check holds', async () => {
    let calls = 0;
    await waitUntil(
      async () => {
        calls++;
        if (calls < 3) throw new Error('connection refused');
        return true;
      },
      5000,
      'the check',
    );
    expect(calls).toBe(3);
  });

  it('gives up at once on StopWaiting, with its message', async () => {
    const started = Date.now();
    await expect(
      waitUntil(
        async () => {
          throw new StopWaiting('the stack exited with 1');
        },
        60_000,
        'the stack',
      ),
    ).rejects.toThrow('the stack exited with 1');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('names what it waited for when the time is up', async () => {
    await expect(waitUntil(async () => false, 300, 'the stack at :1')).rejects.toThrow(
      'timed out after 300 ms waiting for the stack at :1',
    );
  });
});

describe("the run's bundles", () => {
  let dir: string;
  const before = process.env.INSIGHTS_PREBUILT_DIR;
  beforeEach(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'run-bundles-')), 'run-1');
    process.env.INSIGHTS_PREBUILT_DIR = dir;
  });
  afterEach(async () => {
    if (before === undefined) delete process.env.INSIGHTS_PREBUILT_DIR;
    else process.env.INSIGHTS_PREBUILT_DIR = before;
    await rm(path.dirname(dir), { recursive: true, force: true });
  });

  it('are awaited until their folder holds functions/', async () => {
    const waiting = runBundlesReady(10_000);
    let done = false;
    void waiting.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(done).toBe(false);
    await mkdir(path.join(dir, 'functions'), { recursive: true });
    await waiting;
    expect(done).toBe(true);
  });

  it("fail the wait at once with the build's error", async () => {
    await writeFile(bundlesFailure(dir), 'esbuild: Could not resolve "nowhere"');
    await expect(runBundlesReady(60_000)).rejects.toThrow(/not built:\nesbuild: Could not resolve "nowhere"/);
  });

  it('are not awaited when the run has none', async () => {
    delete process.env.INSIGHTS_PREBUILT_DIR;
    await expect(runBundlesReady(100)).resolves.toBeUndefined();
  });
});
