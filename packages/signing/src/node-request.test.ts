import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyNodeRequest } from './node-request.js';
import { CallbackBodyTooLargeError } from './read-body.js';
import type { CallbackReceiverOptions } from './receiver-options.js';
import { signCallback } from './sign.js';

const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const timestamp = 1763740800;
const options: CallbackReceiverOptions = { secrets: [secret], clock: () => timestamp, maxBodyBytes: 1024 };
const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Airtime delivered"}}';

let server: Server;
let url: string;

beforeAll(async () => {
  // A receiver as a caller would write it: the helper reads the body, the handler answers.
  server = createServer((req, res) => {
    verifyNodeRequest(req, options).then(
      ({ result, rawBody }) => {
        res.writeHead(result.ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ result, rawBody: rawBody.toString('base64') }));
      },
      (error: unknown) => {
        res.writeHead(error instanceof CallbackBodyTooLargeError ? 413 : 500, {
          'content-type': 'text/plain',
        });
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function post(payload: string | Uint8Array, headers: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', headers, body: payload });
  return { status: response.status, text: await response.text() };
}

/** Sends the body in chunks without a Content-Length, as a streaming sender would. */
function postChunked(chunks: readonly Buffer[], headers: Record<string, string>) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'POST', headers }, (response) => {
      const received: Buffer[] = [];
      response.on('data', (chunk: Buffer) => received.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(received).toString('utf8') });
      });
    });
    outgoing.on('error', reject);
    for (const chunk of chunks) {
      outgoing.write(chunk);
    }
    outgoing.end();
  });
}

describe('verifyNodeRequest on a real node:http server', () => {
  it('verifies a signed callback and hands back its exact raw body', async () => {
    const headers = signCallback({ secrets: [secret], id: 'cb_node', timestamp, body });
    const { status, text } = await post(body, { ...headers, 'content-type': 'application/json' });
    expect(status).toBe(200);
    expect(JSON.parse(text)).toEqual({
      result: {
        ok: true,
        key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
        id: 'cb_node',
        timestamp,
      },
      rawBody: Buffer.from(body, 'utf8').toString('base64'),
    });
  });

  it('verifies a body that is not valid UTF-8 byte for byte', async () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x7b, 0xe9, 0x7d]);
    const headers = signCallback({ secrets: [secret], id: 'cb_bytes', timestamp, body: bytes });
    const { status, text } = await post(bytes, { ...headers });
    expect(status).toBe(200);
    expect((JSON.parse(text) as { rawBody: string }).rawBody).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('verifies a body that arrives in several chunks', async () => {
    const headers = signCallback({ secrets: [secret], id: 'cb_chunks', timestamp, body });
    const bytes = Buffer.from(body, 'utf8');
    const { status } = await postChunked(
      [bytes.subarray(0, 10), bytes.subarray(10, 11), bytes.subarray(11)],
      headers,
    );
    expect(status).toBe(200);
  });

  it('reports a tampered body as no_match', async () => {
    const headers = signCallback({ secrets: [secret], id: 'cb_node', timestamp, body });
    const { status, text } = await post(body.replace('Airtime', 'Airtyme'), { ...headers });
    expect(status).toBe(401);
    expect(JSON.parse(text)).toMatchObject({ result: { ok: false, reason: 'no_match' } });
  });

  it('reports a request without signature headers as missing_header', async () => {
    const { status, text } = await post(body, { 'content-type': 'application/json' });
    expect(status).toBe(401);
    expect(JSON.parse(text)).toMatchObject({ result: { ok: false, reason: 'missing_header' } });
  });

  it('rejects a declared Content-Length over the bound without reading the body', async () => {
    const large = 'x'.repeat(2048);
    const headers = signCallback({ secrets: [secret], id: 'cb_large', timestamp, body: large });
    const { status, text } = await post(large, { ...headers });
    expect(status).toBe(413);
    expect(text).toContain(
      'Expected a callback body of at most 1024 bytes, received a Content-Length of 2048.',
    );
  });

  it('stops reading a streamed body once it passes the bound and still answers', async () => {
    const chunk = Buffer.alloc(512, 0x61);
    const headers = signCallback({ secrets: [secret], id: 'cb_stream', timestamp, body: 'x' });
    const { status, text } = await postChunked([chunk, chunk, chunk], headers);
    expect(status).toBe(413);
    expect(text).toContain('Expected a callback body of at most 1024 bytes, received more.');
  });
});
