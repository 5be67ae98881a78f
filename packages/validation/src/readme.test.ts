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
      {
        ok: true,
        value: {
          mobile: '254712345678',
          agent_number: '123456',
          store_number: '654321',
          amount: 500,
          country: 'KE',
          currency: 'KES',
          network: 'MoneyNetA',
        },
      },
      {
        ok: false,
        errors: [
          "'mobile is required.'",
          "'agent_number is required.'",
          "'store_number is required.'",
          "'amount is invalid'",
        ],
      },
      '254712345678',
      {
        country: 'KE',
        currency: 'KES',
        operator: 'Safaricom',
        carrier: 'CarrierA',
        moneyNetwork: 'MoneyNetA',
      },
      false,
    ]);
  });
});
