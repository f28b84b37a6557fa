// Retries with exponential backoff and full jitter (AWS Architecture Blog, "Exponential Backoff
// And Jitter"): wait a random time in [0, min(cap, base * 2^attempt)) between attempts.

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseMs: number;
  readonly capMs: number;
  /** Injected for tests; defaults to a real timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseMs: 50, capMs: 2000 };

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function backoffMs(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
  return Math.floor((policy.random ?? Math.random)() * ceiling);
}

/** Runs fn until it succeeds, a non-retryable error is thrown, or the attempts are used up. */
export async function withRetries<T>(fn: (attempt: number) => Promise<T>, retryable: (error: unknown) => boolean, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt + 1 >= policy.maxAttempts || !retryable(error)) throw error;
      await (policy.sleep ?? realSleep)(backoffMs(policy, attempt));
    }
  }
}

/** Throttling and server-side errors of AWS services (by the SDK's error name and status). */
export function isTransientAwsError(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number }; $retryable?: unknown };
  if (e?.$retryable) return true;
  if (['ThrottlingException', 'InternalServerException', 'ServiceUnavailable', 'ServiceUnavailableException', 'RequestTimeout', 'TimeoutError', 'ProvisionedThroughputExceededException'].includes(e?.name ?? '')) return true;
  const status = e?.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}
