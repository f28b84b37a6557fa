// The local broker's write-ahead journal: what was appended and not processed comes back after a
// reopen, in order and intact; a torn last record (a crash mid-write) is cut off; processed
// segments are removed; appends of one turn share one disk flush.
import { appendFile, mkdtemp, readdir, readFile, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeRecords, encodeRecord, openJournal } from '../../../infra/local/iot/journal';

const record = (i: number) => ({
  topic: `gdm/agent-${i % 3}/messages`,
  clientId: `agent-${i % 3}`,
  receivedAt: 1_700_000_000_000 + i,
  payload: Buffer.from(`{"n":${i}}`),
});

describe('journal', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'journal-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const segments = async () => (await readdir(dir)).filter((n) => n.startsWith('segment-')).sort();

  it('gives back every appended record not marked processed, in order and intact, after a reopen', async () => {
    const journal = await openJournal(dir);
    const binary = Buffer.from([0, 10, 255, 13, 10, 0]);
    const appended = await Promise.all(
      [record(1), record(2), { ...record(3), payload: binary }].map((r) => journal.append(r)),
    );
    expect(appended.map((r) => r.seq)).toEqual([1, 2, 3]);
    journal.markProcessed([1]);
    await journal.close();

    const again = await openJournal(dir);
    expect(again.recovered.map((r) => r.seq)).toEqual([2, 3]);
    expect(again.recovered[0]).toEqual({ seq: 2, ...record(2) });
    expect(again.recovered[1]?.payload.equals(binary)).toBe(true);
    // Numbering goes on after the highest record, never reusing one.
    expect((await again.append(record(4))).seq).toBe(4);
    await again.close();
  });

  it('moves the checkpoint only over contiguous processed records', async () => {
    const journal = await openJournal(dir);
    for (let i = 1; i <= 5; i++) await journal.append(record(i));
    journal.markProcessed([1, 2, 4]);
    expect(journal.stats()).toMatchObject({ checkpoint: 2, unprocessed: 2 });
    expect(journal.pendingThrough(3)).toBe(1);
    expect(journal.pendingThrough(5)).toBe(2);
    await journal.close();
    // 4 was processed after a gap: it is replayed too (the ingest ledger recognises it).
    const again = await openJournal(dir);
    expect(again.recovered.map((r) => r.seq)).toEqual([3, 4, 5]);
    await again.close();
  });

  it('cuts off a record torn by a crash and keeps appending after the intact ones', async () => {
    const journal = await openJournal(dir);
    for (let i = 1; i <= 3; i++) await journal.append(record(i));
    await journal.close();
    const [segment] = await segments();
    const file = path.join(dir, segment!);
    const size = (await stat(file)).size;
    await truncate(file, size - 3); // the third record lost its last bytes
    const logs: string[] = [];
    const again = await openJournal(dir, { log: (m) => logs.push(m) });
    expect(again.recovered.map((r) => r.seq)).toEqual([1, 2]);
    expect(logs.join('\n')).toMatch(/cut off/);
    expect((await stat(file)).size).toBe(
      encodeRecord({ seq: 1, ...record(1) }).length + encodeRecord({ seq: 2, ...record(2) }).length,
    );
    expect((await again.append(record(9))).seq).toBe(3);
    await again.close();
    const third = await openJournal(dir);
    expect(third.recovered.map((r) => [r.seq, r.payload.toString()])).toEqual([
      [1, '{"n":1}'],
      [2, '{"n":2}'],
      [3, '{"n":9}'],
    ]);
    await third.close();
  });

  it('stops at a record whose checksum does not match', async () => {
    const good = encodeRecord({ seq: 1, ...record(1) });
    const bad = encodeRecord({ seq: 2, ...record(2) });
    bad.writeUInt8(bad.readUInt8(bad.length - 1) ^ 0xff, bad.length - 1);
    expect(decodeRecords(Buffer.concat([good, bad]))).toMatchObject({
      records: [{ seq: 1 }],
      intactBytes: good.length,
    });
    expect(decodeRecords(Buffer.concat([good, good.subarray(0, 5)])).intactBytes).toBe(good.length);
  });

  it('removes segments whose records are all processed, and an empty torn segment', async () => {
    const journal = await openJournal(dir, { segmentBytes: 64, checkpointEveryMs: 1 });
    for (let i = 1; i <= 6; i++) await journal.append(record(i));
    expect((await segments()).length).toBeGreaterThan(2);
    journal.markProcessed([1, 2, 3, 4, 5, 6]);
    await journal.close();
    expect(await segments()).toHaveLength(1); // the last one, still open until close
    expect(JSON.parse(await readFile(path.join(dir, 'checkpoint.json'), 'utf8'))).toEqual({ processedThrough: 6 });
    await appendFile(path.join(dir, 'segment-0000000000000099.log'), Buffer.from([1, 2, 3]));
    const again = await openJournal(dir);
    expect(again.recovered).toEqual([]);
    expect(await segments()).toEqual([]);
    expect((await again.append(record(7))).seq).toBe(7);
    await again.close();
  });

  it('flushes the appends of one turn of the event loop together', async () => {
    const journal = await openJournal(dir);
    await Promise.all(Array.from({ length: 200 }, (_, i) => journal.append(record(i))));
    expect(journal.stats().flushes).toBe(1);
    expect(journal.stats().unprocessed).toBe(200);
    await journal.close();
    await expect(journal.append(record(1))).rejects.toThrow(/closed/);
  });
});
