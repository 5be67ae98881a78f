// The README's example is a file under examples/: this test checks that the block the README marks is
// exactly that file, then runs it (on PGlite in memory, as the example itself opens it) and checks that it
// prints what its comments say.

import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';

const packageRoot = new URL('../', import.meta.url);
const marker = /<!-- example: (\S+) -->\s*```ts\n([\s\S]*?)```/g;

async function readmeExamples(): Promise<Map<string, string>> {
  const readme = await readFile(new URL('README.md', packageRoot), 'utf8');
  return new Map([...readme.matchAll(marker)].map((match) => [match[1] ?? '', match[2] ?? '']));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('README', () => {
  it('shows the example file exactly as it is', async () => {
    const examples = await readmeExamples();
    expect([...examples.keys()]).toStrictEqual(['examples/quick-start.ts']);
    for (const [path, shown] of examples) {
      expect(shown, `the README block of ${path}`).toBe(await readFile(new URL(path, packageRoot), 'utf8'));
    }
  });

  it('runs the quick start on PGlite, which prints what its comments say', async () => {
    const printed: unknown[] = [];
    vi.spyOn(console, 'log').mockImplementation((value: unknown) => {
      printed.push(value);
    });
    await import('../examples/quick-start.js');
    expect(printed).toStrictEqual(['created', 4_850_000n, true]);
  });
});
