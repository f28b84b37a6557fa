// Local dead letter: one JSON file per refused message under <dir>/date=YYYY-MM-DD/ (the day the
// hub received it), named <receivedAt>-<REASON>-<id>.json after the entry's stable id, so the
// same refusal written twice (a retried batch, a replayed journal) stays one entry, and names
// sort in time order. Each file is written
// atomically (atomic-file.ts: temporary name, fsync, rename, folder fsync), so a crash never
// leaves an empty or half-written entry; the entries of one call are flushed together. Read
// back by dead-letter-store.ts.
import path from 'node:path';
import type { DeadLetter, DeadLetterEntry } from '../../ingest/ports';
import { writeFilesAtomically } from './atomic-file';

/** `date=YYYY-MM-DD/<time>-<REASON>-<id>.json`, relative to the dead-letter folder. */
export function deadLetterFileId(entry: DeadLetterEntry): string {
  const at = entry.receivedAt ?? entry.time;
  return `date=${at.slice(0, 10)}/${at.replace(/[:.]/g, '-')}-${entry.reason}-${entry.id}.json`;
}

export function fileDeadLetter(dir: string): DeadLetter {
  return {
    async put(entries: readonly DeadLetterEntry[]): Promise<void> {
      if (entries.length === 0) return;
      // One file per id, even if a batch names the same refusal twice.
      const files = new Map(entries.map((entry) => [deadLetterFileId(entry), `${JSON.stringify(entry, null, 2)}\n`]));
      await writeFilesAtomically([...files].map(([id, content]) => ({ path: path.join(dir, id), content })));
    },
  };
}
