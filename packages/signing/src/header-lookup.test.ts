import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readHeader } from './header-lookup.js';

describe('readHeader', () => {
  it('finds a plain-object header whatever the case of its name', () => {
    expect(readHeader({ 'Webhook-ID': 'cb_1' }, 'webhook-id')).toBe('cb_1');
    expect(readHeader({ 'signature-hash': 'abc=' }, 'Signature-Hash')).toBe('abc=');
  });

  it('reads a Fetch Headers object', () => {
    const headers = new Headers({ 'Signature-Timestamp': '1763740800' });
    expect(readHeader(headers, 'signature-timestamp')).toBe('1763740800');
    expect(readHeader(headers, 'Signature-Hash')).toBeUndefined();
  });

  it('reads node IncomingHttpHeaders, combining array values as HTTP combines repeated fields', () => {
    const headers: IncomingHttpHeaders = { 'webhook-signature': ['v1,a', 'v1,b'], host: 'example.test' };
    expect(readHeader(headers, 'Webhook-Signature')).toBe('v1,a, v1,b');
    expect(readHeader(headers, 'Host')).toBe('example.test');
  });

  it('combines plain-object keys that differ only in case', () => {
    expect(readHeader({ 'webhook-id': 'a', 'Webhook-Id': 'b' }, 'webhook-id')).toBe('a, b');
  });

  it('trims the value and treats a blank or absent value as missing', () => {
    expect(readHeader({ 'webhook-id': '  cb_1 \t' }, 'webhook-id')).toBe('cb_1');
    expect(readHeader({ 'webhook-id': '   ' }, 'webhook-id')).toBeUndefined();
    expect(readHeader({ 'webhook-id': undefined }, 'webhook-id')).toBeUndefined();
    expect(readHeader(new Headers({ 'webhook-id': '' }), 'webhook-id')).toBeUndefined();
  });

  it('treats a header literally named "get" as a header, not as a Headers object', () => {
    expect(readHeader({ get: 'x', 'webhook-id': 'cb_1' }, 'webhook-id')).toBe('cb_1');
  });
});
