// Replaying dead-lettered messages: each selected entry's original message goes through the ingest
// function again as the IoT rule's event; then the entry is marked replayed with the outcome.
// Idempotent: the ingest ledger answers `duplicate` for a message stored before, and a replayed
// entry is no longer listed. Entries are selected before the first invocation, so a message that
// is dead-lettered again (a new entry) is not replayed twice in one run.
import { AppError } from '../core/errors';
import type { DeadLetterFilter, DeadLetterStore, IngestInvoker, ReplayOutcome, StoredDeadLetter } from './dead-letter';
import { ruleEventOf } from './dead-letter';

/** Every entry the filter selects, page by page (each page is reported for progress). */
export async function listAll(
  store: DeadLetterStore,
  filter: DeadLetterFilter,
  onPage?: (count: number) => void,
): Promise<{ items: StoredDeadLetter[]; unreadable: string[] }> {
  const items: StoredDeadLetter[] = [];
  const unreadable: string[] = [];
  let after: string | undefined;
  do {
    const page = await store.list(filter, { ...(after !== undefined ? { after } : {}), limit: 500 });
    items.push(...page.items);
    unreadable.push(...page.unreadable);
    onPage?.(items.length);
    after = page.next;
  } while (after !== undefined);
  return { items, unreadable };
}

/** @throws AppError NOT_FOUND naming the first id nothing is listed under. */
export async function getAll(store: DeadLetterStore, ids: readonly string[]): Promise<StoredDeadLetter[]> {
  const found: StoredDeadLetter[] = [];
  for (const id of new Set(ids)) {
    const entry = await store.get(id);
    if (!entry)
      throw new AppError(
        'NOT_FOUND',
        `no dead-letter entry "${id}" in ${store.location} (replayed already, or a wrong id: see dead-letter list)`,
        { id },
      );
    found.push(entry);
  }
  return found;
}

export interface ReplayedItem {
  readonly id: string;
  /** The reason it was dead-lettered for. */
  readonly reason: string;
  readonly outcome?: ReplayOutcome;
}

export interface ReplayReport {
  readonly dryRun: boolean;
  readonly selected: number;
  /** Replayed entries (dry run: the ones that would be). */
  readonly items: readonly ReplayedItem[];
  /** Why the run stopped early; the entries not reached stay in the dead letter. */
  readonly stopped?: { readonly id: string; readonly error: string };
}

export interface ReplayOptions {
  readonly dryRun?: boolean;
  /** Invocations at once (default 4). */
  readonly concurrency?: number;
  readonly now: () => Date;
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Replays the entries in order, a few at a time. The first failure to invoke (the function
 * unreachable, or failing because a dependency is down: bad input never makes it fail) stops the
 * run: entries under way finish, no new one starts, and the failure is reported.
 */
export async function replayEntries(
  entries: readonly StoredDeadLetter[],
  deps: { readonly store: DeadLetterStore; readonly invoker: IngestInvoker },
  options: ReplayOptions,
): Promise<ReplayReport> {
  if (options.dryRun)
    return {
      dryRun: true,
      selected: entries.length,
      items: entries.map((e) => ({ id: e.id, reason: e.entry.reason })),
    };
  const results: (ReplayedItem | undefined)[] = new Array<ReplayedItem | undefined>(entries.length);
  let next = 0;
  let done = 0;
  let stopped: { id: string; error: string } | undefined;
  const worker = async (): Promise<void> => {
    while (stopped === undefined && next < entries.length) {
      const index = next++;
      const { id, entry } = entries[index]!;
      try {
        const outcome = await deps.invoker.invoke(ruleEventOf(entry));
        await deps.store.markReplayed(id, { ...outcome, replayedAt: options.now().toISOString() });
        results[index] = { id, reason: entry.reason, outcome };
      } catch (error) {
        stopped ??= { id, error: error instanceof Error ? error.message : String(error) };
      }
      options.onProgress?.(++done, entries.length);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, entries.length));
  await Promise.all(Array.from({ length: workers }, worker));
  const items = results.filter((r): r is ReplayedItem => r !== undefined);
  return { dryRun: false, selected: entries.length, items, ...(stopped ? { stopped } : {}) };
}
