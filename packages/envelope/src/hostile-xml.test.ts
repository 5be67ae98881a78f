import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { requestLimits } from './limits.js';
import { decodeXmlRequest } from './request-decoding.js';
import type { DecodeMeasurement } from './testing/measure-xml-decode.js';

// Each document is about a megabyte, just under the size limit, so what stops it is its content, not
// its size. Each must be refused in under a second without memory growing past 100 MB at its peak.
const megabyte = 1_000_000;
const second = 1000;
const hundredMegabytes = 100 * 1024 * 1024;

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'topup-hostile-xml-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Decodes `document` in a fresh node process whose V8 heap is capped at 100 MB (a decode that needs more
 * dies there), and returns what that process measured, its peak resident memory included.
 */
async function decodeInChild(name: string, document: string): Promise<DecodeMeasurement> {
  const file = join(scratch, `${name.replace(/[^a-z0-9]+/gi, '-')}.xml`);
  writeFileSync(file, document, 'utf8');
  const script = fileURLToPath(new URL('testing/measure-xml-decode.ts', import.meta.url));
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', `--max-old-space-size=${hundredMegabytes / 1024 / 1024}`, script, file],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 60_000 },
  );
  return JSON.parse(stdout) as DecodeMeasurement;
}

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
    'refuses %s within a second, its peak memory under 100 MB, in a process capped at 100 MB of heap',
    async (name, document, reason) => {
      const measured = await decodeInChild(name, document);

      expect(measured.ok).toBe(false);
      expect(measured.problem).toMatch(reason);
      expect(measured.elapsedMs).toBeLessThan(second);
      expect(measured.peakGrowthBytes).toBeLessThan(hundredMegabytes);
    },
    60_000,
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
