// The exclusive lock on an embedded data folder. PGlite is one process's database: two processes writing
// the same folder (the service and the operator CLI, say) corrupt it. The lock is a file holding the
// owner's process id, created exclusively; a lock left by a process that no longer runs is stale and is
// taken over, so a crash never leaves the folder locked for good.

import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ownerOf(path: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(path, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Takes the lock on `dataDir` (which must exist) for this process, or throws DataDirLockedError naming
 * the process that holds it. The same process opening the folder twice is refused too: two PGlite
 * instances on one folder corrupt it just as two processes would.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const path = join(dataDir, lockFileName);
  // Two attempts: the second follows the removal of a stale lock. A third process racing for the same
  // stale lock loses to whichever wrote its file first.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await writeFile(path, `${process.pid}\n`, { flag: 'wx' });
      return {
        async release() {
          if ((await ownerOf(path)) === process.pid) await unlink(path).catch(() => undefined);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await ownerOf(path);
    if (owner !== undefined && isRunning(owner)) throw new DataDirLockedError(dataDir, owner);
    await unlink(path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
  }
  throw new DataDirLockedError(dataDir, (await ownerOf(path)) ?? 0);
}
