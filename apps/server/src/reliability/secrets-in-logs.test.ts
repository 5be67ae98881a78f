// Secrets stay out of the logs: a full run of the server and the worker at the most verbose level (tokens
// used, refused and revoked; endpoints added and their secrets rotated; float and airtime in JSON and XML;
// callbacks signed and delivered, and resent; a failing provider) leaves no token, callback secret or
// signature in any log line.

import type { Store } from '@topup/ledger';
import type { Provider } from '@topup/providers';
import { createSandboxSimulator } from '@topup/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../testing/callback-sink.js';
import type { CallbackSink } from '../testing/callback-sink.js';
import { eventually } from '../testing/eventually.js';
import { captureLogs } from '../testing/log-capture.js';
import type { LogCapture } from '../testing/log-capture.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf, xmlBody } from '../testing/wire.js';

/** The simulator, except that a float to a number ending in 0666 makes it throw. */
function sometimesThrowing(store: Store): Provider {
  const simulator = createSandboxSimulator(store, { delayMs: 20 });
  return {
    ...simulator,
    submit: (transaction) =>
      transaction.recipient.mobile.endsWith('0666')
        ? Promise.reject(new Error('provider exploded'))
        : simulator.submit(transaction),
  };
}

describe.each(openTestStores())('secrets in the logs of a full run, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let sink: CallbackSink;
  let logs: LogCapture;

  beforeAll(async () => {
    store = await stores.open();
    sink = await startCallbackSink();
    logs = captureLogs('trace');
    service = await startTestService(store, {
      worker: true,
      logger: logs.logger,
      provider: sometimesThrowing,
      env: { LOG_LEVEL: 'trace' },
    });
  });

  afterAll(async () => {
    await service.stop();
    await sink.close();
    await stores.close(store);
  });

  it('writes no token, callback secret or signature into any log line', async () => {
    const { account, token } = await service.createCaller({ float: 10_000_000n });
    const { tokenId, token: revoked } = await service.ledger.issueToken(account.id, 'test');
    const secrets: string[] = [];
    const added = await envelopeOf(
      await service.call('add_callback_endpoint', {
        token,
        json: { url: sink.url, format: 'json', description: 'logs' },
      }),
    );
    const endpoint = added.data.endpoint as { id: string; secret: string };
    secrets.push(endpoint.secret);
    const rotated = await envelopeOf(
      await service.call('rotate_callback_secret', { token, json: { endpoint_id: endpoint.id } }),
    );
    secrets.push((rotated.data.endpoint as { secret: string }).secret);

    const float = { mobile: '254712345678', amount: '100', agent_number: '1', store_number: '2' };
    const airtime = {
      mobile: '254712345677',
      amount: '50',
      payment_network: 'MoneyNetA',
      payment_mobile: '254712345676',
    };
    const answers = [
      await service.call('send_agent_float', {
        token,
        json: float,
        headers: { 'Idempotency-Key': 'logs-1' },
      }),
      await service.call('send_agent_float', {
        token,
        json: float,
        headers: { 'Idempotency-Key': 'logs-1' },
      }),
      await service.call('buy_airtime', {
        token,
        body: xmlBody(airtime),
        headers: { 'Content-Type': 'text/xml', Accept: 'text/xml' },
      }),
      await service.call('send_agent_float', { token, json: { ...float, mobile: '254712340666' } }),
      // Another last character: one in 62 tokens already ends in x.
      await service.call('get_balance', { token: `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}` }),
      await service.call('get_balance', { headers: { Authorization: `Basic ${token}` } }),
      await service.call('get_balance', { token, json: { token, secret: endpoint.secret } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 502, 401, 401, 200]);
    await service.ledger.revokeToken(tokenId);
    expect((await service.call('get_balance', { token: revoked })).status).toBe(401);
    await eventually('two callbacks', () => (sink.arrived.length >= 2 ? true : undefined), 15_000);
    const reference = sink.arrived[0]?.reference ?? '';
    await service.call('resend_callback', { token, json: { reference } });
    await eventually('the resent callback', () => (sink.arrived.length >= 3 ? true : undefined), 15_000);

    const signatures = sink.arrived.flatMap((callback) => [
      ...String(callback.headers['signature-hash']).split(' '),
      ...String(callback.headers['webhook-signature'])
        .split(' ')
        .flatMap((signature) => [signature, signature.replace(/^v1,/, '')]),
    ]);
    const forbidden = [
      ...[token, revoked].flatMap((value) => [value, value.slice('tk_test_'.length)]),
      ...secrets.flatMap((secret) => [secret, secret.slice('whsec_'.length)]),
      ...signatures,
    ];
    // The capture works: requests, provider results and deliveries were all logged.
    const messages = logs.records().map((line) => line.msg);
    expect(messages).toEqual(
      expect.arrayContaining(['request', 'provider result applied', 'callback delivered']),
    );
    const leaking = logs.lines.filter((line) => forbidden.some((secret) => line.includes(secret)));
    expect(leaking).toEqual([]);
  });
});
