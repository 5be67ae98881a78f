// The exclusive lock on an embedded data folder. PGlite is one process's database: two processes writing
// the same folder (the service and the operator CLI, say) corrupt it. The lock is a file holding the
// owner's process id. It appears whole or not at all: the id is written to a file of this process's own,
// which is then hard-linked to the lock's name, and a link never replaces an existing file. So a second
// opener never reads a half-written lock, and of any number racing for a free folder exactly one links.
//
// A lock left by a process that no longer runs is stale and is taken over, so a crash never leaves the
// folder locked for good. Removing a stale lock is the racy part: two openers that both judged it stale
// must not both remove "it", since the second would remove the first's fresh lock. So a stale lock is
// removed only by the opener that wins a claim named after that lock file (its inode and modification
// time), only if the lock's name still points at that very file, and the winner then races for the free
// name like any opener. An opener that finds the claim held by a live process waits; one held by a dead
// process (it died mid-takeover) is decided by a claim one level up.

import { randomBytes } from 'node:crypto';
import { link, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorCode } from './error-code.js';

/** The lock file's name inside the data folder. */
export const lockFileName = 'topup.lock';

/**
 * Raised when another running process holds the data folder.
 *
 * @example
 * ```ts
 * import { DataDirLockedError, openStore } from '@topup/ledger';
 *
 * try {
 *   await openStore({ dataDir: './.topup' });
 * } catch (error) {
 *   if (error instanceof DataDirLockedError) console.error(error.message); // stop the server, or use DATABASE_URL
 *   else throw error;
 * }
 * ```
 */
export class DataDirLockedError extends Error {
  readonly code = 'DATA_DIR_LOCKED';

  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The embedded store in ${dataDir} is in use by process ${ownerPid}. It can be opened by one process ` +
        'at a time: stop the server (pnpm start) before running this, or use PostgreSQL (set DATABASE_URL) ' +
        `to share one store between processes. If process ${ownerPid} is not a Topup process, remove ` +
        `${join(dataDir, lockFileName)}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  /** Removes the lock file, if it is still this process's. */
  release(): Promise<void>;
}

/** A file in the folder as found: which file it is, and the process id it holds (if any). */
interface FoundFile {
  readonly ino: number;
  readonly mtimeMs: number;
  readonly pid: number | undefined;
}

/** Rounds of trying before giving up; each either links, finds a live owner, or clears a stale lock. */
const rounds = 50;
/** Claim levels for one stale lock: each level is tried only when the one below was held by a dead process. */
const claimLevels = 5;
/**
 * An empty or unreadable lock this young may be a lock an older version of this module is still writing
 * (it created the file, then wrote it); older than this it is taken for stale.
 */
const unfinishedLockGraceMs = 5_000;
const waitMs = 10;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

async function found(path: string): Promise<FoundFile | undefined> {
  try {
    const [status, text] = await Promise.all([stat(path), readFile(path, 'utf8')]);
    const pid = Number.parseInt(text, 10);
    return {
      ino: status.ino,
      mtimeMs: status.mtimeMs,
      pid: Number.isSafeInteger(pid) && pid > 0 ? pid : undefined,
    };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Links `from` to `to`; false when `to` exists. */
async function linkExclusive(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

async function removeIfPresent(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error;
  });
}

/**
 * Removes the stale lock `stale` at `path` if this process wins its claim and the name still points at it;
 * returns without doing anything when a live process is taking it over. `mine` holds this process's id.
 */
async function clearStaleLock(dataDir: string, path: string, stale: FoundFile, mine: string): Promise<void> {
  for (let level = 0; level < claimLevels; level += 1) {
    const claim = join(
      dataDir,
      `${lockFileName}.takeover-${String(stale.ino)}-${String(Math.trunc(stale.mtimeMs))}-${String(level)}`,
    );
    if (await linkExclusive(mine, claim)) {
      try {
        // Only a holder of this claim may remove this file, so between this check and the removal the
        // name cannot come to point at another process's lock: it is taken only while free.
        if ((await found(path))?.ino === stale.ino) await removeIfPresent(path);
      } finally {
        await removeIfPresent(claim);
      }
      return;
    }
    const claimer = (await found(claim))?.pid;
    if (claimer === undefined || isRunning(claimer)) {
      await sleep(waitMs);
      return;
    }
  }
}

/**
 * Takes the lock on `dataDir` (which must exist) for this process, or throws DataDirLockedError naming
 * the process that holds it. The same process opening the folder twice is refused too: two PGlite
 * instances on one folder corrupt it just as two processes would.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const path = join(dataDir, lockFileName);
  const mine = join(dataDir, `${lockFileName}.${String(process.pid)}.${randomBytes(6).toString('hex')}`);
  await writeFile(mine, `${process.pid}\n`, { flag: 'wx' });
  try {
    for (let round = 0; round < rounds; round += 1) {
      if (await linkExclusive(mine, path)) {
        const { ino } = await stat(mine);
        return {
          async release() {
            if ((await found(path))?.ino === ino) await removeIfPresent(path);
          },
        };
      }
      const holder = await found(path);
      if (holder === undefined) continue;
      if (holder.pid !== undefined && isRunning(holder.pid))
        throw new DataDirLockedError(dataDir, holder.pid);
      if (holder.pid === undefined && Date.now() - holder.mtimeMs < unfinishedLockGraceMs) {
        await sleep(waitMs);
        continue;
      }
      await clearStaleLock(dataDir, path, holder, mine);
    }
    throw new DataDirLockedError(dataDir, (await found(path))?.pid ?? 0);
  } finally {
    await removeIfPresent(mine);
  }
}
