// The Node.js flags the service's own start scripts pass (`pnpm start`, `start:server`, `start:worker` in
// apps/server/package.json), read from those scripts so that the harness runs each entry point exactly
// as an operator does, heap cap included, and cannot drift from them.

import { readFile } from 'node:fs/promises';

const packageJson = new URL('../../apps/server/package.json', import.meta.url);

/** The `--flags` between `tsx` and the entry file in `script`, e.g. `tsx --max-old-space-size=256 src/serve.ts`. */
export function nodeFlagsOf(script: string): string[] {
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'tsx') {
    throw new Error(`Expected a start script of the form "tsx [--flags] <entry>", received "${script}".`);
  }
  return words.slice(1).filter((word) => word.startsWith('--'));
}

/** The flags of the named script of apps/server. */
export async function startScriptFlags(scriptName: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(packageJson, 'utf8')) as { scripts?: Record<string, string> };
  const script = manifest.scripts?.[scriptName];
  if (script === undefined) {
    throw new Error(`Expected apps/server/package.json to have a "${scriptName}" script, found none.`);
  }
  return nodeFlagsOf(script);
}
