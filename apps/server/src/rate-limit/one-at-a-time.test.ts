import { describe, expect, it } from 'vitest';
import { oneAtATimePerKey } from './one-at-a-time.js';

function gate() {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('running tasks one at a time per key', () => {
  it('starts a task under a key only once the one before it has settled, even when that one failed', async () => {
    const run = oneAtATimePerKey();
    const started: string[] = [];
    const first = gate();
    const failing = run('a', async () => {
      started.push('a1');
      await first.opened;
      throw new Error('lookup failed');
    });
    const second = run('a', () => {
      started.push('a2');
      return Promise.resolve('second');
    });
    await Promise.resolve();
    expect(started).toEqual(['a1']);
    first.open();
    await expect(failing).rejects.toThrow('lookup failed');
    expect(await second).toBe('second');
    expect(started).toEqual(['a1', 'a2']);
  });

  it('runs tasks under different keys side by side', async () => {
    const run = oneAtATimePerKey();
    const held = gate();
    const started: string[] = [];
    const a = run('a', async () => {
      started.push('a');
      await held.opened;
    });
    const b = run('b', () => {
      started.push('b');
      return Promise.resolve();
    });
    await b;
    expect(started).toEqual(['a', 'b']);
    held.open();
    await a;
  });
});
