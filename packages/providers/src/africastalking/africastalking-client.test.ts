// The Africa's Talking client over real HTTP on loopback: every answer handed back as sent, and every
// failure told apart by whether the request can have reached AT, never thrown, never quoting the apiKey.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callAfricasTalking, neverReached } from './africastalking-client.js';

const apiKey = 'at-key-do-not-log';
const servers: Server[] = [];

/** A loopback server handling each request as told; its URL. */
async function serve(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

/** A loopback URL where nothing listens. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return `http://127.0.0.1:${String(port)}`;
}

const send = {
  method: 'POST',
  path: '/version1/airtime/send',
  headers: { apiKey },
  body: 'username=topup',
} as const;

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  }
});

describe('callAfricasTalking', () => {
  it('hands back any answer as sent, status and text, under the base URL’s own path', async () => {
    const seen: string[] = [];
    const url = await serve((request, response) => {
      seen.push(`${request.method ?? ''} ${request.url ?? ''} ${String(request.headers.apikey)}`);
      response.writeHead(401, { 'Content-Type': 'text/plain' });
      response.end('The supplied authentication is invalid');
    });
    const answer = await callAfricasTalking({ baseUrl: `${url}/proxy/`, timeoutMs: 2_000 }, send);
    expect(answer).toEqual({ kind: 'answered', status: 401, text: 'The supplied authentication is invalid' });
    expect(seen).toEqual([`POST /proxy/version1/airtime/send ${apiKey}`]);
  });

  it('answers not_sent when nothing listens, since no byte reached AT', async () => {
    const url = await closedPort();
    const answer = await callAfricasTalking({ baseUrl: url, timeoutMs: 2_000 }, send);
    expect(answer).toEqual({
      kind: 'not_sent',
      problem: `${new URL(url).host} could not be reached (ECONNREFUSED)`,
    });
  });

  it('answers not_sent for a base URL that is not one', async () => {
    expect(await callAfricasTalking({ baseUrl: 'api.africastalking.com', timeoutMs: 2_000 }, send)).toEqual({
      kind: 'not_sent',
      problem: 'the base URL "api.africastalking.com" is not a URL',
    });
  });

  it('answers no_answer when AT is silent past the time limit, since it may have taken the send', async () => {
    const url = await serve(() => undefined);
    expect(await callAfricasTalking({ baseUrl: url, timeoutMs: 100 }, send)).toEqual({
      kind: 'no_answer',
      problem: 'no answer within 100 ms',
    });
  });

  it('answers no_answer when the connection is reset after the request was sent', async () => {
    const url = await serve((request) => {
      request.socket.destroy();
    });
    const answer = await callAfricasTalking({ baseUrl: url, timeoutMs: 2_000 }, send);
    expect(answer.kind).toBe('no_answer');
    expect(answer).toMatchObject({ problem: expect.stringMatching(/^the connection failed \(/) as unknown });
  });

  it('never quotes the apiKey, even when the key itself is refused as a header', async () => {
    const url = await serve(() => undefined);
    const badKey = `${apiKey}\nx`;
    const answer = await callAfricasTalking(
      { baseUrl: url, timeoutMs: 2_000 },
      { ...send, headers: { apiKey: badKey } },
    );
    expect(answer.kind).toBe('no_answer');
    expect(JSON.stringify(answer)).not.toContain(apiKey);
    expect(answer).toMatchObject({ problem: expect.stringMatching(/^the connection failed \(/) as unknown });
  });
});

describe('neverReached', () => {
  const failed = (cause: unknown) => new TypeError('fetch failed', { cause });
  const socketError = (code: string) => Object.assign(new Error(code), { code });

  it('counts a refused connection, an unknown host and no route as never reached', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']) {
      expect(neverReached(failed(socketError(code)))).toBe(true);
    }
  });

  it('counts several attempts only when every one never connected', () => {
    const refused = socketError('ECONNREFUSED');
    expect(neverReached(failed(new AggregateError([refused, socketError('ENETUNREACH')])))).toBe(true);
    expect(neverReached(failed(new AggregateError([refused, socketError('ETIMEDOUT')])))).toBe(false);
  });

  it('does not count a reset, a timeout or an error without a cause', () => {
    expect(neverReached(failed(socketError('ECONNRESET')))).toBe(false);
    expect(neverReached(failed(socketError('UND_ERR_SOCKET')))).toBe(false);
    expect(neverReached(new Error('fetch failed'))).toBe(false);
    expect(neverReached('ECONNREFUSED')).toBe(false);
  });
});
