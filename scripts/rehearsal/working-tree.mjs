// Copies the repository's working tree for the rehearsal: every file git tracks or would track (untracked
// files that are not ignored included), as they are on disk, so uncommitted work is rehearsed too, and
// nothing git ignores (node_modules, dist, caches) comes along.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** Copies the working tree of the git repository at `root` into `destination`; returns the file count. */
export function copyWorkingTree(root, destination) {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // Files deleted in the working tree are still listed from the index until the deletion is staged.
  const files = [...new Set(listed.split('\0').filter(Boolean))].filter((file) =>
    existsSync(path.join(root, file)),
  );
  for (const file of files) {
    const target = path.join(destination, file);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(root, file), target);
  }
  return files.length;
}
