import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJsonRequest, decodeXmlRequest } from './request-decoding.js';
import { encodeJsonRequest, encodeXmlRequest, type RequestFields } from './request-encoding.js';

const declaration = '<?xml version="1.0" encoding="utf-8"?>';

// The XML reader refuses element names that could pollute prototypes, so those are no field names.
const refusedByReader = new Set(['__proto__', 'constructor', 'prototype']);
const fieldName = fc.stringMatching(/^[a-z_][a-z0-9_]{0,9}$/).filter((name) => !refusedByReader.has(name));
const markup = fc.constantFrom('<', '>', '&', '"', "'", ']]>', '&amp;', '\r', '\n', '\r\n', '\t', ' ');
const xmlChar = fc
  .integer({ min: 0x20, max: 0x10ffff })
  .filter(
    (codePoint) => (codePoint < 0xd800 || codePoint > 0xdfff) && codePoint !== 0xfffe && codePoint !== 0xffff,
  )
  .map((codePoint) => String.fromCodePoint(codePoint));
const text = fc.string({ unit: fc.oneof(markup, xmlChar), maxLength: 12 });
const fieldsOf = (value: fc.Arbitrary<string | number>, minLength = 0) =>
  fc
    .uniqueArray(fc.tuple(fieldName, value), { minLength, maxLength: 6, selector: ([name]) => name })
    .map((entries) => Object.fromEntries(entries) as Record<string, string | number>);
// A body with a list field; an entry has at least one field, since XML reads an empty entry as "".
const withRecipients = (value: fc.Arbitrary<string | number>) =>
  fc
    .tuple(fieldsOf(value), fc.array(fieldsOf(value, 1), { minLength: 1, maxLength: 4 }))
    .map(([fields, recipients]) => ({ ...fields, recipients }));
const recipients = [
  { mobile: '254712345678', amount: 50, name: undefined },
  { mobile: '254733123456', amount: '20', name: 'Wanjikũ & <Shiro>' },
];

describe('encodeJsonRequest', () => {
  it('writes strings as JSON strings and numbers as number tokens, in the order given', () => {
    expect(encodeJsonRequest({ mobile: '254712345678', amount: 100, note: 'a"b' })).toBe(
      '{"mobile":"254712345678","amount":100,"note":"a\\"b"}',
    );
  });

  it('leaves out fields that are undefined', () => {
    expect(encodeJsonRequest({ mobile: '254712345678', email: undefined })).toBe('{"mobile":"254712345678"}');
  });

  it('writes no fields as an empty object', () => {
    expect(encodeJsonRequest({})).toBe('{}');
  });

  it('is read back by the server decoder as the same fields', () => {
    fc.assert(
      fc.property(fieldsOf(fc.oneof(text, fc.nat())), (fields) => {
        expect(decodeJsonRequest(encodeJsonRequest(fields))).toStrictEqual({ ok: true, value: fields });
      }),
    );
  });

  it('writes a list field as an array of objects, leaving out undefined fields of an entry', () => {
    expect(encodeJsonRequest({ recipients, note: 'March' })).toBe(
      '{"recipients":[{"mobile":"254712345678","amount":50},' +
        '{"mobile":"254733123456","amount":"20","name":"Wanjikũ & <Shiro>"}],"note":"March"}',
    );
  });

  it('is read back by the server decoder as the same fields with a list field', () => {
    fc.assert(
      fc.property(withRecipients(fc.oneof(text, fc.nat())), (fields) => {
        expect(decodeJsonRequest(encodeJsonRequest(fields))).toStrictEqual({ ok: true, value: fields });
      }),
    );
  });

  it.each<[string, unknown, string]>([
    ['NaN', Number.NaN, 'the number NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'the number Infinity'],
    ['an object', { nested: '1' }, 'an object'],
    ['a boolean', true, 'the boolean true'],
  ])('refuses %s as a value', (_case, value, described) => {
    expect(() => encodeJsonRequest({ amount: value } as unknown as RequestFields)).toThrow(
      `Expected a string or a finite number in request field amount, received ${described}.`,
    );
  });
});

describe('encodeXmlRequest', () => {
  it('writes the declaration, root xml and one element per field holding its text', () => {
    expect(encodeXmlRequest({ mobile: '254712345678', amount: 100, note: '' })).toBe(
      `${declaration}<xml><mobile>254712345678</mobile><amount>100</amount><note></note></xml>`,
    );
  });

  it('escapes & < > " \' and carriage return as the response encoder does', () => {
    expect(encodeXmlRequest({ note: 'a&b<c>d"e\'f\r\ng' })).toBe(
      `${declaration}<xml><note>a&amp;b&lt;c&gt;d&quot;e&apos;f&#13;\ng</note></xml>`,
    );
  });

  it('leaves out fields that are undefined and writes no fields as an empty root', () => {
    expect(encodeXmlRequest({ email: undefined })).toBe(`${declaration}<xml></xml>`);
  });

  it('is read back by the server decoder as the same fields, every value as text', () => {
    fc.assert(
      fc.property(fieldsOf(fc.oneof(text, fc.nat())), (fields) => {
        const asText = Object.fromEntries(
          Object.entries(fields).map(([name, value]) => [name, String(value)]),
        );
        expect(decodeXmlRequest(encodeXmlRequest(fields))).toStrictEqual({ ok: true, value: asText });
      }),
    );
  });

  it('writes a list field as one element per entry named by the singular, text escaped', () => {
    expect(encodeXmlRequest({ recipients, note: 'March' })).toBe(
      `${declaration}<xml><recipients>` +
        '<recipient><mobile>254712345678</mobile><amount>50</amount></recipient>' +
        '<recipient><mobile>254733123456</mobile><amount>20</amount><name>Wanjikũ &amp; &lt;Shiro&gt;</name></recipient>' +
        '</recipients><note>March</note></xml>',
    );
  });

  it('is read back by the server decoder as the same list, each entry in order, every value as text', () => {
    fc.assert(
      fc.property(withRecipients(fc.oneof(text, fc.nat())), (fields) => {
        const asText = (entry: Record<string, string | number>) =>
          Object.fromEntries(Object.entries(entry).map(([name, value]) => [name, String(value)]));
        const { recipients: entries, ...rest } = fields;
        expect(decodeXmlRequest(encodeXmlRequest(fields))).toStrictEqual({
          ok: true,
          value: { ...asText(rest), recipients: entries.map(asText) },
        });
      }),
    );
  });

  it('names an entry’s field by its position when it refuses it', () => {
    expect(() => encodeXmlRequest({ recipients: [{ amount: 50 }, { note: 'a\u0001b' }] })).toThrow(
      'Expected text XML can carry in recipients[1].note, received the character U+0001.',
    );
    expect(() => encodeXmlRequest({ recipients: [{ amount: Number.NaN }] })).toThrow(
      'Expected a string or a finite number in request field recipients[0].amount, received the number NaN.',
    );
  });

  it('refuses a field name that is not a plain element name', () => {
    expect(() => encodeXmlRequest({ 'two words': 'x' })).toThrow(
      'Expected a plain element name (letters, digits, _ . -) for a request field, received "two words".',
    );
  });

  it('refuses text with a character XML cannot carry', () => {
    expect(() => encodeXmlRequest({ note: 'a\u0001b' })).toThrow(
      'Expected text XML can carry in note, received the character U+0001.',
    );
  });

  it('refuses a value that is neither a string nor a finite number', () => {
    expect(() => encodeXmlRequest({ amount: Number.NaN })).toThrow(
      'Expected a string or a finite number in request field amount, received the number NaN.',
    );
  });
});

describe.each([
  ['encodeJsonRequest', encodeJsonRequest],
  ['encodeXmlRequest', encodeXmlRequest],
])('%s with lists', (_name, encode) => {
  it('refuses a list under a field that is not a list field, which the server could not read back', () => {
    expect(() => encode({ mobiles: [{ mobile: '254712345678' }] })).toThrow(
      'Expected a string or a finite number in request field mobiles, received a list of 1.',
    );
  });

  it.each<[string, unknown, string]>([
    ['a string', 'recipient', 'the string "recipient"'],
    ['null', null, 'null'],
    ['a list', [], 'a list of 0'],
  ])('refuses %s as an entry of a list field', (_case, entry, described) => {
    expect(() =>
      encode({ recipients: [{ mobile: '254712345678' }, entry] } as unknown as RequestFields),
    ).toThrow(`Expected an object of fields in request field recipients[1], received ${described}.`);
  });

  it('refuses an object under a list field', () => {
    expect(() => encode({ recipients: { mobile: '254712345678' } } as unknown as RequestFields)).toThrow(
      'Expected a list of entries in request field recipients, received an object.',
    );
  });
});
