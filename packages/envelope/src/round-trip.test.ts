import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failure, success, type Envelope } from './envelope.js';
import { decodeJsonEnvelope, encodeJson } from './json-codec.js';
import type { FailureCode } from './status-codes.js';
import { decodeXmlEnvelope, encodeXml } from './xml-codec.js';

// Characters: the markup ones, whitespace XML treats specially, and any code point at all.
const markup = fc.constantFrom('<', '>', '&', '"', "'", ']]>', '&amp;', '\r', '\n', '\r\n', '\t', ' ');
const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((codePoint) => codePoint < 0xd800 || codePoint > 0xdfff)
  .map((codePoint) => String.fromCodePoint(codePoint));
const astral = fc
  .integer({ min: 0x10000, max: 0x10ffff })
  .map((codePoint) => String.fromCodePoint(codePoint));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
const isXmlChar = (char: string) => /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]+$/u.test(char);

// JSON can carry any string, lone surrogates included; XML only its `Char` production.
const jsonText = fc.string({ unit: fc.oneof(markup, anyCodePoint, astral, loneSurrogate), maxLength: 12 });
const xmlText = fc.string({ unit: fc.oneof(markup, anyCodePoint.filter(isXmlChar), astral), maxLength: 12 });

// Names the shape rules give a meaning to (lists, channels, balances) are generated on purpose below.
// The XML reader refuses element names that could pollute prototypes, so those are no field names either.
const reserved = new Set([
  'errors',
  'channels',
  'endpoints',
  'deliveries',
  'attempts',
  'legs',
  'recipients',
  'postings',
  'channel',
  'balance',
]);
const refusedByReader = new Set(['__proto__', 'constructor', 'prototype']);
const fieldName = fc
  .stringMatching(/^[a-z_][a-z0-9_]{0,9}$/)
  .filter((name) => !reserved.has(name) && !refusedByReader.has(name));

const balance = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.integer({ min: 0, max: 99 }))
  .map(([negative, whole, cents]) => `${negative ? '-' : ''}${whole}.${String(cents).padStart(2, '0')}`);

function envelopes(text: fc.Arbitrary<string>): fc.Arbitrary<Envelope> {
  const { tree } = fc.letrec<{ tree: Record<string, unknown> }>((tie) => ({
    tree: fc
      .uniqueArray(
        fc.tuple(fieldName, fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, tie('tree'))),
        {
          minLength: 1,
          maxLength: 4,
          selector: ([name]) => name,
        },
      )
      .map((entries) => Object.fromEntries(entries)),
  }));
  // fc.record builds null-prototype objects; the decoders build plain ones.
  const channel = fc.record({ type: text, currency: text, balance }).map((fields) => ({ ...fields }));
  const successes = fc
    .record(
      {
        fields: fc.option(tree, { nil: undefined }),
        channel: fc.option(channel, { nil: undefined }),
        channels: fc.option(fc.array(channel, { maxLength: 3 }), { nil: undefined }),
        endpoints: fc.option(fc.array(tree, { maxLength: 2 }), { nil: undefined }),
      },
      { requiredKeys: [] },
    )
    .chain(({ fields, ...lists }) =>
      fc.tuple(
        text,
        fc.constant({
          ...fields,
          ...Object.fromEntries(Object.entries(lists).filter(([, value]) => value !== undefined)),
        }),
      ),
    )
    .map(([message, data]): Envelope => success(message, data));
  const failureCodes: FailureCode[] = [
    '1000',
    '2000',
    '3000',
    '4000',
    '5000',
    '6000',
    '7000',
    '8000',
    '9000',
  ];
  const failures = fc
    .tuple(fc.constantFrom(...failureCodes), fc.array(text, { maxLength: 5 }), text)
    .map(([code, errors, message]): Envelope => ({
      ...failure(code, errors, { operation: 'send_agent_float' }),
      status: { type: 'FAIL', code, message },
    }));
  return fc.oneof(successes, failures);
}

describe('round trips', () => {
  it('decodeJsonEnvelope(encodeJson(x)) is x, keys in order, for arbitrary envelopes', () => {
    fc.assert(
      fc.property(envelopes(jsonText), (envelope) => {
        const decoded = decodeJsonEnvelope(encodeJson(envelope));
        expect(decoded).toStrictEqual(envelope);
        expect(JSON.stringify(decoded)).toBe(JSON.stringify(envelope));
      }),
      { numRuns: 500 },
    );
  });

  it('decodeXmlEnvelope(encodeXml(x)) is x, keys in order, for arbitrary envelopes', () => {
    fc.assert(
      fc.property(envelopes(xmlText), (envelope) => {
        const decoded = decodeXmlEnvelope(encodeXml(envelope));
        expect(decoded).toStrictEqual(envelope);
        expect(JSON.stringify(decoded)).toBe(JSON.stringify(envelope));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the text of a value exactly, whatever it holds, in both forms', () => {
    fc.assert(
      fc.property(xmlText, (note) => {
        const envelope = success('ok', { note });
        expect(decodeXmlEnvelope(encodeXml(envelope)).data).toStrictEqual({ errors: [], note });
        expect(decodeJsonEnvelope(encodeJson(envelope)).data).toStrictEqual({ errors: [], note });
      }),
      { numRuns: 1000 },
    );
  });
});
