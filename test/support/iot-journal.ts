// What the local broker's journal (infra/local/iot/journal.ts) says about a stack's data folder,
// read from outside the stack: whether every message it acknowledged has been processed (stored
// or dead-lettered). A test that waits for ingest to end waits on this instead of on a quiet
// spell of stored counts, which on a loaded machine is no sign that processing has finished.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeRecords } from '../../infra/local/iot/journal';

/** The highest sequence number in the journal's segments and the checkpoint (every seq at or below it processed). */
export async function journalProgress(dataDir: string): Promise<{ lastSeq: number; processedThrough: number }> {
  const dir = path.join(dataDir, 'iot-journal');
  // Segments first: one wholly processed may be deleted once the checkpoint covers it, so a
  // checkpoint read afterwards is never older than the segments seen.
  let lastSeq = 0;
  for (const name of await readdir(dir).catch(() => [])) {
    if (!/^segment-\d+\.log$/.test(name)) continue;
    const buffer = await readFile(path.join(dir, name)).catch(() => Buffer.alloc(0));
    lastSeq = Math.max(lastSeq, decodeRecords(buffer).records.at(-1)?.seq ?? 0);
  }
  const checkpoint = await readFile(path.join(dir, 'checkpoint.json'), 'utf8').catch(() => '{}');
  const processedThrough = Number((JSON.parse(checkpoint) as { processedThrough?: unknown }).processedThrough ?? 0);
  return { lastSeq, processedThrough };
}

/**
 * True when every message in the journal is processed. Only meaningful once nothing is being
 * published any more (a message acknowledged later is not counted).
 */
export async function journalDrained(dataDir: string): Promise<boolean> {
  const { lastSeq, processedThrough } = await journalProgress(dataDir);
  return processedThrough >= lastSeq;
}
