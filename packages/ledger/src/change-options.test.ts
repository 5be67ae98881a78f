import { parseSendAgentFloat } from '@topup/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type ChangeOptions, type Ledger } from './ledger.js';
import type { Queryable } from './store.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

describe.each(testStoreKinds())('what an operator writes beside a change, on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store);
    await test.store.query('CREATE TABLE beside (what text NOT NULL)');
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  const noted: string[] = [];
  /** Options that write `what` beside the change (and note what they were told), or that fail. */
  function beside<R>(what: string, fail = false): ChangeOptions<R> {
    return {
      alongside: async (tx: Queryable, result: R) => {
        noted.push(
          JSON.stringify(result, (_key, value: unknown) =>
            typeof value === 'bigint' ? value.toString() : value,
          ),
        );
        await tx.query('INSERT INTO beside VALUES ($1)', [what]);
        if (fail) throw new Error(`${what} refused`);
      },
    };
  }
  async function written(): Promise<string[]> {
    const { rows } = await test.store.query<{ what: string }>('SELECT what FROM beside ORDER BY what');
    return rows.map((row) => row.what);
  }

  it('commits with each change, is told no secret, and cancels the change when it throws', async () => {
    const account = await ledger.createAccount({ name: 'Beside Ltd' }, beside('account'));
    const { tokenId, token } = await ledger.issueToken(account.id, 'test', beside('token'));
    await ledger.revokeToken(tokenId, beside('revoke'));
    await ledger.setAccountStatus(account.id, 'suspended', beside('suspend'));
    await ledger.setAccountStatus(account.id, 'active');
    const { endpoint, secret } = await ledger.addCallbackEndpoint(
      account.id,
      { url: 'https://example.com/hooks', format: 'json' },
      beside('endpoint'),
    );
    const rotated = await ledger.rotateCallbackSecret(account.id, endpoint.id, 60, beside('rotate'));
    expect(await written()).toEqual(['account', 'endpoint', 'revoke', 'rotate', 'suspend', 'token']);
    for (const shown of [token, secret, rotated ?? '']) expect(noted.join('\n')).not.toContain(shown);

    const refused = await ledger.createAccount({ name: 'Never Made' }, beside('never', true)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as Error).message).toBe('never refused');
    const { rows } = await test.store.query(`SELECT 1 FROM accounts WHERE name = 'Never Made'`);
    expect(rows).toEqual([]);
    expect(
      await ledger.removeCallbackEndpoint(account.id, endpoint.id, beside('remove', true)).catch(() => false),
    ).toBe(false);
    expect((await ledger.listCallbackEndpoints(account.id)).map((one) => one.id)).toEqual([endpoint.id]);
    expect(await written()).not.toContain('never');
  });

  it('is not called when the change changed nothing', async () => {
    const account = await ledger.createAccount({ name: 'Nothing Ltd' });
    const before = await written();
    expect(await ledger.removeCallbackEndpoint(account.id, 'ep_missing', beside('gone'))).toBe(false);
    expect(
      await ledger.rotateCallbackSecret(account.id, 'ep_missing', 60, beside('rotated')),
    ).toBeUndefined();
    expect(await ledger.resendCallbacks(account.id, 'TXMISSING', undefined, beside('resent'))).toBe(0);
    expect(await written()).toEqual(before);
  });

  it('commits with a reviewed leg’s settlement', async () => {
    const account = await ledger.createAccount({ name: 'Reviewed Ltd' });
    await ledger.fund(account.id, 'float', 100_000n);
    const parsed = parseSendAgentFloat({ mobile: '254733000123', amount: '100' });
    if (!parsed.ok) throw new Error(parsed.errors.join(', '));
    const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
    if (outcome.kind !== 'created') throw new Error(`expected a transaction, received ${outcome.kind}`);
    const { reference } = outcome.transaction;
    await ledger.noteUnsettledLeg(reference, {
      state: 'unknown',
      provider: 'sandbox',
      nextQueryAt: new Date(),
      review: true,
    });
    const settled = await ledger.settleReviewedLeg(
      `${reference}-disbursement`,
      { as: 'failed', by: 'amina' },
      beside(`settled ${reference}`),
    );
    expect(settled).toMatchObject({ kind: 'resolved', transaction: { state: 'cancelled' } });
    expect(await written()).toContain(`settled ${reference}`);
    expect(noted.at(-1)).toContain('"cancelled"');
  });
});
