import { describe, expect, it } from 'vitest';
import { createCallbackDeduplicator } from './callback-deduplicator.js';

describe('createCallbackDeduplicator', () => {
  it('handles a key once, and answers every repeat while it is remembered without handling it', async () => {
    let clock = 1_000_000;
    const once = createCallbackDeduplicator({ now: () => clock });
    const handled: string[] = [];
    const handle = (key: string) => () => {
      handled.push(key);
    };
    expect(await once({ key: 'sha256:a' }, handle('a'))).toBe(true);
    expect(await once({ key: 'sha256:b' }, handle('b'))).toBe(true);
    clock += 599_000;
    expect(await once({ key: 'sha256:a' }, handle('a'))).toBe(false);
    expect(await once({ key: 'sha256:b' }, handle('b'))).toBe(false);
    expect(handled).toEqual(['a', 'b']);
  });

  it('leaves the key free when handling fails, so the service’s retry is handled', async () => {
    const once = createCallbackDeduplicator();
    const failure = new Error('database down');
    await expect(
      once({ key: 'sha256:a' }, () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    let handled = 0;
    expect(
      await once({ key: 'sha256:a' }, () => {
        handled += 1;
      }),
    ).toBe(true);
    expect(handled).toBe(1);
  });

  it('makes a repeat that arrives during handling wait, and run only if the first failed', async () => {
    const once = createCallbackDeduplicator();
    let fail: (error: Error) => void = () => undefined;
    const first = once({ key: 'sha256:a' }, () => new Promise<void>((_, reject) => (fail = reject)));
    let secondRan = false;
    const second = once({ key: 'sha256:a' }, () => {
      secondRan = true;
    });
    fail(new Error('timeout'));
    await expect(first).rejects.toThrow('timeout');
    expect(await second).toBe(true);
    expect(secondRan).toBe(true);

    let release: () => void = () => undefined;
    const third = once({ key: 'sha256:b' }, () => new Promise<void>((resolve) => (release = resolve)));
    const fourth = once({ key: 'sha256:b' }, () => {
      throw new Error('a repeat must not run');
    });
    release();
    expect(await third).toBe(true);
    expect(await fourth).toBe(false);
  });

  it('forgets a key after twice the signature tolerance, when a replay can no longer verify', async () => {
    let clock = 1_000_000;
    const once = createCallbackDeduplicator({ now: () => clock });
    await once({ key: 'sha256:a' }, () => undefined);
    clock += 600_000;
    expect(await once({ key: 'sha256:a' }, () => undefined)).toBe(true);
  });

  it('refuses a remembering time that is not a positive number, saying what it received', () => {
    expect(() => createCallbackDeduplicator({ rememberSeconds: 0 })).toThrow(
      'Expected rememberSeconds to be a positive number, received 0.',
    );
  });
});
