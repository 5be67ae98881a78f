// The Daraja client against the fake Daraja over real HTTP: tokens issued and shared, a token invalidated
// by another process renewed without failing the call, and every failure an answer rather than a throw.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDaraja, type FakeDaraja } from '../fakes/fake-daraja.js';
import { createSharedAccessToken } from '../shared-access-token.js';
import { callDaraja, issueDarajaToken, type DarajaEndpoint } from './daraja-client.js';
import { stkPushRequest } from './stk-push-request.js';

const credentials = { consumerKey: 'fake-key', consumerSecret: 'fake-secret-do-not-log' };
const app = { shortCode: '174379', passkey: 'fake-passkey' };

describe('the Daraja client against the fake Daraja', () => {
  let fake: FakeDaraja;
  let store: Store;
  let endpoint: DarajaEndpoint;
  let provider = 0;

  beforeAll(async () => {
    fake = await startFakeDaraja({ ...credentials, ...app });
    store = await openStore({ dataDir: 'memory://' });
    endpoint = { baseUrl: fake.url, timeoutMs: 2_000 };
  }, 60_000);
  afterAll(async () => {
    await fake.close();
    await store.close();
  });

  const tokens = () =>
    createSharedAccessToken({
      store,
      provider: `daraja-${String((provider += 1))}`,
      issue: () => issueDarajaToken(endpoint, credentials),
    });

  const push = (amountMinor = 5_000n) =>
    stkPushRequest({
      ...app,
      transactionType: 'CustomerPayBillOnline',
      partyB: app.shortCode,
      payerMobile: '254708374149',
      amountMinor,
      callbackUrl: 'http://127.0.0.1:1/providers/daraja/token/stk',
      accountReference: 'Airtime for 0708374149',
      description: 'Airtime purchase',
      at: new Date(),
    });

  it('is issued a token, reading expires_in sent as a string', async () => {
    const issued = await issueDarajaToken(endpoint, credentials);
    expect(issued.token).toMatch(/^[\w-]{20,}$/);
    expect(issued.expiresInSeconds).toBe(3599);
  });

  it('says why no token was issued, and never shows the secret', async () => {
    const refused = issueDarajaToken(endpoint, { ...credentials, consumerSecret: 'wrong-secret' });
    await expect(refused).rejects.toThrow(
      'Daraja refused a token (HTTP 400 400.008.01 Invalid Authentication passed).',
    );
    await refused.catch((error: unknown) => {
      expect(String(error)).not.toContain('wrong-secret');
    });
  });

  it('sends an STK Push the fake accepts, with the password and cut-to-fit fields Daraja checks', async () => {
    const answer = await callDaraja(endpoint, tokens(), '/mpesa/stkpush/v1/processrequest', push());
    expect(answer).toMatchObject({ kind: 'ok', body: { ResponseCode: '0' } });
    const sent = fake.requests.at(-1)?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      Amount: 50,
      AccountReference: 'Airtime for ',
      TransactionDesc: 'Airtime purch',
    });
  });

  it('renews a token another process invalidated, and the call succeeds on the one retry', async () => {
    const shared = tokens();
    await shared.current();
    fake.issueTokenElsewhere();
    const before = fake.tokensIssued;
    const answer = await callDaraja(endpoint, shared, '/mpesa/stkpush/v1/processrequest', push());
    expect(answer.kind).toBe('ok');
    expect(fake.tokensIssued).toBe(before + 1);
  });

  it('hands back Daraja’s refusal of a request as an error, without repeating it', async () => {
    const before = fake.requests.length;
    const body = { ...push(), Amount: 0 };
    const answer = await callDaraja(endpoint, tokens(), '/mpesa/stkpush/v1/processrequest', body);
    expect(answer).toMatchObject({
      kind: 'error',
      error: { status: 400, errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid Amount' },
    });
    // A token fetch and one request: the refused request is not sent again.
    expect(fake.requests.length - before).toBe(2);
  });

  it('refuses to build a prompt for part of a shilling', () => {
    expect(() => push(5_050n)).toThrow(
      'Expected whole shillings for an M-Pesa payment, received 5050 cents.',
    );
  });

  it('answers no_answer when Daraja is silent past the time limit, and not_sent when nothing listens', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const slow = { baseUrl: `http://127.0.0.1:${String(port)}`, timeoutMs: 200 };
    await expect(issueDarajaToken(slow, credentials)).rejects.toThrow(
      'Daraja issued no token: no answer within 200 ms.',
    );
    silent.closeAllConnections();
    await new Promise<void>((resolve) =>
      silent.close(() => {
        resolve();
      }),
    );
    const closed = await callDaraja(
      { baseUrl: slow.baseUrl, timeoutMs: 200 },
      { current: () => Promise.resolve('t'), renew: () => Promise.resolve('t') },
      '/mpesa/stkpush/v1/processrequest',
      push(),
    );
    expect(closed).toEqual({ kind: 'not_sent', problem: 'the connection was refused' });
  });
});
