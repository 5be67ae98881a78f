import { describe, expect, it } from 'vitest';
import { requestLimits } from './limits.js';
import { decodeXmlRequest } from './request-decoding.js';

// Each document is about a megabyte, just under the size limit, so what stops it is its content, not
// its size. Each must be refused in under a second without the process growing by 100 MB.
const megabyte = 1_000_000;
const second = 1000;
const hundredMegabytes = 100 * 1024 * 1024;

/** `build(filler)` with `filler` sized so the document lands between 1 MB and the size limit. */
function aboutOneMegabyte(build: (filler: (unit: string) => string) => string): string {
  const bare = Buffer.byteLength(
    build(() => ''),
    'utf8',
  );
  const document = build((unit) =>
    unit.repeat(Math.floor((requestLimits.maxBytes - bare - 16) / unit.length)),
  );
  const bytes = Buffer.byteLength(document, 'utf8');
  if (bytes < megabyte || bytes > requestLimits.maxBytes) {
    throw new Error(`Expected a hostile document of 1 MB to the limit, built one of ${bytes} bytes.`);
  }
  return document;
}

const laughs = Array.from(
  { length: 9 },
  (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
).join('');

const hostileDocuments: [string, string, RegExp][] = [
  [
    'a billion laughs',
    aboutOneMegabyte(
      (filler) =>
        `<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY lol "lol">${laughs}<!ENTITY pad "${filler('lol')}">]><xml><note>&lol9;</note></xml>`,
    ),
    /no DOCTYPE/,
  ],
  [
    'a quadratic blowup',
    aboutOneMegabyte(
      (filler) =>
        `<!DOCTYPE xml [<!ENTITY a "${'x'.repeat(50_000)}">]><xml><note>${filler('&a;')}</note></xml>`,
    ),
    /no DOCTYPE/,
  ],
  [
    'an external entity',
    aboutOneMegabyte(
      (filler) =>
        `<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><xml><mobile>&xxe;</mobile><note>${filler('x')}</note></xml>`,
    ),
    /no DOCTYPE/,
  ],
  [
    'an external DTD with parameter entities',
    aboutOneMegabyte(
      (filler) =>
        `<!DOCTYPE xml SYSTEM "http://127.0.0.1:1/evil.dtd" [<!ENTITY % remote SYSTEM "file:///etc/hostname"> %remote;]><xml><note>${filler('y')}</note></xml>`,
    ),
    /no DOCTYPE/,
  ],
  [
    'external entity references with no DOCTYPE',
    aboutOneMegabyte((filler) => `<xml><mobile>${filler('&xxe;')}</mobile></xml>`),
    /predefined entity or a character reference, received "&xxe;"/,
  ],
  [
    '10,000-deep nesting',
    aboutOneMegabyte((filler) => `<xml>${'<a>'.repeat(10_000)}${filler('z')}${'</a>'.repeat(10_000)}</xml>`),
    /nested at most 32 deep/,
  ],
  [
    'a megabyte of unclosed start tags',
    aboutOneMegabyte((filler) => `<xml>${filler('<a>')}`),
    /nested at most 32 deep/,
  ],
  [
    'a megabyte of sibling elements',
    aboutOneMegabyte((filler) => `<xml>${filler('<a/>')}</xml>`),
    /at most 10000 elements/,
  ],
];

describe('hostile XML requests', () => {
  it.each(hostileDocuments)(
    'refuses %s within a second and without growing memory by 100 MB',
    (_name, document, reason) => {
      const heapBefore = process.memoryUsage().heapUsed;
      const rssBefore = process.memoryUsage.rss();
      const started = performance.now();
      const result = decodeXmlRequest(document);
      const elapsed = performance.now() - started;
      const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
      const rssGrowth = process.memoryUsage.rss() - rssBefore;

      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.problem).toMatch(reason);
      expect(elapsed).toBeLessThan(second);
      expect(heapGrowth).toBeLessThan(hundredMegabytes);
      expect(rssGrowth).toBeLessThan(hundredMegabytes);
    },
  );

  it('refuses a document one byte over the size limit before reading it', () => {
    const document = `<xml><note>${'x'.repeat(requestLimits.maxBytes - 23)}</note></xml>`;
    expect(Buffer.byteLength(document)).toBe(requestLimits.maxBytes + 1);
    expect(decodeXmlRequest(document)).toStrictEqual({
      ok: false,
      problem: `Expected a body of at most ${requestLimits.maxBytes} bytes, received ${requestLimits.maxBytes + 1}.`,
    });
  });

  it('still reads a harmless megabyte-sized request', () => {
    const document = aboutOneMegabyte((filler) => `<xml><note>${filler('&amp;')}</note></xml>`);
    const started = performance.now();
    const result = decodeXmlRequest(document);
    expect(performance.now() - started).toBeLessThan(second);
    expect(result.ok && typeof result.value.note === 'string' && /^&+$/.test(result.value.note)).toBe(true);
  });
});
