import { describe, expect, it } from 'vitest';
import { verifyFetchRequest } from './fetch-request.js';
import { CallbackBodyTooLargeError } from './read-body.js';
import type { CallbackReceiverOptions } from './receiver-options.js';
import { signCallback } from './sign.js';

const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const timestamp = 1763740800;
const options: CallbackReceiverOptions = { secrets: [secret], clock: () => timestamp };
const body = '<?xml version="1.0" encoding="utf-8"?><xml><status><code>0000</code></status></xml>';
const headers = signCallback({ secrets: [secret], id: 'cb_fetch', timestamp, body });

function callbackRequest(
  payload: NonNullable<RequestInit['body']>,
  extraHeaders: Record<string, string> = {},
): Request {
  return new Request('http://receiver.test/callback', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'text/xml', ...extraHeaders },
    body: payload,
    duplex: 'half',
  });
}

/** A body stream without a declared length, delivering the given chunks. */
function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      chunks.forEach((chunk) => {
        controller.enqueue(chunk);
      });
      controller.close();
    },
  });
}

describe('verifyFetchRequest', () => {
  it('verifies a signed Request and hands back its exact raw body', async () => {
    const { result, rawBody } = await verifyFetchRequest(callbackRequest(body), options);
    expect(result).toEqual({
      ok: true,
      key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
      id: 'cb_fetch',
      timestamp,
    });
    expect(new TextDecoder().decode(rawBody)).toBe(body);
  });

  it('joins a streamed body from several chunks', async () => {
    const bytes = new TextEncoder().encode(body);
    const request = callbackRequest(streamOf([bytes.subarray(0, 7), bytes.subarray(7)]));
    const { result, rawBody } = await verifyFetchRequest(request, options);
    expect(result.ok).toBe(true);
    expect(rawBody).toEqual(bytes);
  });

  it('reports a tampered body as no_match', async () => {
    const { result } = await verifyFetchRequest(callbackRequest(body.replace('0000', '8000')), options);
    expect(result).toMatchObject({ ok: false, reason: 'no_match' });
  });

  it('verifies an empty body', async () => {
    const emptyHeaders = signCallback({ secrets: [secret], id: 'cb_empty', timestamp, body: '' });
    const request = new Request('http://receiver.test/callback', { method: 'POST', headers: emptyHeaders });
    const { result, rawBody } = await verifyFetchRequest(request, options);
    expect(result).toEqual({
      ok: true,
      key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
      id: 'cb_empty',
      timestamp,
    });
    expect(rawBody).toHaveLength(0);
  });

  it('rejects a declared Content-Length over the bound', async () => {
    const request = callbackRequest(body, { 'content-length': '5000' });
    await expect(verifyFetchRequest(request, { ...options, maxBodyBytes: 100 })).rejects.toThrow(
      'Expected a callback body of at most 100 bytes, received a Content-Length of 5000.',
    );
  });

  it('stops reading a streamed body once it passes the bound', async () => {
    const chunk = new Uint8Array(64);
    const request = callbackRequest(streamOf([chunk, chunk, chunk]));
    await expect(verifyFetchRequest(request, { ...options, maxBodyBytes: 100 })).rejects.toBeInstanceOf(
      CallbackBodyTooLargeError,
    );
  });

  it('refuses a Request whose body was already read', async () => {
    const request = callbackRequest(body);
    await request.text();
    await expect(verifyFetchRequest(request, options)).rejects.toThrow(/already consumed/);
  });

  it('rejects an invalid maxBodyBytes instead of reading without a bound', async () => {
    await expect(
      verifyFetchRequest(callbackRequest(body), { ...options, maxBodyBytes: Number.NaN }),
    ).rejects.toThrow('Expected maxBodyBytes to be a non-negative integer, received NaN.');
  });
});
