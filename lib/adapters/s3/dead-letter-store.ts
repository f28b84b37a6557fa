// The deployed dead letter for operators (DeadLetterStore) on the dead-letter bucket. It reads
// - `dead-letter/date=YYYY-MM-DD/...`: the ingest's own entries and the IoT rule's error action;
// - `aws/lambda/async/<ingest function>/YYYY/MM/DD/...`: Lambda's on-failure records of the
//   ingest function (the key layout Lambda documents for S3 destinations).
// Both are listed in key order (ListObjectsV2, paged); a time range skips to the partition of the
// day before its first (StartAfter) and stops after the day after its last. A replayed object is copied to `replayed/<key>` with the
// outcome as object metadata, then deleted. The SDK retries throttling and server errors (sdk-config.ts).
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
} from '@aws-sdk/client-s3';
import { AppError } from '../../core/errors';
import {
  dayInRange,
  matchesFilter,
  type DeadLetterFilter,
  type DeadLetterPage,
  type DeadLetterStore,
  type ReplayRecord,
  type StoredDeadLetter,
} from '../../ingest/dead-letter';
import { parseStoredDeadLetter } from '../../ingest/dead-letter-formats';
import { sdkClientConfig } from '../sdk-config';

export const REPLAYED_PREFIX = 'replayed/';
const READS_AT_ONCE = 8;

interface Source {
  readonly prefix: string;
  /** The day partition a key is in (YYYY-MM-DD), if its layout shows it. */
  dayOf(key: string): string | undefined;
  /** The reason a key's name shows, if it shows one. */
  reasonOf(key: string): string | undefined;
}

const ownSource: Source = {
  prefix: 'dead-letter/',
  dayOf: (key) => /^dead-letter\/date=(\d{4}-\d{2}-\d{2})\//.exec(key)?.[1],
  // <time>-<REASON>-<uuid>.json (the ingest) or <REASON>-<uuid>.json (the rule's error action).
  reasonOf: (key) =>
    /(?:^|\/|-)([A-Z_]+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/.exec(key)?.[1],
};

function lambdaSource(functionName: string): Source {
  const prefix = `aws/lambda/async/${functionName}/`;
  return {
    prefix,
    dayOf: (key) => {
      const m = /^(\d{4})\/(\d{2})\/(\d{2})\//.exec(key.slice(prefix.length));
      return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
    },
    reasonOf: () => 'RULE_ACTION_FAILED',
  };
}

const DAY_MS = 86_400_000;

/**
 * The time range widened by a day each way, for choosing partitions by key: a key's day is when
 * the object was written, which can follow the entry's own time across midnight (an IoT error
 * action written a moment later, a Lambda record after hours of retries). Entries are then
 * matched on their own time.
 */
function keyRange(filter: DeadLetterFilter): DeadLetterFilter {
  return {
    ...(filter.from !== undefined ? { from: new Date(filter.from.getTime() - DAY_MS) } : {}),
    ...(filter.to !== undefined ? { to: new Date(filter.to.getTime() + DAY_MS) } : {}),
  };
}

/** The first key of a source's day partition for the range's first day, to start listing after. */
function startAfter(source: Source, range: DeadLetterFilter): string | undefined {
  if (range.from === undefined) return undefined;
  const day = range.from.toISOString().slice(0, 10);
  return source === ownSource ? `dead-letter/date=${day}` : `${source.prefix}${day.replaceAll('-', '/')}`;
}

/** CopySource is `<bucket>/<key>` with each key segment URL-encoded. */
export function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

export function replayMetadata(record: ReplayRecord): Record<string, string> {
  // User metadata travels as HTTP headers: ASCII only, so free text is URL-encoded.
  return {
    'replay-status': record.status,
    'replayed-at': record.replayedAt,
    ...(record.reason !== undefined ? { 'replay-reason': encodeURIComponent(record.reason) } : {}),
    ...(record.messageId !== undefined ? { 'replay-message-id': encodeURIComponent(record.messageId) } : {}),
  };
}

export interface S3DeadLetterStoreOptions {
  readonly bucket: string;
  /** The ingest function's name, whose Lambda on-failure records are read too. */
  readonly ingestFunctionName?: string;
  readonly client?: S3Client;
}

export function s3DeadLetterStore(options: S3DeadLetterStoreOptions): DeadLetterStore {
  const { bucket } = options;
  const client = options.client ?? new S3Client(sdkClientConfig({}));
  const sources = [ownSource, ...(options.ingestFunctionName ? [lambdaSource(options.ingestFunctionName)] : [])].sort(
    (a, b) => (a.prefix < b.prefix ? -1 : 1),
  );

  function sourceOf(id: string): Source {
    const source = sources.find((s) => id.startsWith(s.prefix) && id.length > s.prefix.length);
    if (!source)
      throw new AppError(
        'INVALID_INPUT',
        `"${id}" is not a dead-letter key (keys start with ${sources.map((s) => s.prefix).join(' or ')}; see dead-letter list)`,
        { id },
      );
    return source;
  }

  /** @returns undefined when the object is gone; a `null` entry when it is not a dead-letter entry. */
  async function read(key: string): Promise<{ key: string; entry: StoredDeadLetter['entry'] | null } | undefined> {
    try {
      const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const text = (await out.Body?.transformToString()) ?? '';
      return { key, entry: parseStoredDeadLetter(text, out.LastModified ?? new Date(0)) ?? null };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  return {
    location: `s3://${bucket}`,

    async list(filter: DeadLetterFilter, page = {}): Promise<DeadLetterPage> {
      const limit = page.limit ?? 100;
      const items: StoredDeadLetter[] = [];
      const unreadable: string[] = [];
      for (const source of sources) {
        const after = page.after;
        if (after !== undefined && after > source.prefix && !after.startsWith(source.prefix)) continue;
        const range = keyRange(filter);
        const start = [after, startAfter(source, range)]
          .filter((k): k is string => k !== undefined && k.startsWith(source.prefix))
          .sort()
          .pop();
        let token: string | undefined;
        let pastRange = false;
        do {
          const request = {
            Bucket: bucket,
            Prefix: source.prefix,
            ...(token !== undefined ? { ContinuationToken: token } : start !== undefined ? { StartAfter: start } : {}),
          };
          const out = await client.send(new ListObjectsV2Command(request));
          const candidates: string[] = [];
          for (const object of out.Contents ?? []) {
            const key = object.Key;
            // StartAfter already skips these; kept so that a page never repeats an entry.
            if (key === undefined || (after !== undefined && key <= after)) continue;
            const day = source.dayOf(key);
            if (day !== undefined && !dayInRange(day, range)) {
              if (range.to !== undefined && day > new Date(range.to.getTime() - 1).toISOString().slice(0, 10))
                pastRange = true;
              continue;
            }
            const named = source.reasonOf(key);
            if (filter.reason !== undefined && named !== undefined && named !== filter.reason) continue;
            candidates.push(key);
          }
          for (let i = 0; i < candidates.length; i += READS_AT_ONCE) {
            const read_ = await Promise.all(candidates.slice(i, i + READS_AT_ONCE).map(read));
            for (const found of read_) {
              if (found === undefined) continue;
              if (found.entry === null) {
                unreadable.push(found.key);
                continue;
              }
              if (!matchesFilter(found.entry, filter)) continue;
              items.push({ id: found.key, entry: found.entry });
              if (items.length >= limit) return { items, unreadable, next: found.key };
            }
          }
          token = out.IsTruncated && !pastRange ? out.NextContinuationToken : undefined;
        } while (token !== undefined);
      }
      return { items, unreadable };
    },

    async get(id: string): Promise<StoredDeadLetter | undefined> {
      sourceOf(id);
      const found = await read(id);
      if (found === undefined) return undefined;
      if (found.entry === null)
        throw new AppError('INVALID_INPUT', `s3://${bucket}/${id} is not a dead-letter entry of a known shape`, { id });
      return { id, entry: found.entry };
    },

    async markReplayed(id: string, record: ReplayRecord): Promise<void> {
      sourceOf(id);
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: `${REPLAYED_PREFIX}${id}`,
            CopySource: copySource(bucket, id),
            MetadataDirective: 'REPLACE',
            ContentType: 'application/json',
            Metadata: replayMetadata(record),
          }),
        );
      } catch (error) {
        // Copied and deleted by an earlier run that stopped before reporting: nothing left to do.
        if ((error as { name?: string }).name === 'NoSuchKey') return;
        throw error;
      }
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: id }));
    },
  };
}
