// The release rehearsal's smoke test, run by `node smoke.mjs <package>…` in a clean project that
// installed the published packages. It imports each package by name, as a user would, and uses it
// through its public API only. Every public package needs a check here, or the rehearsal fails.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

const checks = {
  async '@topup/envelope'({ decodeJsonEnvelope, decodeXmlEnvelope, encodeJson, encodeXml, success }) {
    const body = success('Balance found', {
      channels: [{ type: 'Agent Float', currency: 'KES', balance: '1500.00' }],
    });
    const json = encodeJson(body);
    assert.match(json, /"balance":1500\.00/);
    assert.deepEqual(decodeJsonEnvelope(json), body);
    assert.deepEqual(decodeXmlEnvelope(encodeXml(body)), body);
    return 'encoded and decoded a balance envelope as JSON and XML';
  },

  async '@topup/validation'({ normalizeMobile, parseSendAgentFloat }) {
    const valid = parseSendAgentFloat({
      mobile: '0712345678',
      amount: '500',
      agent_number: '1',
      store_number: '2',
    });
    assert.equal(valid.ok, true);
    assert.equal(valid.value.mobile, '254712345678');
    assert.equal(valid.value.network, 'MoneyNetA');
    assert.deepEqual(parseSendAgentFloat({ amount: 'ten' }), {
      ok: false,
      errors: ["'mobile is required.'", "'amount is invalid'"],
    });
    assert.equal(normalizeMobile('+254 712 345 678'), '254712345678');
    return 'validated a send_agent_float request and rejected a bad one';
  },

  async '@topup/providers'({ createSandboxSimulator, sandboxOutcome }) {
    const { createLedger, openStore } = await import('@topup/ledger');
    const { parseSendAgentFloat } = await import('@topup/validation');
    const parsed = parseSendAgentFloat({
      mobile: '0712345678',
      amount: 100,
      agent_number: '1',
      store_number: '2',
    });
    assert.equal(parsed.ok, true, JSON.stringify(parsed));
    const store = await openStore({ dataDir: 'memory://' });
    const ledger = createLedger(store);
    try {
      const account = await ledger.createAccount({ name: 'Smoke Test Supplies' });
      await ledger.fund(account.id, 'float', 500_000n);
      const created = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
      assert.equal(created.kind, 'created');
      const { transaction } = created;
      assert.equal(sandboxOutcome(transaction), 'completes');
      const simulator = createSandboxSimulator(store, { delayMs: 0 });
      assert.deepEqual(await simulator.submit(transaction), { kind: 'accepted' });
      const [result] = await simulator.readyResults(10);
      assert.equal(result.reference, transaction.reference);
      assert.equal(result.outcome, 'completed');
      await simulator.acknowledge([result.id]);
      assert.deepEqual(await simulator.readyResults(10), []);
      return 'the sandbox simulator took a float and gave its completion once';
    } finally {
      await ledger.close();
      await store.close();
    }
  },

  async '@topup/signing'({ generateSecret, signCallback, verifyCallback }) {
    const { createHash } = await import('node:crypto');
    const secret = generateSecret();
    const body = '{"status":{"type":"SUCCESS"}}';
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = signCallback({ secrets: [secret], id: 'cb_smoke', timestamp, body });
    assert.deepEqual(verifyCallback({ secrets: [secret], headers, body }), {
      ok: true,
      id: 'cb_smoke',
      timestamp,
      key: `sha256:${createHash('sha256').update(body).digest('hex')}`,
    });
    const tampered = verifyCallback({ secrets: [secret], headers, body: `${body} ` });
    assert.equal(tampered.ok, false);
    assert.equal(tampered.reason, 'no_match');
    return 'signed a callback, verified it, and rejected a tampered body';
  },

  async '@topup/ledger'({ createLedger, openStore }) {
    const { parseSendAgentFloat } = await import('@topup/validation');
    const floatRequest = (amount) => {
      const parsed = parseSendAgentFloat({
        mobile: '0712345678',
        amount,
        agent_number: '1',
        store_number: '2',
      });
      assert.equal(parsed.ok, true, JSON.stringify(parsed));
      return parsed.value;
    };
    const store = await openStore({ dataDir: 'memory://' });
    const ledger = createLedger(store);
    try {
      const account = await ledger.createAccount({ name: 'Smoke Test Supplies' });
      await ledger.fund(account.id, 'float', 500_000n);
      const created = await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest(1500) });
      assert.equal(created.kind, 'created');
      assert.equal(created.channel.availableMinor, 350_000n);
      assert.equal(created.channel.pendingMinor, 150_000n);
      const refused = await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest(5000) });
      assert.equal(refused.kind, 'insufficient_balance');

      // The provider's result: the reservation is posted, so the money leaves the channel for good.
      const { reference } = created.transaction;
      const completed = await ledger.complete(reference, { providerCode: 'SMOKE-0001' });
      assert.equal(completed.kind, 'resolved');
      assert.equal(completed.transaction.state, 'completed');
      assert.equal(completed.transaction.code, 'SMOKE-0001');
      const posted = await ledger.balance(account.id, 'float');
      assert.equal(posted.postedMinor, 350_000n);
      assert.equal(posted.pendingMinor, 0n);
      assert.equal(posted.availableMinor, 350_000n);
      // A late cancellation finds it resolved and moves nothing.
      const late = await ledger.cancel(reference, { reason: 'late provider answer' });
      assert.equal(late.kind, 'already_resolved');
      assert.deepEqual(await ledger.balance(account.id, 'float'), posted);
      assert.equal((await ledger.findTransaction(reference))?.state, 'completed');

      const report = await ledger.verify();
      assert.equal(report.ok, true, report.breaches.join('; '));
      assert.deepEqual(report.breaches, []);
      // The funding, the reservation and its posting; the refused request wrote nothing.
      assert.equal(report.checked.transactions, 1);
      assert.equal(report.checked.transfers, 3);
      return 'reserved KES 1,500.00 of 5,000.00 on PGlite, refused 5,000.00 more, completed the transfer (3,500.00 left, nothing pending), ledger verified';
    } finally {
      await ledger.close();
      await store.close();
    }
  },

  async '@topup/client'({ createClient, InvalidParametersError }) {
    const { encodeJson, failure, success } = await import('@topup/envelope');
    const requests = [];
    const server = createServer((request, response) => {
      requests.push({ url: request.url, authorization: request.headers.authorization });
      const envelope =
        request.url === '/api/get_balance'
          ? success('Balance found', {
              channels: [{ type: 'Agent Float', currency: 'KES', balance: '1500.00' }],
            })
          : failure('3000', ["'mobile is required.'"]);
      response.writeHead(envelope.status.type === 'SUCCESS' ? 200 : 422, {
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': 'req_smoke',
      });
      response.end(encodeJson(envelope));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address();
      const topup = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'tk_test_smoke', retries: 0 });
      const balance = await topup.getBalance();
      assert.deepEqual(balance.channels, [{ type: 'Agent Float', currency: 'KES', balance: '1500.00' }]);
      assert.equal(balance.requestId, 'req_smoke');
      await assert.rejects(
        topup.getTransaction({ reference: 'TX1' }),
        (error) => error instanceof InvalidParametersError && error.errors[0] === "'mobile is required.'",
      );
      assert.deepEqual(requests, [
        { url: '/api/get_balance', authorization: 'Bearer tk_test_smoke' },
        { url: '/api/get_transaction', authorization: 'Bearer tk_test_smoke' },
      ]);
      return 'read a balance from a node:http server and got a typed 3000 error';
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  },
};

const names = process.argv.slice(2);
assert.ok(names.length > 0, 'usage: node smoke.mjs <package name>…');
for (const name of names) {
  const check = checks[name];
  if (check === undefined)
    throw new Error(`No smoke check for ${name}: add one to scripts/rehearsal/smoke.mjs`);
  console.log(`ok ${name}: ${await check(await import(name))}`);
}
