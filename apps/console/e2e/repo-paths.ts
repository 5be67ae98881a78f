// Where things are in the repository, found from this file: the root, the server app whose entry points
// the suite runs as child processes (by path, never by import), and the console's build.

import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const serverRoot = fileURLToPath(new URL('../../server/', import.meta.url));
/** `pnpm start`'s process: server and worker in one. */
export const serviceEntry = fileURLToPath(new URL('../../server/src/main.ts', import.meta.url));
/** The `topup` CLI. */
export const cliEntry = fileURLToPath(new URL('../../server/src/cli/main.ts', import.meta.url));
export const consoleIndexHtml = fileURLToPath(new URL('../dist/index.html', import.meta.url));
