import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startPollLoop } from './poll-loop.js';

const logger = pino({ level: 'silent' });

describe('startPollLoop', () => {
  it('waits the interval between rounds that find nothing', async () => {
    let rounds = 0;
    const loop = startPollLoop({
      name: 'test',
      intervalMs: 60_000,
      logger,
      round: () => Promise.resolve({ more: (rounds += 1) < 0 }),
    });
    await sleep(50);
    await loop.stop();
    expect(rounds).toBe(1);
  });

  it('runs again at once while rounds report more work', async () => {
    let rounds = 0;
    const loop = startPollLoop({
      name: 'test',
      intervalMs: 60_000,
      logger,
      round: () => Promise.resolve({ more: (rounds += 1) < 5 }),
    });
    await sleep(50);
    await loop.stop();
    expect(rounds).toBe(5);
  });

  it('starts a round within milliseconds of a wake-up', async () => {
    const at: number[] = [];
    const loop = startPollLoop({
      name: 'test',
      intervalMs: 60_000,
      logger,
      round: () => {
        at.push(Date.now());
        return Promise.resolve({ more: false });
      },
    });
    await sleep(20);
    const wokenAt = Date.now();
    loop.wake();
    await sleep(20);
    await loop.stop();
    expect(at).toHaveLength(2);
    expect(at[1]! - wokenAt).toBeLessThan(15);
  });

  it('runs another round when woken during a round', async () => {
    let rounds = 0;
    let wakeDuringRound = () => {};
    const loop = startPollLoop({
      name: 'test',
      intervalMs: 60_000,
      logger,
      round: async () => {
        rounds += 1;
        await sleep(5);
        if (rounds === 1) wakeDuringRound();
        return { more: false };
      },
    });
    wakeDuringRound = () => {
      loop.wake();
    };
    await sleep(50);
    await loop.stop();
    expect(rounds).toBe(2);
  });

  it('keeps going after a failing round', async () => {
    let rounds = 0;
    const loop = startPollLoop({
      name: 'test',
      intervalMs: 5,
      logger,
      round: () =>
        (rounds += 1) === 1 ? Promise.reject(new Error('database down')) : Promise.resolve({ more: false }),
    });
    await sleep(60);
    await loop.stop();
    expect(rounds).toBeGreaterThan(1);
  });

  it('waits for the round in progress when stopped, and runs no more', async () => {
    let finished = 0;
    let started = 0;
    const loop = startPollLoop({
      name: 'test',
      intervalMs: 1,
      logger,
      round: async () => {
        started += 1;
        await sleep(30);
        finished += 1;
        return { more: true };
      },
    });
    await sleep(10);
    await loop.stop();
    expect(finished).toBe(started);
    await sleep(40);
    expect(started).toBe(finished);
    expect(started).toBe(1);
  });
});
