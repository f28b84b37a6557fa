// The tests' view of a stack's broker journal from outside (test/support/iot-journal.ts): the
// conservation test waits on it, so it must say "not drained" while a record is unprocessed and
// "drained" once the checkpoint covers the last record, and nothing earlier.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../../infra/local/iot/journal';
import { journalDrained, journalProgress } from '../../support/iot-journal';

const record = (i: number) => ({
  topic: 'gdm/agent/messages',
  clientId: 'agent',
  receivedAt: 1_700_000_000_000 + i,
  payload: Buffer.from(`{"n":${i}}`),
});

describe('journalDrained', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'journal-drained-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is drained with no journal at all (nothing was acknowledged)', async () => {
    expect(await journalProgress(dataDir)).toEqual({ lastSeq: 0, processedThrough: 0 });
    expect(await journalDrained(dataDir)).toBe(true);
  });

  it('is not drained while a record is unprocessed, and is once the checkpoint covers the last one', async () => {
    const journal = await openJournal(path.join(dataDir, 'iot-journal'), { checkpointEveryMs: 1 });
    await Promise.all([1, 2, 3].map((i) => journal.append(record(i))));
    expect(await journalDrained(dataDir)).toBe(false);

    journal.markProcessed([1, 3]); // 2 is still out: the checkpoint stops at 1
    await new Promise((r) => setTimeout(r, 50));
    expect(await journalProgress(dataDir)).toEqual({ lastSeq: 3, processedThrough: 1 });
    expect(await journalDrained(dataDir)).toBe(false);

    journal.markProcessed([2]);
    await journal.close();
    expect(await journalProgress(dataDir)).toEqual({ lastSeq: 3, processedThrough: 3 });
    expect(await journalDrained(dataDir)).toBe(true);
  });
});
