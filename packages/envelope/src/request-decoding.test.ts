import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestLimits } from './limits.js';
import { decodeJsonRequest, decodeXmlRequest, type DecodeResult } from './request-decoding.js';

function problemOf(result: DecodeResult): string {
  if (result.ok) throw new Error(`Expected a problem, received the value ${JSON.stringify(result.value)}.`);
  return result.problem;
}

describe('decodeJsonRequest', () => {
  it('gives the fields of an object, numbers as numbers and strings as strings', () => {
    expect(decodeJsonRequest('{"mobile":"0712345678","amount":100,"note":"a"}')).toStrictEqual({
      ok: true,
      value: { mobile: '0712345678', amount: 100, note: 'a' },
    });
  });

  it.each([[''], ['  \r\n\t'], ['\uFEFF']])('treats the blank body %j as no fields', (body) => {
    expect(decodeJsonRequest(body)).toStrictEqual({ ok: true, value: {} });
  });

  it('skips a leading byte order mark', () => {
    expect(decodeJsonRequest('\uFEFF{"a":"b"}')).toStrictEqual({ ok: true, value: { a: 'b' } });
  });

  it('keeps a __proto__ key as data, never as a prototype', () => {
    const result = decodeJsonRequest('{"__proto__":{"polluted":"yes"}}');
    expect(result.ok && Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each<[string, string, RegExp]>([
    ['a list at the top', '[{"a":1}]', /a JSON object at the top of the body, received a list/],
    ['a string at the top', '"mobile"', /received a string/],
    ['null at the top', 'null', /received null/],
    ['broken JSON', '{"mobile":', /Expected valid JSON/],
    ['a trailing comma', '{"a":1,}', /a key in double quotes at position 7/],
    ['text after the object', '{"a":1} x', /the end of the text at position 8/],
    ['a repeated key', '{"amount":"1","amount":"1000"}', /each key once per object, received "amount" again/],
    ['a raw control character in a string', '{"a":"x\u0001"}', /no raw control character/],
    ['a bad escape', '{"a":"\\q"}', /a string with valid escapes/],
  ])('refuses %s with a problem', (_case, text, message) => {
    expect(problemOf(decodeJsonRequest(text))).toMatch(message);
  });

  it('refuses a body over the size limit', () => {
    const body = `{"note":"${'x'.repeat(requestLimits.maxBytes)}"}`;
    expect(problemOf(decodeJsonRequest(body))).toBe(
      `Expected a body of at most ${requestLimits.maxBytes} bytes, received ${body.length}.`,
    );
  });

  it('refuses nesting deeper than the limit, even a megabyte of it, quickly', () => {
    const body = '{"a":'.repeat(200_000);
    const started = performance.now();
    expect(problemOf(decodeJsonRequest(body))).toMatch(/nesting at most 32 deep/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('accepts nesting up to the limit', () => {
    const body = `${'{"a":'.repeat(requestLimits.maxDepth)}"x"${'}'.repeat(requestLimits.maxDepth)}`;
    expect(decodeJsonRequest(body).ok).toBe(true);
  });

  it('refuses more values than the limit', () => {
    const body = `{"a":[${'1,'.repeat(requestLimits.maxNodes)}1]}`;
    expect(problemOf(decodeJsonRequest(body))).toMatch(/at most 10000 values/);
  });

  it('reads every JSON object as JSON.parse does, but for numbers that are not plain safe integers', () => {
    const exactTextOfOtherNumbers = (_key: string, value: unknown): unknown =>
      typeof value === 'number' && !(Number.isSafeInteger(value) && value >= 0)
        ? JSON.stringify(value)
        : value;
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (object) => {
        const text = JSON.stringify(object);
        const expected = JSON.parse(text, exactTextOfOtherNumbers) as unknown;
        expect(decodeJsonRequest(text)).toStrictEqual({ ok: true, value: expected });
      }),
    );
  });

  it('keeps a decimal, exponent, signed or oversized number as its exact text', () => {
    const decoded = decodeJsonRequest('{"a":1e3,"b":100.0,"c":-5,"d":18446744073709551616,"e":100}');
    expect(decoded).toStrictEqual({
      ok: true,
      value: { a: '1e3', b: '100.0', c: '-5', d: '18446744073709551616', e: 100 },
    });
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        expect(typeof decodeJsonRequest(text).ok).toBe('boolean');
      }),
    );
  });
});

describe('decodeXmlRequest', () => {
  it('gives one string field per child element of xml, numbers untouched', () => {
    const body =
      '<?xml version="1.0" encoding="utf-8"?><xml><mobile>0712345678</mobile><amount>0100</amount></xml>';
    expect(decodeXmlRequest(body)).toStrictEqual({
      ok: true,
      value: { mobile: '0712345678', amount: '0100' },
    });
  });

  it('reads an empty or self-closed element as an empty string', () => {
    expect(decodeXmlRequest('<xml><note></note><email/></xml>')).toStrictEqual({
      ok: true,
      value: { note: '', email: '' },
    });
  });

  it('ignores indentation, comments and attributes, and keeps whitespace inside values', () => {
    const body =
      '<?xml version="1.0"?>\r\n<xml>\n  <!-- a comment -->\n  <name lang="sw"> Achieng </name>\n</xml>\n';
    expect(decodeXmlRequest(body)).toStrictEqual({ ok: true, value: { name: ' Achieng ' } });
  });

  it('decodes the five predefined entities and character references', () => {
    const body = '<xml><note>&amp;&lt;&gt;&quot;&apos; &#65;&#x42; &#x1F600;</note></xml>';
    expect(decodeXmlRequest(body)).toStrictEqual({ ok: true, value: { note: '&<>"\' AB 😀' } });
  });

  it('keeps CDATA verbatim', () => {
    expect(decodeXmlRequest('<xml><note><![CDATA[a &amp; <b>]]></note></xml>')).toStrictEqual({
      ok: true,
      value: { note: 'a &amp; <b>' },
    });
  });

  it.each<[string, string, string]>([
    ['a NUL', '<xml><name>a\u0000b</name></xml>', 'U+0000 at character 13'],
    ['a C0 control', '<xml><name>a\u0001b</name></xml>', 'U+0001 at character 13'],
    ['a form feed in a comment', '<xml><!-- \f --></xml>', 'U+000C at character 11'],
    ['a lone high surrogate', '<xml><note>\uD83D</note></xml>', 'U+D83D at character 12'],
    [
      'a lone low surrogate after a pair',
      '<xml><note>\uD83D\uDE00\uDE00</note></xml>',
      'U+DE00 at character 14',
    ],
    ['U+FFFF', '<xml><note>\uFFFF</note></xml>', 'U+FFFF at character 12'],
  ])('refuses %s written raw in the document, saying which character and where', (_case, body, where) => {
    expect(problemOf(decodeXmlRequest(body))).toBe(
      `Expected only characters XML can carry, received ${where}.`,
    );
  });

  it('accepts every character XML can carry, a surrogate pair and U+FFFD included', () => {
    const note = 'tab\t lf\n \u0020 \uD7FF \uE000 \uFFFD \uD83D\uDE00 \u{10FFFF}';
    expect(decodeXmlRequest(`<xml><note>${note}</note></xml>`)).toStrictEqual({ ok: true, value: { note } });
  });

  it('reads a list field as its entries in order, an entry with fields as an object', () => {
    const body =
      '<xml><recipients><recipient><mobile>0712345678</mobile><amount>50</amount></recipient>' +
      '<recipient><mobile>0712345678</mobile></recipient><recipient></recipient></recipients>' +
      '<note>x</note></xml>';
    expect(decodeXmlRequest(body)).toEqual({
      ok: true,
      value: {
        recipients: [{ mobile: '0712345678', amount: '50' }, { mobile: '0712345678' }, ''],
        note: 'x',
      },
    });
  });

  it('reads an empty list field as an empty string, like any empty field', () => {
    expect(decodeXmlRequest('<xml><recipients></recipients></xml>')).toEqual({
      ok: true,
      value: { recipients: '' },
    });
  });

  it('refuses a list entry not named by the singular', () => {
    expect(
      decodeXmlRequest(
        '<xml><recipients><recipient><a>1</a></recipient><person><a>1</a></person></recipients></xml>',
      ),
    ).toEqual({
      ok: false,
      problem: 'Expected only <recipient> elements in <recipients>, received <person>.',
    });
  });

  it('refuses a field repeated inside a list entry', () => {
    const decoded = decodeXmlRequest(
      '<xml><recipients><recipient><a>1</a><a>2</a></recipient></recipients></xml>',
    );
    expect(decoded).toEqual({
      ok: false,
      problem: 'Expected each field once, received <a> more than once in <recipient>.',
    });
  });

  it('reads a field with child elements as a nested object', () => {
    expect(decodeXmlRequest('<xml><payment><mobile>1</mobile></payment></xml>')).toStrictEqual({
      ok: true,
      value: { payment: { mobile: '1' } },
    });
  });

  it.each([[''], ['   \n'], ['<xml></xml>'], ['<xml/>'], ['<xml>\n</xml>']])(
    'treats %j as no fields',
    (body) => {
      expect(decodeXmlRequest(body)).toStrictEqual({ ok: true, value: {} });
    },
  );

  it.each<[string, string, RegExp]>([
    [
      'a root other than xml',
      '<request><mobile>1</mobile></request>',
      /root element <xml>, received <request>/,
    ],
    [
      'a repeated field',
      '<xml><amount>1</amount><amount>1000</amount></xml>',
      /each field once, received <amount> more than once/,
    ],
    [
      'text beside fields',
      '<xml>hello<mobile>1</mobile></xml>',
      /only elements inside <xml>, received text "hello"/,
    ],
    [
      'text instead of fields',
      '<xml>mobile=1</xml>',
      /one element per field inside <xml>, received text "mobile=1"/,
    ],
    ['text after the root', '<xml><a>1</a></xml>trailing', /well-formed XML.*Extra text at the end/],
    ['text before the root', 'lead<xml/>', /well-formed XML/],
    ['two roots', '<xml/><xml/>', /exactly one root element, received 2/],
    ['two roots with content', '<xml><a>1</a></xml><xml></xml>', /well-formed XML/],
    ['mismatched tags', '<xml><a>1</b></xml>', /well-formed XML/],
    ['an unclosed element', '<xml><a>1</a>', /well-formed XML/],
    ['a bare ampersand', '<xml><a>fish & chips</a></xml>', /well-formed XML/],
    ['an entity nobody defined', '<xml><a>&nbsp;</a></xml>', /received "&nbsp;"/],
    ['a reference to a character XML forbids', '<xml><a>&#0;</a></xml>', /received "&#0;"/],
    ['a reference past Unicode', '<xml><a>&#x110000;</a></xml>', /received "&#x110000;"/],
    ['a DOCTYPE', '<!DOCTYPE xml><xml/>', /no DOCTYPE declaration/],
    ['a lower-case doctype', '<!doctype xml><xml/>', /no DOCTYPE declaration/],
    [
      'an entity declaration without a DOCTYPE',
      '<!ENTITY a "b"><xml/>',
      /no markup declarations, received "<!ENTITY a/,
    ],
    [
      'a processing instruction',
      '<?xml version="1.0"?><?xml-stylesheet href="x"?><xml/>',
      /no processing instruction/,
    ],
    ['a declaration that is not first', ' <?xml version="1.0"?><xml/>', /no processing instruction/],
    ['a PI inside the root', '<xml><?php echo 1; ?></xml>', /no processing instruction/],
  ])('refuses %s with a problem', (_case, text, message) => {
    expect(problemOf(decodeXmlRequest(text))).toMatch(message);
  });

  it.each([
    ['<xml><__proto__>1</__proto__></xml>', '__proto__'],
    ['<xml><constructor>1</constructor></xml>', 'constructor'],
    ['<xml><payment><prototype/></payment></xml>', 'prototype'],
    ['<__proto__><mobile>1</mobile></__proto__>', '__proto__'],
  ])('refuses %s in its own words, before the XML parser can', (body, name) => {
    expect(problemOf(decodeXmlRequest(body))).toBe(
      `Expected XML element names that are not __proto__, constructor or prototype, received <${name}>.`,
    );
  });

  it('reads __proto__ as an attribute name or inside a longer element name as anything else', () => {
    expect(
      decodeXmlRequest('<xml><note __proto__="x">1</note><my__proto__>2</my__proto__></xml>'),
    ).toStrictEqual({
      ok: true,
      value: { note: '1', my__proto__: '2' },
    });
  });

  it('refuses a body over the size limit', () => {
    const body = `<xml><note>${'x'.repeat(requestLimits.maxBytes)}</note></xml>`;
    expect(problemOf(decodeXmlRequest(body))).toBe(
      `Expected a body of at most ${requestLimits.maxBytes} bytes, received ${body.length}.`,
    );
  });

  it('counts the size in UTF-8 bytes, not characters', () => {
    const body = `<xml><note>${'ü'.repeat(requestLimits.maxBytes / 2)}</note></xml>`;
    expect(problemOf(decodeXmlRequest(body))).toMatch(/at most 1048576 bytes/);
  });

  it('accepts nesting up to the limit and refuses one level more', () => {
    const nest = (depth: number) => `${'<a>'.repeat(depth - 1)}x${'</a>'.repeat(depth - 1)}`;
    expect(decodeXmlRequest(`<xml>${nest(requestLimits.maxDepth)}</xml>`).ok).toBe(true);
    expect(problemOf(decodeXmlRequest(`<xml>${nest(requestLimits.maxDepth + 1)}</xml>`))).toMatch(
      /nested at most 32 deep/,
    );
  });

  it('does not count self-closed elements or quoted ">" in attributes as nesting', () => {
    const body = `<xml>${'<a/>'.repeat(40)}<b title="x/>y">1</b></xml>`;
    expect(problemOf(decodeXmlRequest(body))).toMatch(/<a> more than once/);
  });

  it('never throws, whatever the text', () => {
    const fragment = fc.constantFrom(
      '<xml>',
      '</xml>',
      '<a>',
      '</a>',
      '<a/>',
      '&amp;',
      '&x;',
      '&#',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      '<?',
      '?>',
      '<!',
      '"',
      "'",
      '=',
      ' ',
      'x',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(fragment).map((parts) => parts.join('')),
        ),
        (text) => {
          expect(typeof decodeXmlRequest(text).ok).toBe('boolean');
        },
      ),
      { numRuns: 2000 },
    );
  });
});
