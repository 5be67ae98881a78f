import { decodeJsonEnvelope, decodeXmlEnvelope, success } from '@topup/envelope';
import { generateSecret, verifyCallback } from '@topup/signing';
import { describe, expect, it } from 'vitest';
import { buildCallbackRequest, encodeCallbackBody } from './callback-request.js';

const payload = JSON.stringify(
  success('Airtime delivered', {
    sender: { name: 'Duka Ltd', mobile: '254700000001', email: '' },
    recipient: { name: 'Amina', mobile: '254711223344', email: '' },
    transaction: { type: 'Airtime', reference: 'TXABCDEF123456', amount: '500', note: 'a & b <c>' },
    channel: { type: 'Airtime', currency: 'KES', balance: '1500.00' },
  }),
);

describe('encodeCallbackBody', () => {
  it('writes the stored envelope as JSON with the balance as a two-decimal number', () => {
    const body = encodeCallbackBody(payload, 'json').toString('utf8');
    expect(body).toContain('"balance":1500.00');
    expect(decodeJsonEnvelope(body).status).toEqual({
      type: 'SUCCESS',
      code: '0000',
      message: 'Airtime delivered',
    });
  });

  it('writes the stored envelope as XML', () => {
    const body = encodeCallbackBody(payload, 'xml').toString('utf8');
    expect(body.startsWith('<?xml version="1.0" encoding="utf-8"?><xml>')).toBe(true);
    expect(body).toContain('<note>a &amp; b &lt;c&gt;</note>');
    expect(decodeXmlEnvelope(body).status.message).toBe('Airtime delivered');
  });
});

describe('buildCallbackRequest', () => {
  const secret = generateSecret();

  it('signs the body so that it verifies under the endpoint secret with both header sets', () => {
    const request = buildCallbackRequest({
      payload,
      format: 'json',
      secrets: [secret],
      deliveryId: 'cb_1',
      timestamp: 1_700_000_000,
    });
    const standard = verifyCallback({
      secrets: [secret],
      headers: request.headers,
      body: request.body,
      now: 1_700_000_010,
    });
    expect(standard).toMatchObject({ ok: true, id: 'cb_1', timestamp: 1_700_000_000 });
    const specOnly = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !name.startsWith('webhook-')),
    );
    expect(
      verifyCallback({ secrets: [secret], headers: specOnly, body: request.body, now: 1_700_000_010 }).ok,
    ).toBe(true);
  });

  it('sends the headers of the contract', () => {
    const request = buildCallbackRequest({
      payload,
      format: 'xml',
      secrets: [secret],
      deliveryId: 'cb_1',
      timestamp: 1_700_000_000,
    });
    expect(request.headers).toMatchObject({
      Accept: 'application/json',
      'Content-Type': 'text/xml; charset=utf-8',
      'Content-Length': String(request.body.byteLength),
      'Signature-Algorithm': 'HMAC-SHA256',
      'Signature-Timestamp': '1700000000',
      'webhook-id': 'cb_1',
      'webhook-timestamp': '1700000000',
    });
    expect(request.headers['Signature-Hash']).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('sends identical bytes and the same webhook-id on every retry', () => {
    const first = buildCallbackRequest({
      payload,
      format: 'json',
      secrets: [secret],
      deliveryId: 'cb_9',
      timestamp: 1_700_000_000,
    });
    const retry = buildCallbackRequest({
      payload,
      format: 'json',
      secrets: [secret],
      deliveryId: 'cb_9',
      timestamp: 1_700_000_300,
    });
    expect(retry.body.equals(first.body)).toBe(true);
    expect(retry.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(retry.headers['Signature-Hash']).not.toBe(first.headers['Signature-Hash']);
  });

  it('signs with both secrets during a rotation, so the old secret still verifies', () => {
    const previous = generateSecret();
    const request = buildCallbackRequest({
      payload,
      format: 'json',
      secrets: [secret, previous],
      deliveryId: 'cb_2',
      timestamp: 1_700_000_000,
    });
    expect(request.headers['Signature-Hash']!.split(' ')).toHaveLength(2);
    expect(
      verifyCallback({
        secrets: [previous],
        headers: request.headers,
        body: request.body,
        now: 1_700_000_000,
      }).ok,
    ).toBe(true);
  });
});
