// Files the bench and the soak write into the repository (results JSON, docs/benchmarks.md) are committed,
// so they are written in the repository's Prettier style: a fresh run never leaves `pnpm lint` failing.

import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

/** Writes `text` to `file` as Prettier formats it under the repository's configuration. */
export async function writeFormattedFile(file: URL, text: string): Promise<void> {
  const filepath = fileURLToPath(file);
  const options = (await resolveConfig(filepath)) ?? {};
  await writeFile(file, await format(text, { ...options, filepath }));
}
