// Progress of a long CLI run on stderr, one implementation for both CLIs (gdm publish, the admin
// CLI's import and replay). On a terminal one line is redrawn in place; elsewhere plain lines come
// at a slower pace, or none, so the log of a CI job or a service manager stays readable and
// redirected output never gets control codes.
import { performance } from 'node:perf_hooks';

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface ProgressState {
  /** Share done, 0..1, when the end is known: drawn as a bar on a terminal. */
  readonly done?: number;
  /** What the line says after the bar, e.g. `3/10 rows` or the publish counts. */
  readonly text: string;
}

export interface ProgressOptions {
  /** Starts every line, e.g. `gdm publish` or `import parts`. */
  readonly label: string;
  /** Off a terminal, a plain line at most this often; without it nothing is written off a terminal. */
  readonly plainEveryMs?: number;
  /** A monotonic clock in milliseconds (tests pass a fake one). */
  readonly now?: () => number;
}

export interface Progress {
  /** Takes the latest state; draws it when the last drawing is old enough. */
  update(state: ProgressState): void;
  /** On a terminal, draws the latest state and ends the line so what follows starts on a fresh one. */
  end(): void;
}

const BAR_WIDTH = 24;
/** Redraws on a terminal at most five times a second: faster is unreadable and costs writes. */
const TTY_EVERY_MS = 200;

/** `[############------------] 50%` for 0.5; values outside 0..1 are clamped. */
export function bar(done: number): string {
  const share = Math.min(1, Math.max(0, done));
  const filled = Math.round(share * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}%`;
}

export function createProgress(stream: ProgressStream, options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const tty = stream.isTTY === true;
  const every = tty ? TTY_EVERY_MS : options.plainEveryMs;
  const redraw = (state: ProgressState): string =>
    `\r\x1b[K${options.label} ${state.done === undefined ? '' : `${bar(state.done)} `}${state.text}`;
  // The first drawing waits one interval too: a run that ends sooner shows only its final line.
  let drawnAt = now();
  let latest: ProgressState | undefined;
  return {
    update(state) {
      latest = state;
      if (every === undefined || now() - drawnAt < every) return;
      drawnAt = now();
      stream.write(tty ? redraw(state) : `${options.label}: ${state.text}\n`);
    },
    end() {
      if (tty && latest !== undefined) stream.write(`${redraw(latest)}\n`);
    },
  };
}

/** A progress of `done` out of `total` items (import rows, replayed entries); terminals only. */
export function countProgress(
  stream: ProgressStream,
  label: string,
): { update(done: number, total: number): void; end(): void } {
  const progress = createProgress(stream, { label });
  return {
    update: (done, total) => progress.update({ done: total === 0 ? 1 : done / total, text: `${done}/${total}` }),
    end: () => progress.end(),
  };
}
