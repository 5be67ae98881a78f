import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnswerDroppingFront, type AnswerDroppingFront } from './answer-dropping-front.js';

describe('the answer-dropping front of the fault tests', () => {
  let target: Server;
  let front: AnswerDroppingFront;
  const received: { method: string; path: string; body: string; key: string | undefined }[] = [];

  beforeAll(async () => {
    target = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const key = request.headers['idempotency-key'];
        received.push({
          method: request.method ?? '',
          path: request.url ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
          key: typeof key === 'string' ? key : undefined,
        });
        response.writeHead(201, { 'Content-Type': 'application/json' });
        response.end(`{"took":${String(received.length)}}`);
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    front = await startAnswerDroppingFront(`http://127.0.0.1:${String(port)}`, (request) =>
      request.body.includes('lose me'),
    );
  });

  afterAll(async () => {
    await front.close();
    target.closeAllConnections();
    await new Promise<void>((resolve) =>
      target.close(() => {
        resolve();
      }),
    );
  });

  it('passes a request on, with its headers and body, and its answer back', async () => {
    const answer = await fetch(`${front.url}/send?x=1`, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k-1', 'Content-Type': 'text/plain' },
      body: 'keep me',
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.json()).toEqual({ took: received.length });
    expect(received.at(-1)).toEqual({ method: 'POST', path: '/send?x=1', body: 'keep me', key: 'k-1' });
  });

  it('drops the answer to a request it picks, once the target has taken it', async () => {
    const before = received.length;
    await expect(fetch(`${front.url}/send`, { method: 'POST', body: 'lose me' })).rejects.toThrow();
    expect(received).toHaveLength(before + 1);
    expect(front.dropped).toEqual([{ method: 'POST', path: '/send', body: 'lose me' }]);
  });
});
