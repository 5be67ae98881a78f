// The Node.js flags the service's own start scripts pass (`pnpm start` and `start:server` in
// apps/server/package.json, `start` in apps/worker/package.json), read from those scripts so that the harness runs each entry point
// with an operator's flags, heap cap included, and cannot drift from them.

import { readFile } from 'node:fs/promises';

/** The `--flags` between `node` and the entry file in `script`, e.g. `node --max-old-space-size=256 dist/server.mjs`. */
export function nodeFlagsOf(script: string): string[] {
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'node') {
    throw new Error(`Expected a start script of the form "node [--flags] <entry>", received "${script}".`);
  }
  return words.slice(1).filter((word) => word.startsWith('--'));
}

/** The flags of the named script of `app` (apps/server or apps/worker). */
export async function startScriptFlags(app: 'server' | 'worker', scriptName: string): Promise<string[]> {
  const packageJson = new URL(`../../apps/${app}/package.json`, import.meta.url);
  const manifest = JSON.parse(await readFile(packageJson, 'utf8')) as { scripts?: Record<string, string> };
  const script = manifest.scripts?.[scriptName];
  if (script === undefined) {
    throw new Error(`Expected apps/${app}/package.json to have a "${scriptName}" script, found none.`);
  }
  return nodeFlagsOf(script);
}
