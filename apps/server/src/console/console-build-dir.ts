// Where the console's built files are: a path on disk, read at run time, not an import of another app.
// Run from source, that is the repository's apps/console/dist. The compiled server (apps/server/dist and
// the folder `pnpm deploy:service` writes) carries a copy in `console/` beside its bundles, and its build
// (apps/server/tsup.config.ts) puts a module saying so in place of this one.

import { fileURLToPath } from 'node:url';

export const consoleBuildDir = fileURLToPath(new URL('../../../console/dist/', import.meta.url));
