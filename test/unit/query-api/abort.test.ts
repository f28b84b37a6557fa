// The service's abort of a query (lib/query-api/abort.ts): what the engines rely on of an AbortSignal.
import { describe, expect, it, vi } from 'vitest';
import { followedSignal, QueryAbort } from '../../../lib/query-api/abort';

describe('QueryAbort', () => {
  it('calls each listener once at the abort, with the reason set; later aborts do nothing', () => {
    const abort = new QueryAbort();
    const reason = new Error('time limit');
    const seen: unknown[] = [];
    const listener = (): void => void seen.push(abort.reason);
    abort.addEventListener('abort', listener);
    abort.addEventListener('abort', listener); // as an EventTarget: the same listener once
    expect(() => abort.throwIfAborted()).not.toThrow();
    abort.abort(reason);
    abort.abort(new Error('again'));
    expect(seen).toEqual([reason]);
    expect(abort.aborted).toBe(true);
    expect(() => abort.throwIfAborted()).toThrow(reason);
  });

  it('never calls a listener removed before the abort or added after it', () => {
    const abort = new QueryAbort();
    const removed = vi.fn();
    const late = vi.fn();
    abort.addEventListener('abort', removed);
    abort.removeEventListener('abort', removed);
    abort.abort('stop');
    abort.addEventListener('abort', late);
    expect(removed).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
  });

  it('still calls the other listeners when one throws, and reports that error as uncaught', async () => {
    const abort = new QueryAbort();
    const after = vi.fn();
    const failure = new Error('listener failed');
    const reported = new Promise<unknown>((resolve) => {
      const handler = (error: unknown): void => {
        process.off('uncaughtException', handler);
        resolve(error);
      };
      process.on('uncaughtException', handler);
    });
    abort.addEventListener('abort', () => {
      throw failure;
    });
    abort.addEventListener('abort', after);
    abort.abort('stop');
    expect(after).toHaveBeenCalledOnce();
    expect(await reported).toBe(failure);
  });
});

describe('followedSignal', () => {
  it('gives an AbortSignal that aborts with the reason, until done', () => {
    const abort = new QueryAbort();
    const followed = followedSignal(abort);
    expect(followed.signal.aborted).toBe(false);
    abort.abort('stop');
    expect(followed.signal.aborted).toBe(true);
    expect(followed.signal.reason).toBe('stop');

    const other = new QueryAbort();
    const stopped = followedSignal(other);
    stopped.done();
    other.abort('later');
    expect(stopped.signal.aborted).toBe(false);
  });

  it('passes an AbortSignal through, and follows one aborted already', () => {
    const controller = new AbortController();
    expect(followedSignal(controller.signal).signal).toBe(controller.signal);
    const aborted = new QueryAbort();
    aborted.abort('before');
    expect(followedSignal(aborted).signal.reason).toBe('before');
  });
});
