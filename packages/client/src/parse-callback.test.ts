import { cancellationCallback, encodeJson, encodeXml, failure, success, testCallback } from '@topup/envelope';
import type { WireMessage } from '@topup/envelope';
import { createHash } from 'node:crypto';
import { generateSecret, signCallback } from '@topup/signing';
import { describe, expect, it } from 'vitest';
import { createCallbackDeduplicator } from './callback-deduplicator.js';
import { CallbackVerificationError } from './callback-verification-error.js';
import { parseCallback } from './parse-callback.js';
import { agentFloatData, airtimeData } from './testing/sample-data.js';

const secret = generateSecret();
const now = 1_763_730_000;

function signed(message: WireMessage, format: 'json' | 'xml', secrets = [secret], timestamp = now) {
  const body = format === 'xml' ? encodeXml(message) : encodeJson(message);
  const headers = signCallback({ secrets, id: 'cb_0123456789abcdefghij', timestamp, body });
  return { body, headers };
}

function refusal(run: () => unknown): CallbackVerificationError {
  try {
    run();
  } catch (error) {
    if (error instanceof CallbackVerificationError) return error;
    throw error;
  }
  throw new Error('Expected a CallbackVerificationError, received an event.');
}

const { payment: _payment, ...airtimeCallbackData } = airtimeData('TXDELIVER1');
const delivered = success('Airtime delivered', airtimeCallbackData);
const floatCancelled = cancellationCallback('send_agent_float', ['provider refused the transfer'], {
  ...agentFloatData('TXCANCEL01'),
});

describe('parseCallback', () => {
  it('returns a completed event for a signed JSON completion callback', () => {
    const { body, headers } = signed(delivered, 'json');
    const event = parseCallback(body, headers, secret, { now });
    expect(event).toStrictEqual({
      kind: 'completed',
      id: 'cb_0123456789abcdefghij',
      key: `sha256:${createHash('sha256').update(body).digest('hex')}`,
      timestamp: now,
      transaction: airtimeCallbackData.transaction,
      data: airtimeCallbackData,
      message: 'Airtime delivered',
      errors: [],
    });
  });

  it('returns a cancelled event carrying the full transaction data for a signed XML cancellation', () => {
    const { body, headers } = signed(floatCancelled, 'xml');
    const event = parseCallback(Buffer.from(body, 'utf8'), headers, [secret], { now });
    if (event.kind !== 'cancelled') throw new Error(`Expected a cancelled event, received ${event.kind}.`);
    expect(event.message).toBe('Agent Float Cancelled');
    expect(event.errors).toStrictEqual(['provider refused the transfer']);
    expect(event.transaction.reference).toBe('TXCANCEL01');
    expect(event.data).toStrictEqual(agentFloatData('TXCANCEL01'));
  });

  it.each(['json', 'xml'] as const)(
    'returns a test event, with no transaction, for a signed %s test callback',
    (format) => {
      const { body, headers } = signed(testCallback('ep_4KX2', new Date(now * 1000)), format);
      expect(parseCallback(body, headers, secret, { now })).toStrictEqual({
        kind: 'test',
        id: 'cb_0123456789abcdefghij',
        key: `sha256:${createHash('sha256').update(body).digest('hex')}`,
        timestamp: now,
        message: 'Test callback',
        endpointId: 'ep_4KX2',
      });
    },
  );

  it('refuses a test callback that does not verify, like any other', () => {
    const { body, headers } = signed(testCallback('ep_4KX2', new Date(now * 1000)), 'json', [
      generateSecret(),
    ]);
    expect(() => parseCallback(body, headers, secret, { now })).toThrow(CallbackVerificationError);
  });

  it('reads the same event from the JSON and the XML form, each keyed by its own bytes', () => {
    const fromJson = signed(floatCancelled, 'json');
    const fromXml = signed(floatCancelled, 'xml');
    const { key: xmlKey, ...xmlEvent } = parseCallback(fromXml.body, fromXml.headers, secret, { now });
    const { key: jsonKey, ...jsonEvent } = parseCallback(fromJson.body, fromJson.headers, secret, { now });
    expect(xmlEvent).toStrictEqual(jsonEvent);
    expect(xmlKey).not.toBe(jsonKey);
  });

  it('accepts node-style lower-case headers and either secret during a rotation', () => {
    const previous = generateSecret();
    const { body, headers } = signed(delivered, 'json', [previous]);
    const lowerCase = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    expect(parseCallback(body, lowerCase, [secret, previous], { now }).kind).toBe('completed');
  });

  it('verifies with the spec headers alone, without a webhook id', () => {
    const { body, headers } = signed(delivered, 'json');
    const specOnly = {
      'Signature-Algorithm': headers['Signature-Algorithm'],
      'Signature-Timestamp': headers['Signature-Timestamp'],
      'Signature-Hash': headers['Signature-Hash'],
    };
    const event = parseCallback(body, specOnly, secret, { now });
    expect(event.id).toBeUndefined();
    expect(event).toMatchObject({ kind: 'completed', transaction: { reference: 'TXDELIVER1' } });
  });

  it('gives a replay with the webhook headers stripped the key of the original, so the handler refuses it', async () => {
    const { body, headers } = signed(delivered, 'json');
    const once = createCallbackDeduplicator({ now: () => now * 1000 });
    const original = parseCallback(body, headers, secret, { now });
    const stripped = Object.fromEntries(
      Object.entries(headers).filter(([name]) => !name.toLowerCase().startsWith('webhook-')),
    );
    const replayed = parseCallback(body, stripped, secret, { now: now + 60 });
    expect(replayed.id).toBeUndefined();
    expect(replayed.key).toBe(original.key);
    const handled: string[] = [];
    expect(await once(original, () => void handled.push('original'))).toBe(true);
    expect(await once(replayed, () => void handled.push('replay'))).toBe(false);
    expect(handled).toEqual(['original']);
  });

  it('gives every retry of one callback, signed anew, the same key', () => {
    const { body } = signed(delivered, 'json');
    const first = parseCallback(
      body,
      signCallback({ secrets: [secret], id: 'cb_1', timestamp: now, body }),
      secret,
      {
        now,
      },
    );
    const retry = parseCallback(
      body,
      signCallback({ secrets: [secret], id: 'cb_1', timestamp: now + 5, body }),
      secret,
      { now: now + 5 },
    );
    const other = parseCallback(
      signed(floatCancelled, 'json').body,
      signed(floatCancelled, 'json').headers,
      secret,
      {
        now,
      },
    );
    expect(retry.key).toBe(first.key);
    expect(other.key).not.toBe(first.key);
  });

  it('refuses a callback signed with another secret', () => {
    const { body, headers } = signed(delivered, 'json', [generateSecret()]);
    const error = refusal(() => parseCallback(body, headers, secret, { now }));
    expect(error.reason).toBe('no_match');
    expect(error.message).toMatch(/^Expected one of the 1 webhook-signature value\(s\) to match/);
  });

  it('refuses a body changed after signing', () => {
    const { body, headers } = signed(delivered, 'json');
    const error = refusal(() => parseCallback(body.replace('"50"', '"5000"'), headers, secret, { now }));
    expect(error.reason).toBe('no_match');
  });

  it('refuses a callback signed too long ago', () => {
    const { body, headers } = signed(delivered, 'json', [secret], now - 301);
    expect(refusal(() => parseCallback(body, headers, secret, { now })).reason).toBe('too_old');
  });

  it('refuses a callback without signature headers', () => {
    const { body } = signed(delivered, 'json');
    expect(refusal(() => parseCallback(body, {}, secret, { now })).reason).toBe('missing_header');
  });

  it('refuses a signed body that is not an envelope', () => {
    const body = '{"hello":"world"}';
    const headers = signCallback({ secrets: [secret], id: 'cb_1', timestamp: now, body });
    const error = refusal(() => parseCallback(body, headers, secret, { now }));
    expect(error.reason).toBe('malformed_body');
    expect(error.message).toBe('Expected a status object at status, received nothing.');
  });

  it('refuses a signed failure that is not a cancellation', () => {
    const { body, headers } = signed(failure('3000', ["'mobile is required.'"]), 'json');
    const error = refusal(() => parseCallback(body, headers, secret, { now }));
    expect(error.reason).toBe('malformed_body');
    expect(error.message).toBe(
      'Expected a completion (SUCCESS 0000) or a cancellation (FAIL 8000) callback, received FAIL 3000.',
    );
  });

  it('refuses a signed completion without a transaction', () => {
    const { body, headers } = signed(
      success('Airtime delivered', { channel: airtimeData().channel }),
      'json',
    );
    const error = refusal(() => parseCallback(body, headers, secret, { now }));
    expect(error.reason).toBe('malformed_body');
    expect(error.message).toBe('Expected data.transaction with a reference in the callback, received none.');
  });

  it('refuses signed bytes that are not UTF-8', () => {
    const body = Buffer.from([0x7b, 0xff, 0x7d]);
    const headers = signCallback({ secrets: [secret], id: 'cb_1', timestamp: now, body });
    const error = refusal(() => parseCallback(body, headers, secret, { now }));
    expect(error.reason).toBe('malformed_body');
    expect(error.message).toBe('Expected a UTF-8 body, received bytes that are not.');
  });

  it('throws a plain Error, not a refusal, for a secret that is not a whsec_ secret', () => {
    const { body, headers } = signed(delivered, 'json');
    const run = () => parseCallback(body, headers, 'not-a-secret', { now });
    expect(run).toThrow(/^Expected a secret of the form whsec_<base64>/);
    expect(run).not.toThrow(CallbackVerificationError);
  });
});
