// Local data lake: NDJSON lines (lib/ingest/lake-line.ts) in the deployed layout
// customer=/plant=/date=/, one file per
// process and hour so appends from one writer never interleave with another's.
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { NO_PLANT, lakeLine } from '../../ingest/lake-line';
import type { DataLake, LakeRecord } from '../../ingest/ports';

const safe = (value: string): string => encodeURIComponent(value || NO_PLANT);

export function fileDataLake(dir: string): DataLake {
  return {
    async put(records: readonly LakeRecord[]): Promise<void> {
      const byFile = new Map<string, string[]>();
      for (const r of records) {
        const folder = path.join(dir, `customer=${safe(r.customerId)}`, `plant=${safe(r.plantId)}`, `date=${r.date}`);
        const file = path.join(folder, `part-${process.pid}-${new Date().toISOString().slice(11, 13)}.ndjson`);
        const lines = byFile.get(file) ?? [];
        lines.push(lakeLine(r));
        byFile.set(file, lines);
      }
      for (const [file, lines] of byFile) {
        await mkdir(path.dirname(file), { recursive: true });
        await appendFile(file, `${lines.join('\n')}\n`);
      }
    },
  };
}
