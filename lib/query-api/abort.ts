// The service's abort of a query at its time limit (ports.ts, RunOptions.signal). Node's
// AbortController makes its AbortSignal by changing an EventTarget's prototype, a slow path of V8:
// about 9 µs of CPU for each request in a loop (one listener added and removed with it: 10 µs),
// several times that as a request meets it. This is the part of an AbortSignal the engines use, and
// an AbortSignal is one too, so callers of an engine (tests, benchmarks) may pass either.

/** What an engine reads of the abort of its query: an AbortSignal, or the service's QueryAbort. */
export interface QuerySignal {
  readonly aborted: boolean;
  /** The error to answer with, once aborted. */
  readonly reason: unknown;
  /** @throws reason once aborted. */
  throwIfAborted(): void;
  /** Calls `listener` at the abort (once; never if already aborted, as an AbortSignal). */
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class QueryAbort implements QuerySignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] = [];

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted && !this.listeners.includes(listener)) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }

  /** Aborts with `reason` and calls each listener once; later calls do nothing. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As an EventTarget does: the others still run, the error is reported as uncaught.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

/**
 * An AbortSignal that follows `signal`, for an API that needs a real one (an AWS SDK call):
 * `signal` itself when it is one; `done` stops following it.
 */
export function followedSignal(signal: QuerySignal): { readonly signal: AbortSignal; done(): void } {
  if (signal instanceof AbortSignal) return { signal, done: () => undefined };
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  const follow = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', follow, { once: true });
  return { signal: controller.signal, done: () => signal.removeEventListener('abort', follow) };
}
