// The README's example is a file under examples/: this test checks that the block the README marks is
// exactly that file, then runs it and checks that it prints what its comments say.

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

  it('runs the quick start, which prints what its comments say', async () => {
    const printed: unknown[] = [];
    vi.spyOn(console, 'log').mockImplementation((value: unknown) => {
      printed.push(value);
    });
    await import('../examples/quick-start.js');
    expect(printed).toStrictEqual([
      '{"status":{"type":"SUCCESS","code":"0000","message":"Balance found"},"data":{"errors":[],"channels":[{"type":"Agent Float","currency":"KES","balance":1500.00}]}}',
      '<?xml version="1.0" encoding="utf-8"?><xml><status><type>FAIL</type><code>3000</code><message>Missing or Invalid Parameters</message></status><data><errors><error>&apos;mobile is required.&apos;</error></errors></data></xml>',
      { ok: true, value: { amount: '0100' } },
      'xml',
    ]);
  });
});
