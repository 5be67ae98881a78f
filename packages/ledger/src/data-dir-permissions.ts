// Who may read an embedded data folder: its owner alone. The folder is the whole database, callback
// signing secrets and session hashes included, yet PGlite writes the files of a new cluster readable and
// writable by everyone (0666, whatever the umask). So the folder is made 0700 and everything in it
// owner-only when it is created and again at every open, which also repairs a folder an older version
// left open. A folder another user owns is refused before anything in it is touched: files this process
// wrote there would belong to the wrong user, and that user's service could no longer read them.

import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from './error-code.js';

/**
 * Raised when the data folder belongs to another user than the one opening it.
 *
 * @example
 * ```ts
 * import { DataDirOwnerError, openStore } from '@topup/ledger';
 *
 * try {
 *   await openStore({ dataDir: './.topup' });
 * } catch (error) {
 *   if (error instanceof DataDirOwnerError) console.error(error.message); // run as the folder's owner
 *   else throw error;
 * }
 * ```
 */
export class DataDirOwnerError extends Error {
  readonly code = 'DATA_DIR_OWNER';

  constructor(
    readonly dataDir: string,
    readonly ownerUid: number,
  ) {
    super(
      `The embedded store's folder ${dataDir} belongs to user ${ownerUid}, not to the user running this ` +
        `(${String(process.getuid?.())}). Run as its owner, or set TOPUP_DATA_DIR to a folder of your own.`,
    );
    this.name = 'DataDirOwnerError';
  }
}

/** Takes group and others' access away from `path` and everything below it; links are left alone. */
async function restrict(path: string): Promise<void> {
  let status;
  try {
    status = await lstat(path);
  } catch (error) {
    // The running database removes files of its own (old write-ahead log segments) as it goes.
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  if (status.isSymbolicLink()) return;
  if ((status.mode & 0o077) !== 0) await chmod(path, status.mode & 0o700);
  if (!status.isDirectory()) return;
  const entries = await readdir(path).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) await restrict(join(path, entry));
}

/**
 * Makes `dataDir` (created 0700 when missing) and everything in it owner-only; refuses a folder another
 * user owns with a DataDirOwnerError.
 */
export async function claimDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  const owner = (await lstat(dataDir)).uid;
  if (uid !== undefined && owner !== uid) throw new DataDirOwnerError(dataDir, owner);
  await restrict(dataDir);
}

/** Takes group and others' access away from everything in a data folder this process already claimed. */
export function restrictDataDir(dataDir: string): Promise<void> {
  return restrict(dataDir);
}
