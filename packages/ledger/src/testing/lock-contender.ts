// A child process for the data-folder lock race test: told `go <folder>` on stdin, it tries to lock the
// folder and prints `won`, `locked` or `error <message>`; a winner holds the lock until told `release`,
// then prints `released`. One process serves many rounds, so a race costs no process start-up.

import { createInterface } from 'node:readline';
import { lockDataDir } from '../data-dir-lock.js';
import type { DataDirLock } from '../data-dir-lock.js';

let held: DataDirLock | undefined;
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  if (line.startsWith('go ')) {
    try {
      held = await lockDataDir(line.slice(3));
      process.stdout.write('won\n');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      process.stdout.write(
        code === 'DATA_DIR_LOCKED'
          ? 'locked\n'
          : `error ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  } else if (line === 'release') {
    await held?.release();
    held = undefined;
    process.stdout.write('released\n');
  }
}
