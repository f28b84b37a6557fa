// The local dead letter on real files: atomic entries (no empty or half-written file under a final
// name), listing in pages with filters, and marking entries replayed.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileDeadLetter } from '../../../lib/adapters/files/dead-letter';
import { fileDeadLetterStore } from '../../../lib/adapters/files/dead-letter-store';
import { listAll } from '../../../lib/ingest/replay';
import type { DeadLetterEntry, DeadLetterReason } from '../../../lib/ingest/ports';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dead-letter-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const entry = (i: number, reason: DeadLetterReason = 'NOT_JSON', day = '2026-01-02'): DeadLetterEntry => ({
  id: `id-${i}`,
  reason,
  message: `entry ${i}`,
  details: [],
  time: `${day}T00:00:${String(i).padStart(2, '0')}.000Z`,
  payloadBase64: Buffer.from(`payload ${i}`).toString('base64'),
  source: { agentId: 'a1' },
});

async function allFiles(root: string): Promise<string[]> {
  const found = await readdir(root, { recursive: true, withFileTypes: true });
  return found
    .filter((f) => f.isFile())
    .map((f) => path.relative(root, path.join(f.parentPath, f.name)))
    .sort();
}

describe('file dead letter (writer)', () => {
  it('writes each entry as a complete JSON file under date=, leaving no temporary file', async () => {
    const writer = fileDeadLetter(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => writer.put([entry(i, 'NOT_JSON', i % 2 ? '2026-01-02' : '2026-01-03')])),
    );
    const files = await allFiles(dir);
    expect(files).toHaveLength(20);
    expect(
      files.every((f) => /^date=2026-01-0[23]\/2026-01-0[23]T00-00-\d\d-000Z-NOT_JSON-id-\d+\.json$/.test(f)),
    ).toBe(true);
    const parsed = await Promise.all(
      files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as DeadLetterEntry),
    );
    expect(parsed.map((p) => p.message).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `entry ${i}`).sort());
  });
});

describe('file dead-letter store', () => {
  it('lists in pages in day and time order, without repeating or skipping an entry', async () => {
    await fileDeadLetter(dir).put([
      entry(3, 'NOT_JSON', '2026-01-03'),
      entry(1),
      entry(2, 'UNKNOWN_AGENT'),
      entry(4),
      entry(5, 'UNKNOWN_AGENT', '2026-01-04'),
    ]);
    const store = fileDeadLetterStore(dir);
    const pages: string[][] = [];
    let after: string | undefined;
    do {
      const page = await store.list({}, { ...(after ? { after } : {}), limit: 2 });
      pages.push(page.items.map((i) => i.entry.message));
      after = page.next;
    } while (after);
    expect(pages.flat()).toEqual(['entry 1', 'entry 2', 'entry 4', 'entry 3', 'entry 5']);
    expect(pages[0]).toHaveLength(2);
  });

  it('filters by reason and by time range', async () => {
    await fileDeadLetter(dir).put([
      entry(1),
      entry(2, 'UNKNOWN_AGENT'),
      entry(3, 'NOT_JSON', '2026-01-03'),
      entry(4, 'UNKNOWN_AGENT', '2026-01-04'),
    ]);
    const store = fileDeadLetterStore(dir);
    expect((await listAll(store, { reason: 'UNKNOWN_AGENT' })).items.map((i) => i.entry.message)).toEqual([
      'entry 2',
      'entry 4',
    ]);
    const range = { from: new Date('2026-01-02T00:00:02Z'), to: new Date('2026-01-04T00:00:00Z') };
    expect((await listAll(store, range)).items.map((i) => i.entry.message)).toEqual(['entry 2', 'entry 3']);
  });

  it('skips files still being written and reports a damaged one instead of failing', async () => {
    await fileDeadLetter(dir).put([entry(1)]);
    const folder = path.join(dir, 'date=2026-01-02');
    await writeFile(path.join(folder, '.2026-01-02T00-00-09-000Z-NOT_JSON-x.json.1234abcd.tmp'), '{"reason":');
    await writeFile(
      path.join(folder, '2026-01-02T00-00-08-000Z-NOT_JSON-00000000-0000-4000-8000-000000000000.json'),
      '',
    );
    const page = await fileDeadLetterStore(dir).list({});
    expect(page.items.map((i) => i.entry.message)).toEqual(['entry 1']);
    expect(page.unreadable).toEqual([
      'date=2026-01-02/2026-01-02T00-00-08-000Z-NOT_JSON-00000000-0000-4000-8000-000000000000.json',
    ]);
  });

  it('refuses ids that are not dead-letter ids (no way out of the folder)', async () => {
    const store = fileDeadLetterStore(dir);
    for (const id of [
      '../secret.json',
      'date=2026-01-02/../../x.json',
      '/etc/passwd',
      'replayed/date=2026-01-02/x.json',
      'date=2026-01-02/.x.json.tmp',
    ]) {
      await expect(store.get(id), id).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    await expect(store.get('date=2026-01-02/missing.json')).resolves.toBeUndefined();
  });

  it('moves a replayed entry to replayed/ under the same name with its outcome; marking again changes nothing', async () => {
    await fileDeadLetter(dir).put([entry(1), entry(2)]);
    const store = fileDeadLetterStore(dir);
    const [first] = (await store.list({})).items;
    const record = { status: 'stored' as const, messageId: 'm-1', replayedAt: '2026-02-01T00:00:00.000Z' };
    await store.markReplayed(first!.id, record);
    await store.markReplayed(first!.id, { ...record, replayedAt: '2026-02-02T00:00:00.000Z' });
    expect((await store.list({})).items.map((i) => i.entry.message)).toEqual(['entry 2']);
    await expect(store.get(first!.id)).resolves.toBeUndefined();
    const moved = JSON.parse(await readFile(path.join(dir, 'replayed', first!.id), 'utf8')) as DeadLetterEntry & {
      replay: unknown;
    };
    expect(moved).toMatchObject({ message: 'entry 1', reason: 'NOT_JSON', replay: record });
    await expect(store.markReplayed('date=2026-01-02/none.json', record)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists nothing from a folder that does not exist yet', async () => {
    await mkdir(path.join(dir, 'replayed'), { recursive: true });
    expect(await fileDeadLetterStore(path.join(dir, 'nothing-here')).list({})).toEqual({ items: [], unreadable: [] });
  });
});
