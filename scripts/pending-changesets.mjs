// The changesets not yet versioned: every .changeset/*.md but its README. `pnpm release` versions them
// before it publishes anything, and the rehearsal checks that versioning consumed them all.
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The file names of the pending changesets of the repository at `root`. */
export function pendingChangesets(root) {
  return readdirSync(path.join(root, '.changeset')).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );
}
