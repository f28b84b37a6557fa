// Batch calls that succeed for some items and not others: Firehose PutRecordBatch
// (FailedPutCount), DynamoDB BatchWriteItem / BatchGetItem (UnprocessedItems / UnprocessedKeys),
// TransactWriteItems items cancelled by a conflict. The SDK retries a failed call, not the items a
// successful call left undone, so this is the one loop that sends those again, with exponential
// backoff and full jitter between rounds (AWS Architecture Blog, "Exponential Backoff And Jitter").

export interface RoundPolicy {
  /** Calls at most, the first one included. */
  readonly maxRounds: number;
  readonly baseMs: number;
  readonly capMs: number;
  /** Injected for tests; defaults to a real timer and Math.random. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

export const DEFAULT_ROUNDS: RoundPolicy = { maxRounds: 5, baseMs: 50, capMs: 2000 };

/** Items still undone after the last round; the caller's invocation fails and is retried whole. */
export class PartialBatchError extends Error {
  override readonly name = 'PartialBatchError';
  constructor(
    readonly what: string,
    readonly left: number,
    readonly rounds: number,
  ) {
    super(`${what}: ${left} item(s) still not done after ${rounds} attempts`);
  }
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before round `round` (1 = the first repeat): random in [0, min(cap, base * 2^(round-1))). */
export function backoffMs(policy: RoundPolicy, round: number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, round - 1));
  return Math.floor((policy.random ?? Math.random)() * ceiling);
}

/**
 * Sends `items`, then only the items each call gave back as not done, until none are left.
 * `send` returns the undone items (a subset, in any order); errors it throws are not caught.
 * @throws PartialBatchError when items are left after `policy.maxRounds` calls.
 */
export async function sendUntilDone<T>(
  what: string,
  items: readonly T[],
  send: (items: readonly T[]) => Promise<readonly T[]>,
  policy: RoundPolicy = DEFAULT_ROUNDS,
): Promise<void> {
  let pending = items;
  for (let round = 0; pending.length > 0; round++) {
    if (round >= policy.maxRounds) throw new PartialBatchError(what, pending.length, policy.maxRounds);
    if (round > 0) await (policy.sleep ?? realSleep)(backoffMs(policy, round));
    pending = await send(pending);
  }
}

/** Splits items into runs of at most `size` (a request's item limit). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
