import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from './utf8-length.js';

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

describe('utf8Length', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['ü', 2],
    ['✓', 3],
    ['😀', 4],
    ['\ud800', 3],
    ['\udc00\ud800', 6],
  ])('counts %j as %i bytes', (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
  });

  it('agrees with TextEncoder for any string', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(
        fc.string({ unit: fc.oneof(fc.string({ unit: 'binary', maxLength: 1 }), loneSurrogate) }),
        (text) => {
          expect(utf8Length(text)).toBe(encoder.encode(text).length);
        },
      ),
    );
  });
});
