import { createLedger, type Ledger, type Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from './audit-log.js';
import { call, cliContext, consoleContext } from './testing/operator-calls.js';
import { operatorStores, type OperatorStore } from './testing/operator-stores.js';
import { createUser, findUserByEmail } from './users.js';

describe.each(operatorStores())('audited changes on %s', (_name, open) => {
  let opened: OperatorStore;
  let store: Store;
  let ledger: Ledger;

  beforeAll(async () => {
    opened = await open();
    store = opened.store;
    ledger = createLedger(store);
    // The audit log refuses this actor's records, as a full disk or a broken table would.
    await store.query(
      `ALTER TABLE audit_records ADD CONSTRAINT refuses_unrecorded CHECK (actor <> 'unrecorded@example.com')`,
    );
  });
  afterAll(async () => {
    await ledger.close();
    await opened.dispose();
  });

  it('makes no change whose audit record cannot be written, since both are one transaction', async () => {
    const account = await ledger.createAccount({ name: 'Untouched Ltd' });
    const { endpoint } = await ledger.addCallbackEndpoint(account.id, {
      url: 'https://untouched.example/hooks',
      format: 'json',
    });
    await createUser(store, { email: 'kept@example.com', role: 'support' }, new Date());
    const unrecorded = consoleContext(ledger, store, 'unrecorded@example.com');
    const attempts: [string, Record<string, unknown>][] = [
      ['create_account', { name: 'Never Made' }],
      ['set_account_status', { account: account.id, status: 'suspended' }],
      ['issue_token', { account: account.id }],
      ['fund_channel', { account: account.id, channel: 'float', amount: '10' }],
      ['fund_channel', { account: account.id, channel: 'float', amount: '5000' }],
      ['add_callback_endpoint', { account: account.id, url: 'https://never.example/hooks' }],
      ['rotate_callback_secret', { account: account.id, endpoint_id: endpoint.id }],
      ['remove_callback_endpoint', { account: account.id, endpoint_id: endpoint.id }],
      ['create_user', { email: 'never@example.com', role: 'support' }],
      ['disable_user', { email: 'kept@example.com' }],
    ];
    for (const [name, body] of attempts)
      await expect(call(unrecorded, name, body), name).rejects.toThrow(/refuses_unrecorded/);

    const { rows } = await store.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM accounts WHERE name = 'Never Made'`,
    );
    expect(rows[0]?.count).toBe(0);
    expect(await ledger.getAccount(account.id)).toMatchObject({ status: 'active' });
    expect(await ledger.listTokens(account.id)).toEqual([]);
    expect((await ledger.balance(account.id, 'float')).availableMinor).toBe(0n);
    const { rows: requests } = await store.query('SELECT 1 FROM funding_requests WHERE account_id = $1', [
      account.id,
    ]);
    expect(requests).toEqual([]);
    expect((await ledger.listCallbackEndpoints(account.id)).map((one) => one.id)).toEqual([endpoint.id]);
    expect(await ledger.endpointSecrets(endpoint.id)).toHaveLength(1);
    expect(await findUserByEmail(store, 'never@example.com')).toBeUndefined();
    expect((await findUserByEmail(store, 'kept@example.com'))?.disabledAt).toBeUndefined();
  });

  it('records what the CLI changes on an account’s callbacks, under its one actor', async () => {
    const account = await ledger.createAccount({ name: 'Hooks Ltd' });
    const cli = cliContext(ledger, store, 'operator');
    const { endpoint } = await call<{ endpoint: { id: string } }>(cli, 'add_callback_endpoint', {
      account: account.id,
      url: 'https://hooks.example/callbacks',
    });
    await call(cli, 'rotate_callback_secret', { account: account.id, endpoint_id: endpoint.id });
    await call(cli, 'remove_callback_endpoint', { account: account.id, endpoint_id: endpoint.id });
    const { records } = await listAudit(store, { actor: 'cli:operator', limit: 10 });
    expect(records.map((record) => [record.action, record.target])).toEqual([
      ['remove_callback_endpoint', account.id],
      ['rotate_callback_secret', account.id],
      ['add_callback_endpoint', account.id],
    ]);
    expect(JSON.stringify(records)).not.toContain('whsec_');
  });
});
