// Authentication against guessing: failed authentications are limited per client address (20 a minute by
// default, then 5000 with HTTP 429 for every attempt from that address, valid token or not), other
// addresses are unaffected, and an unknown token and a revoked one get the same answer.

import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/raw-http.js';
import type { RawAnswer } from '../testing/raw-http.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';

const balanceBody = '{}';

function getBalance(service: TestService, token: string, from: string, accept = 'application/json') {
  return rawRequest(service.url, {
    path: '/api/get_balance',
    localAddress: from,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: accept },
    body: balanceBody,
  });
}

function codeOf(answer: RawAnswer): string {
  return (JSON.parse(answer.body) as { status: { code: string } }).status.code;
}

/** The answer without what differs between any two requests: its id and the time it was sent. */
function comparable(answer: RawAnswer): unknown {
  const { date: _date, 'x-request-id': _requestId, ...headers } = answer.headers;
  return { status: answer.status, headers, body: answer.body };
}

describe.each(openTestStores())('authentication against guessing, on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store);
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('refuses an address with 5000 and HTTP 429 after 20 failed authentications, even with a valid token', async () => {
    const { token } = await service.createCaller();
    const guesses: RawAnswer[] = [];
    for (let guess = 0; guess < 20; guess += 1) {
      guesses.push(await getBalance(service, `tk_test_${String(guess).padStart(32, 'x')}`, '127.0.0.2'));
    }
    expect(guesses.map((answer) => `${answer.status} ${codeOf(answer)}`)).toEqual(
      Array.from({ length: 20 }, () => '401 4000'),
    );

    const refused = await getBalance(service, token, '127.0.0.2');
    expect(refused.status).toBe(429);
    expect(codeOf(refused)).toBe('5000');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

    const elsewhere = await getBalance(service, token, '127.0.0.3');
    expect(`${elsewhere.status} ${codeOf(elsewhere)}`).toBe('200 0000');
  });

  it('lets an address try again once its window has passed', async () => {
    const quick = await startTestService(store, {
      env: { AUTH_FAILURE_LIMIT: '2', AUTH_FAILURE_WINDOW_SECONDS: '1' },
    });
    try {
      const { token } = await quick.createCaller();
      await getBalance(quick, 'tk_test_wrong', '127.0.0.4');
      await getBalance(quick, 'tk_test_wrong', '127.0.0.4');
      expect((await getBalance(quick, token, '127.0.0.4')).status).toBe(429);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await getBalance(quick, token, '127.0.0.4')).status).toBe(200);
    } finally {
      await quick.stop();
    }
  });

  it('accepts the bearer scheme in any case, as RFC 7235 makes it case-insensitive', async () => {
    const { token } = await service.createCaller();
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const answer = await rawRequest(service.url, {
        path: '/api/get_balance',
        localAddress: '127.0.0.6',
        headers: { Authorization: `${scheme} ${token}`, 'Content-Type': 'application/json' },
        body: balanceBody,
      });
      expect(`${scheme}: ${answer.status} ${codeOf(answer)}`).toBe(`${scheme}: 200 0000`);
    }
  });

  it('answers an unknown token and a revoked token identically, in JSON and in XML', async () => {
    const { account } = await service.createCaller();
    const { tokenId, token: revoked } = await service.ledger.issueToken(account.id, 'test');
    expect((await getBalance(service, revoked, '127.0.0.5')).status).toBe(200);
    await service.ledger.revokeToken(tokenId);
    // Same shape and length as a real token, never issued.
    const unknown = `tk_test_${'Q'.repeat(32)}`;
    for (const accept of ['application/json', 'text/xml']) {
      const unknownAnswer = await getBalance(service, unknown, '127.0.0.5', accept);
      const revokedAnswer = await getBalance(service, revoked, '127.0.0.5', accept);
      expect(unknownAnswer.status).toBe(401);
      expect(comparable(revokedAnswer)).toEqual(comparable(unknownAnswer));
    }
  });
});
