// The local broker's write-ahead journal: every message the broker acknowledges is on disk
// first. Records are appended to segment files and fsync'd in groups (one fdatasync covers every
// record that arrived while the previous one ran), so acknowledging costs one disk flush per
// group, not per message. A checkpoint file names the highest sequence number below which every
// record was processed; segments wholly below it are deleted. On open, a torn record at the end
// of the last segment (a crash mid-write) is cut off, and every record past the checkpoint is
// handed back for processing: a restart replays what was acknowledged but not processed.
//
// Record layout: u32 LE body length, u32 LE CRC-32 of the body, body = JSON header line + "\n" +
// payload bytes. Header: {"s": seq, "t": topic, "c": clientId, "r": receivedAt (ms)}.
import { mkdir, open, readdir, readFile, rename, rm, truncate, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';

export interface JournalRecord {
  readonly seq: number;
  readonly topic: string;
  readonly clientId: string;
  /** When the broker received it (ms since the epoch). */
  readonly receivedAt: number;
  readonly payload: Buffer;
}

export type NewRecord = Omit<JournalRecord, 'seq'>;

export interface JournalStats {
  /** Records appended and not yet marked processed. */
  readonly unprocessed: number;
  readonly segments: number;
  /** Every record with a seq at or below this one is processed. */
  readonly checkpoint: number;
  /** Disk flushes so far (each covers a group of appends). */
  readonly flushes: number;
}

export interface Journal {
  /** Records found unprocessed when the journal was opened, oldest first. */
  readonly recovered: readonly JournalRecord[];
  /** Appends a record; resolves once it is on disk. @throws when the disk write fails. */
  append(record: NewRecord): Promise<JournalRecord>;
  /** Marks records processed (in any order); the checkpoint moves over contiguous ones. */
  markProcessed(seqs: Iterable<number>): void;
  /** How many records up to and including `seq` are not processed yet (its place in the backlog). */
  pendingThrough(seq: number): number;
  stats(): JournalStats;
  /** Writes the checkpoint, closes the segment. Appends after close fail. */
  close(): Promise<void>;
}

export interface JournalOptions {
  /** A new segment starts once the current one is larger (default 8 MiB). */
  readonly segmentBytes?: number;
  /** The checkpoint file is rewritten at most this often while records are processed (default 200 ms). */
  readonly checkpointEveryMs?: number;
  readonly log?: (message: string) => void;
}

const HEADER_BYTES = 8;
const CHECKPOINT = 'checkpoint.json';
const segmentName = (firstSeq: number) => `segment-${String(firstSeq).padStart(16, '0')}.log`;
const SEGMENT = /^segment-(\d{16})\.log$/;

interface Segment {
  readonly file: string;
  readonly firstSeq: number;
  lastSeq: number;
  bytes: number;
}

export function encodeRecord(record: JournalRecord): Buffer {
  const header = Buffer.from(
    `${JSON.stringify({ s: record.seq, t: record.topic, c: record.clientId, r: record.receivedAt })}\n`,
  );
  const body = Buffer.concat([header, record.payload]);
  const prefix = Buffer.alloc(HEADER_BYTES);
  prefix.writeUInt32LE(body.length, 0);
  prefix.writeUInt32LE(crc32(body), 4);
  return Buffer.concat([prefix, body]);
}

/**
 * Decodes the records of one segment. @returns the records and the length of the intact prefix
 * (shorter than the buffer when the last record is torn or corrupt).
 */
export function decodeRecords(buffer: Buffer): { records: JournalRecord[]; intactBytes: number } {
  const records: JournalRecord[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= buffer.length) {
    const length = buffer.readUInt32LE(offset);
    const end = offset + HEADER_BYTES + length;
    if (end > buffer.length) break;
    const body = buffer.subarray(offset + HEADER_BYTES, end);
    if (crc32(body) !== buffer.readUInt32LE(offset + 4)) break;
    const newline = body.indexOf(10);
    if (newline < 0) break;
    let header: { s: number; t: string; c: string; r: number };
    try {
      header = JSON.parse(body.subarray(0, newline).toString('utf8')) as typeof header;
    } catch {
      break;
    }
    records.push({
      seq: header.s,
      topic: header.t,
      clientId: header.c,
      receivedAt: header.r,
      payload: Buffer.from(body.subarray(newline + 1)),
    });
    offset = end;
  }
  return { records, intactBytes: offset };
}

async function readCheckpoint(dir: string): Promise<number> {
  try {
    const value = (JSON.parse(await readFile(path.join(dir, CHECKPOINT), 'utf8')) as { processedThrough?: unknown })
      .processedThrough;
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
  } catch {
    return 0;
  }
}

export async function openJournal(dir: string, options: JournalOptions = {}): Promise<Journal> {
  const segmentBytes = options.segmentBytes ?? 8 * 1024 * 1024;
  const checkpointEveryMs = options.checkpointEveryMs ?? 200;
  const log = options.log ?? (() => undefined);
  await mkdir(dir, { recursive: true });

  // Recovery: every record past the checkpoint, oldest first; a torn tail is cut off.
  let checkpoint = await readCheckpoint(dir);
  const segments: Segment[] = [];
  const recovered: JournalRecord[] = [];
  const names = (await readdir(dir)).filter((n) => SEGMENT.test(n)).sort();
  for (const [i, name] of names.entries()) {
    const file = path.join(dir, name);
    const buffer = await readFile(file);
    const { records, intactBytes } = decodeRecords(buffer);
    if (intactBytes < buffer.length) {
      log(
        `journal ${name}: ${buffer.length - intactBytes} byte(s) after the last intact record ${i === names.length - 1 ? 'cut off (a write interrupted by a crash)' : 'ignored'}`,
      );
      if (i === names.length - 1) await truncate(file, intactBytes);
    }
    if (records.length === 0) {
      await rm(file, { force: true });
      continue;
    }
    const firstSeq = Number(SEGMENT.exec(name)?.[1]);
    segments.push({ file, firstSeq, lastSeq: records.at(-1)!.seq, bytes: intactBytes });
    for (const record of records) if (record.seq > checkpoint) recovered.push(record);
  }
  let nextSeq = Math.max(checkpoint, ...segments.map((s) => s.lastSeq)) + 1;

  const done = new Set<number>();
  let unprocessed = recovered.length;
  let handle: FileHandle | undefined;
  let active: Segment | undefined;
  let closed = false;
  let queue: {
    buffer: Buffer;
    record: JournalRecord;
    resolve: (r: JournalRecord) => void;
    reject: (e: Error) => void;
  }[] = [];
  let flushing: Promise<void> | undefined;
  let checkpointTimer: NodeJS.Timeout | undefined;
  let checkpointWrite: Promise<void> = Promise.resolve();
  let flushes = 0;

  const removeProcessedSegments = async (): Promise<void> => {
    for (const segment of [...segments]) {
      if (segment === active || segment.lastSeq > checkpoint) continue;
      segments.splice(segments.indexOf(segment), 1);
      await rm(segment.file, { force: true });
    }
  };

  const writeCheckpoint = (): Promise<void> => {
    checkpointWrite = checkpointWrite.then(async () => {
      const tmp = path.join(dir, `${CHECKPOINT}.tmp`);
      await writeFile(tmp, JSON.stringify({ processedThrough: checkpoint }));
      await rename(tmp, path.join(dir, CHECKPOINT));
      await removeProcessedSegments();
    });
    return checkpointWrite.catch((error: Error) => log(`journal checkpoint not written: ${error.message}`));
  };

  const startSegment = async (firstSeq: number): Promise<void> => {
    await handle?.close();
    active = { file: path.join(dir, segmentName(firstSeq)), firstSeq, lastSeq: firstSeq - 1, bytes: 0 };
    segments.push(active);
    handle = await open(active.file, 'a');
  };

  /** Group commit: everything queued is written and flushed together; new appends wait for the next group. */
  const flush = async (): Promise<void> => {
    while (queue.length > 0) {
      const group = queue;
      queue = [];
      try {
        if (!handle || !active || active.bytes >= segmentBytes) await startSegment(group[0]!.record.seq);
        const buffer = Buffer.concat(group.map((g) => g.buffer));
        await handle!.write(buffer);
        await handle!.datasync();
        flushes++;
        active!.bytes += buffer.length;
        active!.lastSeq = group.at(-1)!.record.seq;
        unprocessed += group.length;
        for (const g of group) g.resolve(g.record);
      } catch (error) {
        // Not on disk: the publisher is refused and sends again. Their numbers count as
        // processed, so the checkpoint does not stop at the gap.
        unprocessed += group.length;
        markProcessed(group.map((g) => g.record.seq));
        for (const g of group) g.reject(error as Error);
      }
    }
  };

  function markProcessed(seqs: Iterable<number>): void {
    for (const seq of seqs) {
      if (seq <= checkpoint || done.has(seq)) continue;
      done.add(seq);
      unprocessed--;
    }
    const before = checkpoint;
    while (done.delete(checkpoint + 1)) checkpoint++;
    if (checkpoint !== before && !checkpointTimer && !closed) {
      checkpointTimer = setTimeout(() => {
        checkpointTimer = undefined;
        void writeCheckpoint();
      }, checkpointEveryMs);
    }
  }

  function scheduleFlush(): void {
    if (flushing) return;
    // setImmediate: appends of the same turn of the event loop join one group.
    flushing = new Promise<void>((r) => setImmediate(r)).then(flush).finally(() => {
      flushing = undefined;
      if (queue.length > 0) scheduleFlush();
    });
  }

  await removeProcessedSegments();

  return {
    recovered,
    append(input) {
      if (closed) return Promise.reject(new Error('the journal is closed'));
      const record: JournalRecord = { ...input, seq: nextSeq++ };
      return new Promise<JournalRecord>((resolve, reject) => {
        queue.push({ buffer: encodeRecord(record), record, resolve, reject });
        scheduleFlush();
      });
    },
    markProcessed,
    pendingThrough(seq) {
      let doneBelow = 0;
      for (const d of done) if (d <= seq) doneBelow++;
      return Math.max(0, seq - checkpoint - doneBelow);
    },
    stats: () => ({ unprocessed, segments: segments.length, checkpoint, flushes }),
    async close() {
      if (closed) return;
      closed = true;
      while (flushing) await flushing;
      if (checkpointTimer) clearTimeout(checkpointTimer);
      checkpointTimer = undefined;
      await writeCheckpoint();
      await handle?.close();
      handle = undefined;
    },
  };
}
