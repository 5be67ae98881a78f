// Making a new embedded cluster. PGlite's initdb grows its WebAssembly memory to some 600 MB, and a
// process never gives all of that back: a service that made its own cluster stayed about 80 MB above one
// that opened an existing folder, for as long as it ran. So a new folder's initdb runs in a short-lived
// child process, and this process only ever opens a cluster that exists.

import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errorCode } from './error-code.js';

const run = promisify(execFile);

// The child gets PGlite's entry file, the folder and the start parameters as arguments, never in code.
const initdb = `(async () => {
  const [entry, dataDir, ...startParams] = process.argv.slice(1);
  const { PGlite } = require(entry);
  const db = await PGlite.create(dataDir, { startParams });
  await db.close();
})().catch((error) => { console.error(error); process.exit(1); });`;

/** Whether `dataDir` holds a cluster already (PostgreSQL writes PG_VERSION first). */
export async function holdsCluster(dataDir: string): Promise<boolean> {
  return stat(join(dataDir, 'PG_VERSION')).then(
    () => true,
    (error: unknown) => {
      if (errorCode(error) === 'ENOENT') return false;
      throw error;
    },
  );
}

/** Runs initdb for a new cluster in `dataDir` in a child process, with the start parameters it will run with. */
export async function createClusterApart(dataDir: string, startParams: readonly string[]): Promise<void> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  try {
    await run(process.execPath, ['-e', initdb, entry, dataDir, ...startParams], {
      maxBuffer: 1024 * 1024,
    });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(
      `Expected initdb to create an embedded cluster in ${dataDir}, but its process failed: ${stderr?.trim() || String(error)}`,
    );
  }
}
