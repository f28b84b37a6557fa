// Local dead letter: one JSON file per refused message under <dir>/date=YYYY-MM-DD/, named by the
// entry's stable id, so the same refusal written twice (a retried batch) stays one file.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DeadLetter, DeadLetterEntry } from '../../ingest/ports';

/** Folder and file name of an entry: the day the hub received it (else the refusal's), reason, id. */
export function deadLetterPath(entry: DeadLetterEntry): { folder: string; name: string } {
  return { folder: `date=${(entry.receivedAt ?? entry.time).slice(0, 10)}`, name: `${entry.reason}-${entry.id}.json` };
}

export function fileDeadLetter(dir: string): DeadLetter {
  return {
    async put(entries: readonly DeadLetterEntry[]): Promise<void> {
      for (const entry of entries) {
        const { folder, name } = deadLetterPath(entry);
        await mkdir(path.join(dir, folder), { recursive: true });
        try {
          await writeFile(path.join(dir, folder, name), `${JSON.stringify(entry, null, 2)}\n`, { flag: 'wx' });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
      }
    },
  };
}
