// The local dead letter for operators (DeadLetterStore): lists <dir>/date=YYYY-MM-DD/*.json in
// name order (day, then time), skipping files still being written; a replayed entry moves to
// <dir>/replayed/date=.../<same name> with a `replay` field holding the outcome.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
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
import { isTemporaryName, syncFolder, writeFilesAtomically } from './atomic-file';

const DAY_FOLDER = /^date=(\d{4}-\d{2}-\d{2})$/;
const ENTRY_ID = /^date=\d{4}-\d{2}-\d{2}\/[^/\\]+\.json$/;
/** `<time>-<REASON>-<uuid>.json`: the reason can be read from the name without opening the file. */
const NAMED_REASON = /-([A-Z_]+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/;

const READS_AT_ONCE = 16;

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

async function names(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

export function fileDeadLetterStore(dir: string): DeadLetterStore {
  const root = path.resolve(dir);

  function checkedId(id: string): string {
    if (!ENTRY_ID.test(id) || isTemporaryName(path.basename(id))) {
      throw new AppError(
        'INVALID_INPUT',
        `"${id}" is not a dead-letter id (ids look like date=2026-01-31/<file>.json; see dead-letter list)`,
        { id },
      );
    }
    return path.join(root, id);
  }

  /** @returns undefined when the file is gone; `null` entry when it is not a dead-letter entry. */
  async function read(
    id: string,
    file: string,
  ): Promise<{ id: string; entry: StoredDeadLetter['entry'] | null } | undefined> {
    try {
      const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
      return { id, entry: parseStoredDeadLetter(text, info.mtime) ?? null };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  return {
    location: root,

    async list(filter: DeadLetterFilter, page = {}): Promise<DeadLetterPage> {
      const limit = page.limit ?? 100;
      const items: StoredDeadLetter[] = [];
      const unreadable: string[] = [];
      for (const folder of await names(root)) {
        const day = DAY_FOLDER.exec(folder)?.[1];
        if (day === undefined || !dayInRange(day, filter)) continue;
        if (page.after !== undefined && `${folder}/\uffff` <= page.after) continue;
        const candidates = (await names(path.join(root, folder))).filter((name) => {
          const id = `${folder}/${name}`;
          if (isTemporaryName(name) || !name.endsWith('.json') || (page.after !== undefined && id <= page.after))
            return false;
          const named = NAMED_REASON.exec(name)?.[1];
          return filter.reason === undefined || named === undefined || named === filter.reason;
        });
        for (let i = 0; i < candidates.length; i += READS_AT_ONCE) {
          const chunk = candidates.slice(i, i + READS_AT_ONCE);
          const read_ = await Promise.all(
            chunk.map((name) => read(`${folder}/${name}`, path.join(root, folder, name))),
          );
          for (const found of read_) {
            if (found === undefined) continue;
            if (found.entry === null) {
              unreadable.push(found.id);
              continue;
            }
            if (!matchesFilter(found.entry, filter)) continue;
            items.push({ id: found.id, entry: found.entry });
            if (items.length >= limit) return { items, unreadable, next: found.id };
          }
        }
      }
      return { items, unreadable };
    },

    async get(id: string): Promise<StoredDeadLetter | undefined> {
      const found = await read(id, checkedId(id));
      if (found === undefined) return undefined;
      if (found.entry === null)
        throw new AppError('INVALID_INPUT', `${path.join(root, id)} is not a dead-letter entry of a known shape`, {
          id,
        });
      return { id, entry: found.entry };
    },

    async markReplayed(id: string, record: ReplayRecord): Promise<void> {
      const file = checkedId(id);
      const target = path.join(root, 'replayed', id);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        // Marked before, and the run stopped before it could say so: nothing left to do.
        if (
          isMissing(error) &&
          (await stat(target).then(
            () => true,
            () => false,
          ))
        )
          return;
        if (isMissing(error)) throw new AppError('NOT_FOUND', `no dead-letter entry "${id}" in ${root}`, { id });
        throw error;
      }
      const original = JSON.parse(text) as Record<string, unknown>;
      await writeFilesAtomically([
        { path: target, content: `${JSON.stringify({ ...original, replay: record }, null, 2)}\n` },
      ]);
      await rm(file, { force: true });
      await syncFolder(path.dirname(file));
    },
  };
}
