// Admission of telemetry queries into the engine: at most `concurrency` run at once in a process,
// and one client holds at most `perClient` places (running or waiting), so a few slow queries of
// one client never take the engine from the others. Locally the engine shares libuv's thread pool
// with token checks, scrypt and file access: concurrency stays below the pool size so those
// always find a thread (docs/query-api.md, "Limits").
//
// Decisions: a client over its share is refused at once (429 with Retry-After: its own queries
// are what it waits for); a client within its share waits in a short FIFO queue when the engine
// is full, until its deadline (then 503 with Retry-After); a full queue is a 503 at once.
import type { AppError } from '../core/errors';
import { retryLater } from './ports';

export interface AdmissionLimits {
  /** Queries running at once. */
  readonly concurrency: number;
  /** Places (running or waiting) one client may hold. */
  readonly perClient: number;
  /** Queries waiting for a place to run. */
  readonly queueLength: number;
  /** Retry-After of a refusal. */
  readonly retryAfterSeconds: number;
}

interface Waiter {
  readonly client: string;
  readonly admit: () => void;
}

/** Releases a place; later calls do nothing. */
export type Release = () => void;

export class QueryAdmission {
  private running = 0;
  private readonly held = new Map<string, number>();
  private readonly queue: Waiter[] = [];

  constructor(readonly limits: AdmissionLimits) {
    if (limits.concurrency < 1 || limits.perClient < 1 || limits.queueLength < 0)
      throw new RangeError('admission limits must be positive');
  }

  /** Queries running now, and waiting now (for tests and logs). */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }

  /**
   * A place to run one query of `client`, waiting at most until `deadline` (epoch ms).
   * @throws AppError TOO_MANY_REQUESTS when the client already holds its share;
   *   SERVICE_UNAVAILABLE when the queue is full or no place frees before the deadline.
   */
  async enter(client: string, deadline: number): Promise<Release> {
    const mine = this.held.get(client) ?? 0;
    if (mine >= this.limits.perClient) {
      throw this.refuse(
        'TOO_MANY_REQUESTS',
        `this client already has ${mine} telemetry ${mine === 1 ? 'query' : 'queries'} running or waiting (at most ${this.limits.perClient} at a time); wait for ${mine === 1 ? 'it' : 'them'} to finish`,
      );
    }
    if (this.running < this.limits.concurrency && this.queue.length === 0) {
      this.take(client);
      return this.releaser(client);
    }
    if (this.queue.length >= this.limits.queueLength) throw this.busy();
    this.held.set(client, mine + 1);
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { client, admit: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(
        () => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          this.drop(client);
          reject(this.busy());
        },
        Math.max(0, deadline - Date.now()),
      );
      this.queue.push(waiter);
    });
    return this.releaser(client);
  }

  private take(client: string): void {
    this.running++;
    this.held.set(client, (this.held.get(client) ?? 0) + 1);
  }

  private drop(client: string): void {
    const left = (this.held.get(client) ?? 1) - 1;
    if (left > 0) this.held.set(client, left);
    else this.held.delete(client);
  }

  private releaser(client: string): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.drop(client);
      const next = this.queue.shift();
      if (next) {
        this.running++; // its place in `held` was taken when it started waiting
        next.admit();
      }
    };
  }

  private busy(): AppError {
    return this.refuse('SERVICE_UNAVAILABLE', 'the telemetry engine is busy with other queries; retry shortly');
  }

  private refuse(code: 'TOO_MANY_REQUESTS' | 'SERVICE_UNAVAILABLE', message: string): AppError {
    return retryLater(code, message, this.limits.retryAfterSeconds);
  }
}
