// Golden fixtures: send answers as Africa's Talking gives them (fixtures/send-answer-*.json).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { airtimeSendRequest, readAirtimeSendAnswer } from './airtime-send.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');

describe('airtimeSendRequest', () => {
  it('form-encodes one recipient as JSON text, +254 and KES amounts, keyed by our leg id', () => {
    const request = airtimeSendRequest({
      username: 'topup',
      apiKey: 'at-key',
      idempotencyKey: 'TXVQYSN6XMFZTY-delivery',
      mobile: '254711082300',
      amountMinor: 10_000n,
      currency: 'KES',
    });
    expect(request.headers).toEqual({
      apiKey: 'at-key',
      Accept: 'application/json',
      'Content-Type': 'application/x-www-form-urlencoded',
      'Idempotency-Key': 'TXVQYSN6XMFZTY-delivery',
    });
    const form = new URLSearchParams(request.body);
    expect(form.get('username')).toBe('topup');
    expect(JSON.parse(form.get('recipients') ?? '')).toEqual([
      { phoneNumber: '+254711082300', amount: 'KES 100' },
    ]);
  });

  it('writes cents when there are any', () => {
    const request = airtimeSendRequest({
      username: 'u',
      apiKey: 'k',
      idempotencyKey: 'i',
      mobile: '254711082300',
      amountMinor: 10_005n,
      currency: 'KES',
    });
    expect(new URLSearchParams(request.body).get('recipients')).toBe(
      '[{"phoneNumber":"+254711082300","amount":"KES 100.05"}]',
    );
  });
});

describe('readAirtimeSendAnswer', () => {
  it('reads a recipient handed to the carrier, with the requestId its callback will name', () => {
    expect(readAirtimeSendAnswer(201, fixture('send-answer-sent'))).toEqual({
      ok: true,
      recipients: [
        {
          kind: 'sent',
          requestId: 'ATQid_dba7c4a6c51b8a3e5b2f9c4d1e7a0b3c',
          phoneNumber: '+254711082300',
          discount: 'KES 4.0000',
        },
      ],
    });
  });

  it('reads a recipient refused, with Africa’s Talking’s reason, flagging a wallet that cannot pay', () => {
    expect(readAirtimeSendAnswer(201, fixture('send-answer-refused'))).toEqual({
      ok: true,
      recipients: [
        { kind: 'refused', reason: 'Invalid phone number', phoneNumber: '+254811082301', walletLow: false },
      ],
    });
    expect(readAirtimeSendAnswer(201, fixture('send-answer-wallet-low'))).toEqual({
      ok: true,
      recipients: [
        { kind: 'refused', reason: 'Insufficient Credit', phoneNumber: '+254711082301', walletLow: true },
      ],
    });
  });

  it('reads a recipient refused as a duplicate as a duplicate, never as a refusal', () => {
    expect(readAirtimeSendAnswer(201, fixture('send-answer-recipient-duplicate'))).toEqual({
      ok: true,
      recipients: [
        {
          kind: 'duplicate',
          reason: 'A duplicate request was received within the last 5 minutes',
          phoneNumber: '+254711082301',
        },
      ],
    });
  });

  it('reads a whole answer refused as a duplicate as taken, its outcome unknown, never as nothing sent', () => {
    expect(readAirtimeSendAnswer(201, fixture('send-answer-duplicate'))).toEqual({
      ok: false,
      problem: 'HTTP 201: A duplicate request was received within the last 5 minutes',
      nothingSent: false,
      duplicate: true,
      walletLow: false,
    });
  });

  it('reads an error page or an answer without recipients as a problem, not a refusal', () => {
    expect(readAirtimeSendAnswer(502, '<html><body>Bad Gateway</body></html>')).toEqual({
      ok: false,
      problem: 'HTTP 502 with a body that is not JSON: "<html><body>Bad Gateway</body></html>"',
      nothingSent: false,
      duplicate: false,
      walletLow: false,
    });
    expect(readAirtimeSendAnswer(201, '{"errorMessage":"None","responses":[]}')).toEqual({
      ok: false,
      problem: 'HTTP 201: None',
      nothingSent: true,
      duplicate: false,
      walletLow: false,
    });
  });

  it('reads Africa’s Talking’s plain-text refusal of the credentials as a request that sent nothing', () => {
    expect(readAirtimeSendAnswer(401, 'The supplied authentication is invalid')).toEqual({
      ok: false,
      problem: 'HTTP 401: The supplied authentication is invalid',
      nothingSent: true,
      duplicate: false,
      walletLow: false,
    });
    expect(readAirtimeSendAnswer(400, '{"errorMessage":"Invalid recipients"}')).toEqual({
      ok: false,
      problem: 'HTTP 400: Invalid recipients',
      nothingSent: true,
      duplicate: false,
      walletLow: false,
    });
  });
});
