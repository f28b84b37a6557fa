// Local dead letter: one JSON file per refused message under <dir>/date=YYYY-MM-DD/.
// Written with a unique name in one call, so concurrent writers never interleave.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DeadLetter, DeadLetterEntry } from '../../ingest/ports';

export function fileDeadLetter(dir: string): DeadLetter {
  return {
    async put(entries: readonly DeadLetterEntry[]): Promise<void> {
      for (const entry of entries) {
        const folder = path.join(dir, `date=${entry.time.slice(0, 10)}`);
        await mkdir(folder, { recursive: true });
        const name = `${entry.time.replace(/[:.]/g, '-')}-${entry.reason}-${randomUUID()}.json`;
        await writeFile(path.join(folder, name), `${JSON.stringify(entry, null, 2)}\n`, { flag: 'wx' });
      }
    },
  };
}
