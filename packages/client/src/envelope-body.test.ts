import { encodeJson, encodeXml, EnvelopeDecodeError, failure } from '@topup/envelope';
import { describe, expect, it } from 'vitest';
import { bodyFormatOf, decodeEnvelopeBody } from './envelope-body.js';

describe('bodyFormatOf', () => {
  it.each<[string, 'json' | 'xml']>([
    ['<?xml version="1.0"?><xml/>', 'xml'],
    ['\uFEFF \r\n\t<xml/>', 'xml'],
    ['{"status":{}}', 'json'],
    ['  {"a":1}', 'json'],
    ['', 'json'],
  ])('reads %j as %s', (text, format) => {
    expect(bodyFormatOf(text)).toBe(format);
  });
});

describe('decodeEnvelopeBody', () => {
  it('decodes JSON and XML forms of one envelope to the same value', () => {
    const envelope = failure('3000', ["'amount is invalid'"]);
    expect(decodeEnvelopeBody(encodeXml(envelope))).toStrictEqual(decodeEnvelopeBody(encodeJson(envelope)));
    expect(decodeEnvelopeBody(encodeJson(envelope))).toStrictEqual(envelope);
  });

  it('throws EnvelopeDecodeError for a body that is not an envelope', () => {
    expect(() => decodeEnvelopeBody('<html></html>')).toThrow(EnvelopeDecodeError);
    expect(() => decodeEnvelopeBody('Bad gateway')).toThrow(EnvelopeDecodeError);
  });
});
