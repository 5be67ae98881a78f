import { describe, expect, it } from 'vitest';
import {
  parseAddCallbackEndpoint,
  parseListCallbackDeliveries,
  parseListCallbackEndpoints,
  parseRemoveCallbackEndpoint,
  parseResendCallback,
  parseRotateCallbackSecret,
} from './callback-requests.js';

describe('parseAddCallbackEndpoint', () => {
  it('accepts an https URL and defaults the format to json', () => {
    expect(parseAddCallbackEndpoint({ url: 'https://example.com/hooks/topup' })).toEqual({
      ok: true,
      value: { url: 'https://example.com/hooks/topup', format: 'json' },
    });
  });

  it('accepts an http URL on a local address, leaving the mode policy to the server', () => {
    const result = parseAddCallbackEndpoint({
      url: 'http://localhost:3000/cb',
      format: 'xml',
      description: 'dev',
    });
    expect(result).toEqual({
      ok: true,
      value: { url: 'http://localhost:3000/cb', format: 'xml', description: 'dev' },
    });
  });

  it('accepts a URL of exactly the maximum length', () => {
    const url = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(parseAddCallbackEndpoint({ url }).ok).toBe(true);
  });

  it('requires a url', () => {
    expect(parseAddCallbackEndpoint({ format: 'json' })).toEqual({
      ok: false,
      errors: ["'url is required.'"],
    });
  });

  it.each([
    'ftp://example.com/cb',
    'example.com/cb',
    '/hooks/topup',
    'http:example.com',
    'javascript:alert(1)',
    'https://',
    `https://example.com/${'a'.repeat(2048)}`,
    42,
  ])('rejects the url %j', (url) => {
    expect(parseAddCallbackEndpoint({ url })).toEqual({ ok: false, errors: ["'url is invalid'"] });
  });

  it.each(['yaml', 'JSON', 1])('rejects the format %j', (format) => {
    expect(parseAddCallbackEndpoint({ url: 'https://example.com', format })).toEqual({
      ok: false,
      errors: ["'format is invalid'"],
    });
  });

  it.each(['d'.repeat(201), 5])('rejects the description %j', (description) => {
    expect(parseAddCallbackEndpoint({ url: 'https://example.com', description })).toEqual({
      ok: false,
      errors: ["'description is invalid'"],
    });
  });

  it('lists url, format and description problems in that order', () => {
    expect(parseAddCallbackEndpoint({ description: 5, format: 'csv', url: 'nope' })).toEqual({
      ok: false,
      errors: ["'url is invalid'", "'format is invalid'", "'description is invalid'"],
    });
  });
});

describe('parseListCallbackEndpoints', () => {
  it('accepts any body, as the function takes no fields', () => {
    expect(parseListCallbackEndpoints({ page: 2 })).toEqual({ ok: true, value: {} });
  });
});

describe.each([
  ['parseRemoveCallbackEndpoint', parseRemoveCallbackEndpoint],
  ['parseRotateCallbackSecret', parseRotateCallbackSecret],
])('%s', (_name, parse) => {
  it('accepts an endpoint id', () => {
    expect(parse({ endpoint_id: 'ep_1' })).toEqual({ ok: true, value: { endpoint_id: 'ep_1' } });
  });

  it('requires the endpoint id', () => {
    expect(parse({})).toEqual({ ok: false, errors: ["'endpoint_id is required.'"] });
  });

  it('rejects an endpoint id that is not a string', () => {
    expect(parse({ endpoint_id: 7 })).toEqual({ ok: false, errors: ["'endpoint_id is invalid'"] });
  });
});

describe('parseResendCallback', () => {
  it('accepts a reference alone or with an endpoint id', () => {
    expect(parseResendCallback({ reference: 'TX-1' })).toEqual({ ok: true, value: { reference: 'TX-1' } });
    expect(parseResendCallback({ reference: 'TX-1', endpoint_id: 'ep_1' })).toEqual({
      ok: true,
      value: { reference: 'TX-1', endpoint_id: 'ep_1' },
    });
  });

  it('requires the reference and checks the endpoint id', () => {
    expect(parseResendCallback({ endpoint_id: {} })).toEqual({
      ok: false,
      errors: ["'reference is required.'", "'endpoint_id is invalid'"],
    });
  });
});

describe('parseListCallbackDeliveries', () => {
  it('accepts no filter at all', () => {
    expect(parseListCallbackDeliveries({})).toEqual({ ok: true, value: {} });
  });

  it.each(['pending', 'delivered', 'failed'])('accepts the status %s', (status) => {
    expect(parseListCallbackDeliveries({ reference: 'TX-1', status })).toEqual({
      ok: true,
      value: { reference: 'TX-1', status },
    });
  });

  it('rejects an unknown status and a reference that is not a string', () => {
    expect(parseListCallbackDeliveries({ status: 'done', reference: 1 })).toEqual({
      ok: false,
      errors: ["'reference is invalid'", "'status is invalid'"],
    });
  });
});
