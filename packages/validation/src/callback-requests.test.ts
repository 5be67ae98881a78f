import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseAddCallbackEndpoint,
  parseListCallbackDeliveries,
  parseListCallbackEndpoints,
  parseRemoveCallbackEndpoint,
  parseResendCallback,
  parseResendFailedCallbacks,
  parseRotateCallbackSecret,
  parseSendTestCallback,
} from './callback-requests.js';
import {
  decodeDeliveryCursor,
  decodeTransactionCursor,
  encodeDeliveryCursor,
  encodeTransactionCursor,
} from './listing-cursors.js';

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
  it('accepts no filter at all, with a page of 50', () => {
    expect(parseListCallbackDeliveries({})).toEqual({ ok: true, value: { limit: 50 } });
  });

  it.each(['pending', 'delivered', 'failed'])('accepts the status %s', (status) => {
    expect(parseListCallbackDeliveries({ reference: 'TX-1', status })).toEqual({
      ok: true,
      value: { reference: 'TX-1', status, limit: 50 },
    });
  });

  it('accepts every filter, the bounds as sent and a cursor this service wrote', () => {
    const cursor = encodeDeliveryCursor({ createdMicros: '1763723109120453', id: 'cb_7Qm2' });
    expect(
      parseListCallbackDeliveries({
        endpoint_id: ' ep_1 ',
        from: '2025-11-01',
        to: '2025-11-21T11:05:09+03:00',
        limit: '100',
        cursor,
      }),
    ).toEqual({
      ok: true,
      value: { endpoint_id: 'ep_1', from: '2025-11-01', to: '2025-11-21T11:05:09+03:00', limit: 100, cursor },
    });
  });

  it.each([0, 101, '1.5', -1, 'ten'])('rejects the limit %j', (limit) => {
    expect(parseListCallbackDeliveries({ limit })).toEqual({ ok: false, errors: ["'limit is invalid'"] });
  });

  it.each(['yesterday', '2025-02-29', '2025-11-21T25:00:00Z', 20251121])('rejects the bound %j', (bound) => {
    expect(parseListCallbackDeliveries({ from: bound, to: bound })).toEqual({
      ok: false,
      errors: ["'from is invalid'", "'to is invalid'"],
    });
  });

  it.each([
    'not a cursor',
    encodeTransactionCursor({ createdMicros: '1763723109120453', reference: 'TX7Q2M9K4D' }),
    'x'.repeat(513),
    42,
  ])('rejects the cursor %j, which this service did not write for deliveries', (cursor) => {
    expect(parseListCallbackDeliveries({ cursor })).toEqual({ ok: false, errors: ["'cursor is invalid'"] });
  });

  it('treats a blank cursor as none, so the empty next_cursor of a last page starts again', () => {
    expect(parseListCallbackDeliveries({ cursor: '' })).toEqual({ ok: true, value: { limit: 50 } });
  });

  it('rejects an unknown status and a reference that is not a string', () => {
    expect(parseListCallbackDeliveries({ status: 'done', reference: 1 })).toEqual({
      ok: false,
      errors: ["'reference is invalid'", "'status is invalid'"],
    });
  });
});

describe('delivery cursors', () => {
  it('read back every delivery position they write, and no other listing’s', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }).map(String),
        fc.stringMatching(/^[\x21-\x7e]{1,100}$/),
        (createdMicros, id) => {
          const cursor = encodeDeliveryCursor({ createdMicros, id });
          expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(decodeDeliveryCursor(cursor)).toStrictEqual({ createdMicros, id });
          expect(decodeTransactionCursor(cursor)).toBeUndefined();
        },
      ),
    );
  });

  it.each([
    ['a time that is not microseconds', ['d', '1.5', 'cb_1']],
    ['an empty id', ['d', '1', '']],
    ['an id past 100 characters', ['d', '1', 'c'.repeat(101)]],
    ['an id XML cannot carry', ['d', '1', 'cb\u0000']],
    ['an extra value', ['d', '1', 'cb_1', 'more']],
  ])('refuse a position with %s', (_case, values) => {
    const text = Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
    expect(decodeDeliveryCursor(text)).toBeUndefined();
  });
});

describe('parseResendFailedCallbacks', () => {
  it('accepts since alone or with an endpoint id', () => {
    expect(parseResendFailedCallbacks({ since: '2025-11-21' })).toEqual({
      ok: true,
      value: { since: '2025-11-21' },
    });
    expect(parseResendFailedCallbacks({ since: '2025-11-21T08:00:00Z', endpoint_id: 'ep_1' })).toEqual({
      ok: true,
      value: { since: '2025-11-21T08:00:00Z', endpoint_id: 'ep_1' },
    });
  });

  it('requires since and checks both fields', () => {
    expect(parseResendFailedCallbacks({ endpoint_id: 7 })).toEqual({
      ok: false,
      errors: ["'since is required.'", "'endpoint_id is invalid'"],
    });
    expect(parseResendFailedCallbacks({ since: '21/11/2025' })).toEqual({
      ok: false,
      errors: ["'since is invalid'"],
    });
  });
});

describe('parseSendTestCallback', () => {
  it('accepts an endpoint id and requires one', () => {
    expect(parseSendTestCallback({ endpoint_id: 'ep_1' })).toEqual({
      ok: true,
      value: { endpoint_id: 'ep_1' },
    });
    expect(parseSendTestCallback({})).toEqual({ ok: false, errors: ["'endpoint_id is required.'"] });
    expect(parseSendTestCallback({ endpoint_id: [] })).toEqual({
      ok: false,
      errors: ["'endpoint_id is invalid'"],
    });
  });
});
