import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataDir, lockFileName } from './data-dir-lock.js';

const contenders = 12;
const contenderScript = fileURLToPath(new URL('./testing/lock-contender.ts', import.meta.url));

interface Contender {
  readonly child: ChildProcessWithoutNullStreams;
  next(): Promise<string>;
  send(line: string): void;
}

function startContender(): Contender {
  const child = spawn(process.execPath, ['--import', 'tsx', contenderScript], { stdio: 'pipe' });
  const queued: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter === undefined) queued.push(line);
    else waiter(line);
  });
  return {
    child,
    next: () => {
      const line = queued.shift();
      return line === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(line);
    },
    send: (line) => child.stdin.write(`${line}\n`),
  };
}

/** The id of a process that has exited, so a lock naming it is stale. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

describe('the data-folder lock under a race', () => {
  let folder: string;
  let racers: Contender[];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'topup-lock-race-'));
    racers = Array.from({ length: contenders }, startContender);
    expect(await Promise.all(racers.map((racer) => racer.next()))).toEqual(
      Array<string>(contenders).fill('ready'),
    );
  }, 60_000);

  afterAll(async () => {
    for (const racer of racers) racer.child.kill();
    await rm(folder, { recursive: true, force: true });
  });

  /** One round: every contender goes for `dataDir` at once; returns what each said. */
  async function race(dataDir: string): Promise<string[]> {
    for (const racer of racers) racer.send(`go ${dataDir}`);
    const said = await Promise.all(racers.map((racer) => racer.next()));
    const winner = racers[said.indexOf('won')];
    winner?.send('release');
    if (winner !== undefined) expect(await winner.next()).toBe('released');
    return said;
  }

  const outcomes = (said: readonly string[]) => ({
    won: said.filter((line) => line === 'won').length,
    locked: said.filter((line) => line === 'locked').length,
    other: said.filter((line) => line !== 'won' && line !== 'locked'),
  });

  it.each([1, 2, 3, 4])(
    'lets exactly one of many processes take a free folder (round %i)',
    async (round) => {
      const dataDir = join(folder, `free-${String(round)}`);
      await rm(dataDir, { recursive: true, force: true });
      await mkdir(dataDir);
      expect(outcomes(await race(dataDir))).toEqual({ won: 1, locked: contenders - 1, other: [] });
      expect(await readdir(dataDir)).toEqual([]);
    },
    60_000,
  );

  it.each([1, 2, 3, 4])(
    'lets exactly one of many processes take over a lock left by a dead process (round %i)',
    async (round) => {
      const dataDir = join(folder, `stale-${String(round)}`);
      await mkdir(dataDir);
      await writeFile(join(dataDir, lockFileName), `${String(deadPid())}\n`);
      expect(outcomes(await race(dataDir))).toEqual({ won: 1, locked: contenders - 1, other: [] });
      expect(await readdir(dataDir)).toEqual([]);
    },
    60_000,
  );

  it('takes over an empty lock left long ago, but waits on one that may still be being written', async () => {
    const dataDir = join(folder, 'empty');
    await mkdir(dataDir);
    const path = join(dataDir, lockFileName);
    await writeFile(path, '');
    const old = new Date(Date.now() - 60_000);
    await utimes(path, old, old);
    expect(outcomes(await race(dataDir))).toEqual({ won: 1, locked: contenders - 1, other: [] });

    await writeFile(path, '');
    const started = Date.now();
    const waiting = lockDataDir(dataDir);
    await writeFile(path, `${String(process.pid)}\n`);
    await expect(waiting).rejects.toMatchObject({ code: 'DATA_DIR_LOCKED', ownerPid: process.pid });
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);
});
