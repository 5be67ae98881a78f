import { describe, expect, it } from 'vitest';
import { failure, success } from './envelope.js';
import { EnvelopeDecodeError } from './envelope-decode-error.js';
import { decodeXmlEnvelope, encodeXml } from './xml-codec.js';

const declaration = '<?xml version="1.0" encoding="utf-8"?>';
const okStatus = '<status><type>SUCCESS</type><code>0000</code><message>ok</message></status>';
const successXml = (data: string) => `${declaration}<xml>${okStatus}<data>${data}</data></xml>`;

describe('encodeXml', () => {
  it('starts with the declaration and the root xml, with no whitespace between elements', () => {
    expect(encodeXml(failure('4000'))).toBe(
      `${declaration}<xml><status><type>FAIL</type><code>4000</code><message>Invalid API Token</message></status><data><errors></errors></data></xml>`,
    );
  });

  it('escapes & < > " \' and carriage return in text', () => {
    expect(encodeXml(success('ok', { note: 'a&b<c>d"e\'f\r\ng' }))).toContain(
      '<note>a&amp;b&lt;c&gt;d&quot;e&apos;f&#13;\ng</note>',
    );
  });

  it('writes an empty string as an explicit empty element', () => {
    expect(encodeXml(success('ok', { transaction: { code: '' } }))).toContain(
      '<transaction><code></code></transaction>',
    );
  });

  it('writes one error element per entry of errors', () => {
    expect(encodeXml(failure('3000', ["'mobile is required.'", 'second']))).toContain(
      '<errors><error>&apos;mobile is required.&apos;</error><error>second</error></errors>',
    );
  });

  it('writes the other lists with one child per entry named by the singular', () => {
    const xml = encodeXml(
      success('ok', {
        endpoints: [{ id: 'e1' }],
        deliveries: [{ id: 'd1', attempts: [{ outcome: 'ok' }, { outcome: 'timeout' }] }],
        channels: [],
      }),
    );
    expect(xml).toContain('<endpoints><endpoint><id>e1</id></endpoint></endpoints>');
    expect(xml).toContain(
      '<deliveries><delivery><id>d1</id><attempts><attempt><outcome>ok</outcome></attempt><attempt><outcome>timeout</outcome></attempt></attempts></delivery></deliveries>',
    );
    expect(xml).toContain('<channels></channels>');
  });

  it('writes balances as text with two decimals and refuses any other form', () => {
    expect(encodeXml(success('ok', { channel: { balance: '7.05' } }))).toContain('<balance>7.05</balance>');
    expect(() => encodeXml(success('ok', { channel: { balance: '7.5' } }))).toThrow(
      'Expected a balance with exactly two decimals such as "1500.00" at data.channel.balance, received the string "7.5".',
    );
  });

  it.each([
    ['a control character', 'a\u0001b', 'U+0001'],
    ['a lone surrogate', 'a\ud800b', 'U+D800'],
    ['U+FFFF', '\uffff', 'U+FFFF'],
  ])('refuses text with %s, which XML cannot carry', (_case, note, codePoint) => {
    expect(() => encodeXml(success('ok', { note }))).toThrow(
      `Expected text XML can carry at data.note, received the character ${codePoint}.`,
    );
  });

  it('refuses a key that is not a plain element name', () => {
    expect(() => encodeXml(success('ok', { 'two words': 'x' }))).toThrow(/plain element name .* "two words"/);
  });

  it('refuses a list under a key that is not a known list', () => {
    expect(() => encodeXml(success('ok', { tags: ['a'] }))).toThrow(/at data\.tags, received a list/);
  });
});

describe('decodeXmlEnvelope', () => {
  it('keeps digit strings as they are: 0000 stays "0000" and 0100 stays "0100"', () => {
    const decoded = decodeXmlEnvelope(
      successXml('<errors/><transaction><amount>0100</amount></transaction>'),
    );
    expect(decoded.status.code).toBe('0000');
    expect(decoded.data).toStrictEqual({ errors: [], transaction: { amount: '0100' } });
  });

  it('reads errors as a list whether empty, self-closed or filled', () => {
    const fail = (errors: string) =>
      `<xml><status><type>FAIL</type><code>3000</code><message>m</message></status><data>${errors}</data></xml>`;
    expect(decodeXmlEnvelope(fail('<errors></errors>')).data.errors).toStrictEqual([]);
    expect(decodeXmlEnvelope(fail('<errors/>')).data.errors).toStrictEqual([]);
    expect(decodeXmlEnvelope(fail('<errors><error>one</error></errors>')).data.errors).toStrictEqual(['one']);
  });

  it('reads a one-entry list as a list, not as a lone object', () => {
    const decoded = decodeXmlEnvelope(
      successXml('<errors/><channels><channel><balance>5</balance></channel></channels>'),
    );
    expect(decoded.data).toStrictEqual({ errors: [], channels: [{ balance: '5.00' }] });
  });

  it('reads an indented document, references and CDATA', () => {
    const text = `${declaration}
<xml>
  <status><type>SUCCESS</type><code>0000</code><message>a &amp; b &#x1F600; &#38;</message></status>
  <data>
    <errors/>
    <note><![CDATA[<kept & verbatim>]]></note>
    <empty/>
  </data>
</xml>
`;
    const decoded = decodeXmlEnvelope(text);
    expect(decoded.status.message).toBe('a & b 😀 &');
    expect(decoded.data).toStrictEqual({ errors: [], note: '<kept & verbatim>', empty: '' });
  });

  it.each<[string, string, RegExp]>([
    ['a root other than xml', '<envelope><status/></envelope>', /root element <xml>, received <envelope>/],
    ['malformed XML', '<xml><status></xml>', /well-formed XML/],
    ['a DOCTYPE', '<!DOCTYPE xml><xml/>', /no DOCTYPE/],
    [
      'an undefined entity',
      successXml('<errors/><note>&nbsp;</note>'),
      /predefined entity or a character reference, received "&nbsp;"/,
    ],
    ['a repeated field', successXml('<errors/><note>a</note><note>b</note>'), /<note> once in <data>/],
    [
      'a foreign entry in a list',
      successXml('<errors><warning>x</warning></errors>'),
      /<error> entries in <errors>, received <warning>/,
    ],
    [
      'text in a list',
      successXml('<errors>oops</errors>'),
      /<error> entries in <errors>, received text "oops"/,
    ],
    [
      'text beside elements',
      successXml('<errors/>stray<note>a</note>'),
      /only elements inside <data>, received text "stray"/,
    ],
    ['a missing status', '<xml><data><errors/></data></xml>', /a status object at status, received nothing/],
    [
      'a balance with three places',
      successXml('<errors/><channel><balance>1.005</balance></channel>'),
      /at most two places/,
    ],
    ['a success with errors', successXml('<errors><error>x</error></errors>'), /empty data.errors/],
  ])('refuses %s', (_case, text, message) => {
    expect(() => decodeXmlEnvelope(text)).toThrow(EnvelopeDecodeError);
    expect(() => decodeXmlEnvelope(text)).toThrow(message);
  });
});
