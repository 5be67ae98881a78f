// Finds the workspace's publishable packages: every `packages/*` folder whose package.json is not private.
// The release scripts discover packages here rather than listing them, so a new package is covered as
// soon as it exists.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Lists the public packages under `<root>/packages`, sorted by folder name.
 *
 * @param {string} root the workspace root
 * @returns {{ name: string, version: string, dir: string, manifest: Record<string, unknown> }[]}
 */
export function publicPackages(root) {
  const packagesDir = path.join(root, 'packages');
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(packagesDir, entry.name))
    .sort()
    .flatMap((dir) => {
      let manifest;
      try {
        manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      } catch (error) {
        if (error.code === 'ENOENT') return [];
        throw error;
      }
      if (manifest.private === true) return [];
      return [{ name: manifest.name, version: manifest.version, dir, manifest }];
    });
}
