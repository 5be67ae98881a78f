import { describe, expect, it } from 'vitest';
import {
  contentTypeOf,
  negotiateResponse,
  requestFormat,
  responseFormat,
  type WireFormat,
} from './negotiation.js';

describe('responseFormat', () => {
  it.each<[string | undefined, WireFormat]>([
    [undefined, 'json'],
    ['', 'json'],
    ['   ', 'json'],
    ['application/json', 'json'],
    ['text/xml', 'xml'],
    ['application/xml', 'xml'],
    ['TEXT/XML', 'xml'],
    ['text/xml; charset=utf-8', 'xml'],
    ['application/json;charset=UTF-8', 'json'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['text/*', 'xml'],
    ['text/html, */*;q=0.1', 'json'],
    ['text/xml;q=0.9, application/json;q=0.8', 'xml'],
    ['application/json;q=0.5, text/xml', 'xml'],
    ['text/xml, application/json', 'xml'],
    ['application/json, text/xml', 'json'],
    ['application/json;q=0, */*', 'xml'],
    ['text/xml;q=0, */*', 'json'],
    ['application/xml;q=0.2, text/xml;q=0.7, application/json;q=0.5', 'xml'],
    ['text/html', 'json'],
    ['image/png, text/plain', 'json'],
    ['application/json;q=0, text/xml;q=0', 'json'],
    ['garbage', 'json'],
    ['text/xml;q=2, application/json', 'json'],
    ['text/xml;q=abc', 'json'],
    ['*/xml', 'json'],
    ['text/xml ; q=0.9 , application/json ; q=0.3', 'xml'],
  ])('answers Accept %j in %s', (accept, format) => {
    expect(responseFormat(accept)).toBe(format);
  });
});

describe('negotiateResponse', () => {
  const json = 'application/json; charset=utf-8';
  const textXml = 'text/xml; charset=utf-8';
  const applicationXml = 'application/xml; charset=utf-8';

  it.each<[string | undefined, string]>([
    [undefined, json],
    ['application/json', json],
    ['text/xml', textXml],
    ['application/xml', applicationXml],
    ['APPLICATION/XML; charset=utf-8', applicationXml],
    ['application/xml, text/xml', applicationXml],
    ['text/xml, application/xml', textXml],
    ['text/xml;q=0.5, application/xml', applicationXml],
    ['application/xml;q=0.2, text/xml;q=0.7, application/json;q=0.5', textXml],
    ['text/*', textXml],
    ['application/json;q=0, */*', textXml],
    ['application/json;q=0, application/*', applicationXml],
    ['application/json;q=0, text/xml;q=0, */*', applicationXml],
    ['application/*', json],
    ['text/html', json],
  ])('answers Accept %j with Content-Type %j', (accept, contentType) => {
    expect(negotiateResponse(accept).contentType).toBe(contentType);
  });

  it('answers a header it has seen before as it did the first time, however many others came between', () => {
    const first = negotiateResponse('application/*;q=0.5, text/xml');
    for (let index = 0; index < 200; index += 1)
      negotiateResponse(`application/json;q=0.${String(index % 10)}`);
    expect(negotiateResponse('application/*;q=0.5, text/xml')).toEqual(first);
    expect(first).toEqual({ format: 'xml', contentType: 'text/xml; charset=utf-8' });
    expect(negotiateResponse('application/json;q=0')).toEqual({
      format: 'json',
      contentType: 'application/json; charset=utf-8',
    });
  });

  it('picks the format responseFormat gives, and a Content-Type requestFormat reads back as it', () => {
    for (const accept of ['application/xml', 'text/xml', 'application/json', '*/*', 'text/*', 'x']) {
      const { format, contentType } = negotiateResponse(accept);
      expect(format).toBe(responseFormat(accept));
      expect(requestFormat(contentType)).toBe(format);
    }
  });
});

describe('requestFormat', () => {
  it.each<[string | undefined, WireFormat | undefined]>([
    [undefined, 'json'],
    ['', 'json'],
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['Application/JSON; Charset="UTF-8"', 'json'],
    ['application/json;charset=utf8', 'json'],
    ['text/xml', 'xml'],
    ['text/xml; charset=utf-8', 'xml'],
    ['application/xml', 'xml'],
    ['text/xml; charset=iso-8859-1', undefined],
    ['text/plain', undefined],
    ['application/x-www-form-urlencoded', undefined],
    ['multipart/form-data; boundary=x', undefined],
    ['*/*', 'json'],
    ['*/*; charset=utf-8', 'json'],
    ['application/*', 'json'],
    ['*/*; charset=iso-8859-1', undefined],
    ['text/*', undefined],
    ['json', undefined],
  ])('reads a body with Content-Type %j as %s', (contentType, format) => {
    expect(requestFormat(contentType)).toBe(format);
  });
});

describe('contentTypeOf', () => {
  it('names JSON and XML bodies with their UTF-8 charset', () => {
    expect(contentTypeOf('json')).toBe('application/json; charset=utf-8');
    expect(contentTypeOf('xml')).toBe('text/xml; charset=utf-8');
  });

  it('gives types that requestFormat reads back as the same format', () => {
    for (const format of ['json', 'xml'] as const) expect(requestFormat(contentTypeOf(format))).toBe(format);
  });
});
