// Local dead letter: one JSON file per refused message under <dir>/date=YYYY-MM-DD/, named
// <time>-<REASON>-<uuid>.json. Each file is written atomically (atomic-file.ts: temporary name,
// fsync, rename, folder fsync), so a crash never leaves an empty or half-written entry; the
// entries of one call are flushed together. Read back by dead-letter-store.ts.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { DeadLetter, DeadLetterEntry } from '../../ingest/ports';
import { writeFilesAtomically } from './atomic-file';

/** `date=YYYY-MM-DD/<time>-<REASON>-<uuid>.json`, relative to the dead-letter folder. */
export function deadLetterFileId(entry: DeadLetterEntry): string {
  return `date=${entry.time.slice(0, 10)}/${entry.time.replace(/[:.]/g, '-')}-${entry.reason}-${randomUUID()}.json`;
}

export function fileDeadLetter(dir: string): DeadLetter {
  return {
    async put(entries: readonly DeadLetterEntry[]): Promise<void> {
      if (entries.length === 0) return;
      await writeFilesAtomically(entries.map((entry) => ({ path: path.join(dir, deadLetterFileId(entry)), content: `${JSON.stringify(entry, null, 2)}\n` })));
    },
  };
}
