// Authentication against guessing: failed authentications are limited per client (20 a minute by
// default; an IPv6 client is its /64), after which that client's failed authentications are answered 5000
// with HTTP 429, however many arrive at once, while its valid tokens are still served; other clients are
// unaffected, behind a proxy the client is the one X-Forwarded-For names (TRUST_PROXY), and an unknown
// token and a revoked one get the same answer.

import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/raw-http.js';
import type { RawAnswer } from '../testing/raw-http.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';

const balanceBody = '{}';

function getBalance(
  service: TestService,
  token: string,
  from: string,
  accept = 'application/json',
  headers: Record<string, string> = {},
) {
  return rawRequest(service.url, {
    path: '/api/get_balance',
    localAddress: from,
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: accept,
      ...headers,
    },
    body: balanceBody,
  });
}

function guess(index: number): string {
  return `tk_test_${String(index).padStart(32, 'x')}`;
}

/** `<HTTP status> <code>`: what a caller sees first. */
function outcome(answer: RawAnswer): string {
  return `${answer.status} ${codeOf(answer)}`;
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

  it('answers an address’s failures 5000 and HTTP 429 after 20 of them, and still serves its valid tokens', async () => {
    const { token } = await service.createCaller();
    const guesses: RawAnswer[] = [];
    for (let index = 0; index < 20; index += 1) {
      guesses.push(await getBalance(service, guess(index), '127.0.0.2'));
    }
    expect(guesses.map(outcome)).toEqual(Array.from({ length: 20 }, () => '401 4000'));

    const refused = await getBalance(service, guess(20), '127.0.0.2');
    expect(outcome(refused)).toBe('429 5000');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(outcome(await getBalance(service, 'not a token', '127.0.0.2'))).toBe('429 5000');

    expect(outcome(await getBalance(service, token, '127.0.0.2'))).toBe('200 0000');
    expect(outcome(await getBalance(service, guess(21), '127.0.0.3'))).toBe('401 4000');
  });

  it('answers exactly 20 of 200 simultaneous guesses from one address with 4000, the rest with 429', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) => getBalance(service, guess(1_000 + index), '127.0.0.7')),
    );
    const counts = new Map<string, number>();
    for (const answer of answers) counts.set(outcome(answer), (counts.get(outcome(answer)) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ '401 4000': 20, '429 5000': 180 });
  });

  it('lets an address try again once its window has passed', async () => {
    const quick = await startTestService(store, {
      env: { AUTH_FAILURE_LIMIT: '2', AUTH_FAILURE_WINDOW_SECONDS: '1' },
    });
    try {
      await getBalance(quick, guess(1), '127.0.0.4');
      await getBalance(quick, guess(2), '127.0.0.4');
      expect(outcome(await getBalance(quick, guess(3), '127.0.0.4'))).toBe('429 5000');
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(outcome(await getBalance(quick, guess(4), '127.0.0.4'))).toBe('401 4000');
    } finally {
      await quick.stop();
    }
  });

  it('counts the client X-Forwarded-For names with TRUST_PROXY, an IPv6 client by its /64, and ignores the header without', async () => {
    const behindProxy = await startTestService(store, {
      env: { AUTH_FAILURE_LIMIT: '2', TRUST_PROXY: 'true' },
    });
    const direct = await startTestService(store, { env: { AUTH_FAILURE_LIMIT: '2' } });
    try {
      const { token } = await behindProxy.createCaller();
      // What the client wrote comes first; the proxy appends the address it saw.
      const from = (client: string) => ({ 'X-Forwarded-For': `203.0.113.9, ${client}` });
      const viaProxy = (tokenOrGuess: string, client: string) =>
        getBalance(behindProxy, tokenOrGuess, '127.0.0.8', 'application/json', from(client));
      expect(outcome(await viaProxy(guess(1), '2001:db8:1:2::a'))).toBe('401 4000');
      expect(outcome(await viaProxy(guess(2), '2001:db8:1:2::b'))).toBe('401 4000');
      expect(outcome(await viaProxy(guess(3), '2001:db8:1:2::c'))).toBe('429 5000');
      expect(outcome(await viaProxy(token, '2001:db8:1:2::c'))).toBe('200 0000');
      expect(outcome(await viaProxy(guess(4), '2001:db8:1:3::a'))).toBe('401 4000');
      expect(outcome(await viaProxy(guess(5), '198.51.100.7'))).toBe('401 4000');

      const viaNothing = (client: string) =>
        getBalance(direct, guess(6), '127.0.0.9', 'application/json', from(client));
      expect(outcome(await viaNothing('198.51.100.1'))).toBe('401 4000');
      expect(outcome(await viaNothing('198.51.100.2'))).toBe('401 4000');
      expect(outcome(await viaNothing('198.51.100.3'))).toBe('429 5000');
    } finally {
      await behindProxy.stop();
      await direct.stop();
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
