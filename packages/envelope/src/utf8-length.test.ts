import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length, utf8LengthOver } from './utf8-length.js';

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

describe('utf8LengthOver', () => {
  it.each([
    ['✓✓✓✓', 12, undefined],
    ['✓✓✓✓', 11, 12],
    ['😀😀😀', 12, undefined],
    ['😀😀😀', 11, 12],
    ['abcd', 3, 4],
    ['', 0, undefined],
  ])('gives %j against a limit of %i as %j', (text, limit, over) => {
    expect(utf8LengthOver(text, limit)).toBe(over);
  });

  it('gives the byte count exactly when it is over the limit, for any string and limit', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(
        fc.string({ unit: fc.oneof(fc.string({ unit: 'binary', maxLength: 1 }), loneSurrogate) }),
        fc.nat(40),
        (text, limit) => {
          const bytes = encoder.encode(text).length;
          expect(utf8LengthOver(text, limit)).toBe(bytes > limit ? bytes : undefined);
        },
      ),
    );
  });
});
