// XML attacks at the HTTP level: entity expansion (billion laughs, quadratic blow-up), external entities
// (a file, a URL, a parameter entity), deep nesting and element floods. Each is refused at once with a
// 1000 envelope, nothing outside the document is read or fetched, and the service keeps answering.

import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeProblem } from '../testing/envelope-answer.js';
import { rawRequest } from '../testing/raw-http.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';

const ANSWER_WITHIN_MS = 2_000;

function attacks(bait: string): Record<string, string> {
  const lol = (level: number) =>
    level === 0 ? '<!ENTITY lol0 "lol">' : `<!ENTITY lol${level} "${`&lol${level - 1};`.repeat(10)}">`;
  const laughs = Array.from({ length: 10 }, (_, level) => lol(level)).join('');
  return {
    'billion laughs': `<?xml version="1.0"?><!DOCTYPE xml [${laughs}]><xml><note>&lol9;</note></xml>`,
    'quadratic blow-up': `<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY a "${'a'.repeat(50_000)}">]><xml><note>${'&a;'.repeat(10_000)}</note></xml>`,
    'external entity (file)': `<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><xml><note>&xxe;</note></xml>`,
    'external entity (URL)': `<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY xxe SYSTEM "${bait}/entity">]><xml><note>&xxe;</note></xml>`,
    'external DTD': `<?xml version="1.0"?><!DOCTYPE xml SYSTEM "${bait}/dtd"><xml><note>x</note></xml>`,
    'parameter entity': `<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY % remote SYSTEM "${bait}/param"> %remote;]><xml><note>x</note></xml>`,
    'undeclared entity': '<?xml version="1.0"?><xml><note>&lol;</note></xml>',
    'deep nesting': `<xml>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</xml>`,
    'element flood': `<xml>${'<a/>'.repeat(100_000)}</xml>`,
    'attribute flood': `<xml><note ${Array.from({ length: 20_000 }, (_, index) => `a${index}="x"`).join(' ')}>x</note></xml>`,
    'processing instruction':
      '<?xml version="1.0"?><?xml-stylesheet href="http://127.0.0.1/x.xsl"?><xml><note>x</note></xml>',
  };
}

describe.each(openTestStores())('XML attacks over HTTP, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let token: string;
  let bait: Server;
  let fetches = 0;
  let baitUrl: string;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store);
    ({ token } = await service.createCaller({ float: 1_000_000n }));
    // Any connection here means the parser went to fetch something named in a document.
    bait = createServer((socket) => {
      fetches += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    bait.close();
    await service.stop();
    await stores.close(store);
  });

  // Attributes are ignored, so a flood of them leaves the document without its fields: 3000.
  it.each([
    ['billion laughs', '1000'],
    ['quadratic blow-up', '1000'],
    ['external entity (file)', '1000'],
    ['external entity (URL)', '1000'],
    ['external DTD', '1000'],
    ['parameter entity', '1000'],
    ['undeclared entity', '1000'],
    ['deep nesting', '1000'],
    ['element flood', '1000'],
    ['attribute flood', '3000'],
    ['processing instruction', '1000'],
  ])('refuses %s at once with %s, in XML and JSON answers', async (name, code) => {
    const document = attacks(baitUrl)[name] ?? '';
    for (const accept of ['text/xml', 'application/json']) {
      const started = performance.now();
      const answer = await rawRequest(service.url, {
        path: '/api/send_agent_float',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/xml', Accept: accept },
        body: document,
      });
      expect(performance.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
      expect(envelopeProblem(answer)).toBeUndefined();
      expect(/"code":"(\d{4})"|<code>(\d{4})<\/code>/.exec(answer.body)?.slice(1).find(Boolean)).toBe(code);
      expect(answer.body).not.toContain('root:');
    }
    expect(fetches).toBe(0);
    const balance = await service.call('get_balance', { token });
    expect(balance.status).toBe(200);
  });
});
