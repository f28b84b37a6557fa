// The first pass of a query whose columns come from the data (evaluate bag_unpack or pivot without
// an output schema, lib/query/discovery.ts): each discovery SQL runs on the engine inside the
// query's own place, time limit and abort signal, its rows are collected (bounded in rows by the
// compiler's SQL and in bytes here), and the query is compiled again with the keys found, until
// it needs no more keys.
import { AppError } from '../core/errors';
import { MAX_DISCOVERED_KEYS, type CompilePlan, type CompiledQuery, type DiscoveredKey } from '../query';
import type { QuerySignal } from './abort';
import type { QueryEngine, RowSink } from './ports';

type Discovery = CompilePlan & { kind: 'discover' };

/** Bytes the keys of one discovery may take (each key becomes a column name of the answer). */
export const MAX_DISCOVERY_BYTES = 1_000_000;

/**
 * Runs the discoveries of `plan` and returns the query compiled with their keys.
 * @throws what the engine throws (signal.reason at the time limit); what `recompile` throws (the
 * compiler's 400s, too many keys included); AppError QUERY_RESULT_TOO_LARGE when the keys take
 * more than MAX_DISCOVERY_BYTES.
 */
export async function discoverKeys(
  plan: Discovery,
  recompile: (found: readonly (readonly DiscoveredKey[])[]) => CompilePlan,
  read: (plan: Discovery, rows: readonly unknown[][]) => readonly DiscoveredKey[],
  engine: QueryEngine,
  signal: QuerySignal,
): Promise<CompiledQuery> {
  const found: (readonly DiscoveredKey[])[] = [];
  let next: CompilePlan = plan;
  while (next.kind === 'discover') {
    signal.throwIfAborted();
    const sink = new KeySink();
    await engine.run(
      next.sql,
      next.columns.map((c) => c.type),
      sink,
      { signal },
    );
    if (sink.overflow)
      throw new AppError(
        'QUERY_RESULT_TOO_LARGE',
        `the keys found for the plugin's columns take more than ${MAX_DISCOVERY_BYTES} bytes; give its output schema`,
      );
    found.push(read(next, sink.rows));
    next = recompile(found);
  }
  signal.throwIfAborted();
  return next.query;
}

/** Collects a discovery's rows: one more than the compiler's bound, so that read() sees it is over. */
class KeySink implements RowSink {
  readonly rows: unknown[][] = [];
  overflow = false;
  private bytes = 0;

  get remainingBytes(): number {
    return MAX_DISCOVERY_BYTES - this.bytes;
  }

  push(row: unknown[]): boolean {
    this.bytes += JSON.stringify(row).length;
    if (this.bytes > MAX_DISCOVERY_BYTES) {
      this.overflow = true;
      return false;
    }
    this.rows.push(row);
    return this.rows.length <= MAX_DISCOVERED_KEYS;
  }

  oversized(): false {
    this.overflow = true;
    return false;
  }
}
