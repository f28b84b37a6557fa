// The composition roots' single helper: built once and shared; a failed start-up is made again.
import { describe, expect, it } from 'vitest';
import { once, onceSync } from '../../../lib/wiring/once';

describe('once', () => {
  it('shares one start-up between concurrent and later callers', async () => {
    let made = 0;
    const get = once(async () => ({ n: ++made }));
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(made).toBe(1);
  });

  it('drops a failed start-up, so the next call tries again', async () => {
    let attempts = 0;
    const get = once(async () => {
      attempts++;
      if (attempts === 1) throw new Error('store not reachable yet');
      return 'ready';
    });
    await expect(get()).rejects.toThrow(/not reachable/);
    expect(await get()).toBe('ready');
    expect(await get()).toBe('ready');
    expect(attempts).toBe(2);
  });

  it('onceSync keeps a value, and makes it again after a throw', () => {
    let attempts = 0;
    const get = onceSync(() => {
      attempts++;
      if (attempts === 1) throw new Error('bad file');
      return { attempts };
    });
    expect(() => get()).toThrow(/bad file/);
    const value = get();
    expect(get()).toBe(value);
    expect(attempts).toBe(2);
  });
});
