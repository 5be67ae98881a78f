import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from './ledger.js';
import { LedgerError } from './ledger-error.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

describe.each(testStoreKinds())('accounts and tokens on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store);
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  describe('accounts', () => {
    it('creates an active account with its profile and two empty channels', async () => {
      const account = await ledger.createAccount({
        name: '  Duka Supplies  ',
        mobile: '254722000001',
        agent_number: '123456',
      });
      expect(account).toMatchObject({
        name: 'Duka Supplies',
        mobile: '254722000001',
        email: '',
        agent_number: '123456',
        store_number: '',
        status: 'active',
      });
      expect(account.id).toMatch(/^acct_[0-9A-Za-z]{16}$/);
      await expect(ledger.getAccount(account.id)).resolves.toEqual(account);
      const float = await ledger.balance(account.id, 'float');
      expect(float).toEqual({
        channel: 'float',
        currency: 'KES',
        postedMinor: 0n,
        pendingMinor: 0n,
        availableMinor: 0n,
      });
    });

    it('refuses a blank name', async () => {
      await expect(ledger.createAccount({ name: '   ' })).rejects.toThrow(/non-blank account name/);
    });

    it('lists accounts oldest first', async () => {
      const first = await ledger.createAccount({ name: 'First' });
      const second = await ledger.createAccount({ name: 'Second' });
      const ids = (await ledger.listAccounts()).map((account) => account.id);
      expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    });

    it('answers undefined for an unknown account', async () => {
      await expect(ledger.getAccount('acct_nobody')).resolves.toBeUndefined();
    });

    it('suspends and resumes an account', async () => {
      const account = await ledger.createAccount({ name: 'Sometimes' });
      await expect(ledger.setAccountStatus(account.id, 'suspended')).resolves.toMatchObject({
        status: 'suspended',
      });
      await expect(ledger.setAccountStatus(account.id, 'active')).resolves.toMatchObject({
        status: 'active',
      });
    });

    it('keeps a closed account closed', async () => {
      const account = await ledger.createAccount({ name: 'Gone' });
      await ledger.setAccountStatus(account.id, 'closed');
      const reopening = ledger.setAccountStatus(account.id, 'active');
      await expect(reopening).rejects.toBeInstanceOf(LedgerError);
      await expect(reopening).rejects.toMatchObject({ code: 'account_closed' });
      await expect(ledger.setAccountStatus(account.id, 'closed')).resolves.toMatchObject({
        status: 'closed',
      });
      await expect(ledger.getAccount(account.id)).resolves.toMatchObject({ status: 'closed' });
    });

    it('reports an unknown account when changing its status', async () => {
      await expect(ledger.setAccountStatus('acct_nobody', 'suspended')).rejects.toMatchObject({
        code: 'account_not_found',
      });
    });
  });

  describe('tokens', () => {
    it('issues a token that authenticates its account, with the mode in its prefix', async () => {
      const account = await ledger.createAccount({ name: 'Token Holder' });
      const { token, tokenId } = await ledger.issueToken(account.id, 'live');
      expect(token).toMatch(/^tk_live_[0-9A-Za-z]{32}$/);
      const session = await ledger.authenticate(token);
      expect(session).toEqual({ account: await ledger.getAccount(account.id), tokenId, mode: 'live' });
    });

    it('stores only the SHA-256 hash and a 12-character prefix, never the token', async () => {
      const account = await ledger.createAccount({ name: 'Careful' });
      const { token, tokenId } = await ledger.issueToken(account.id, 'test');
      const { rows } = await test.store.query('SELECT * FROM api_tokens WHERE id = $1', [tokenId]);
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain(token);
      expect(rows[0]).toMatchObject({
        token_hash: createHash('sha256').update(token).digest('hex'),
        prefix: token.slice(0, 12),
      });
    });

    it('lists tokens with prefix and mode but no hash', async () => {
      const account = await ledger.createAccount({ name: 'Lister' });
      const issued = await ledger.issueToken(account.id, 'test');
      const listed = await ledger.listTokens(account.id);
      expect(listed).toEqual([
        {
          id: issued.tokenId,
          accountId: account.id,
          prefix: issued.token.slice(0, 12),
          mode: 'test',
          createdAt: expect.any(Date) as Date,
          revokedAt: undefined,
        },
      ]);
      expect(JSON.stringify(listed)).not.toMatch(/[0-9a-f]{64}/);
    });

    it('no longer authenticates a revoked token, and lists when it was revoked', async () => {
      const account = await ledger.createAccount({ name: 'Revoker' });
      const { token, tokenId } = await ledger.issueToken(account.id, 'test');
      await ledger.revokeToken(tokenId);
      await expect(ledger.authenticate(token)).resolves.toBeUndefined();
      const [listed] = await ledger.listTokens(account.id);
      expect(listed?.revokedAt).toBeInstanceOf(Date);
      await expect(ledger.revokeToken(tokenId)).resolves.toBeUndefined();
    });

    it('does not authenticate an unknown token, even one of the right shape', async () => {
      await expect(ledger.authenticate('tk_test_' + 'A'.repeat(32))).resolves.toBeUndefined();
      await expect(ledger.authenticate('')).resolves.toBeUndefined();
    });

    it('still authenticates the token of a suspended account, leaving the refusal to the caller', async () => {
      const account = await ledger.createAccount({ name: 'Paused' });
      const { token } = await ledger.issueToken(account.id, 'test');
      await ledger.setAccountStatus(account.id, 'suspended');
      await expect(ledger.authenticate(token)).resolves.toMatchObject({ account: { status: 'suspended' } });
    });

    it('refuses to issue a token for an unknown or closed account and to revoke an unknown token', async () => {
      await expect(ledger.issueToken('acct_nobody', 'test')).rejects.toMatchObject({
        code: 'account_not_found',
      });
      const closed = await ledger.createAccount({ name: 'Closed' });
      await ledger.setAccountStatus(closed.id, 'closed');
      await expect(ledger.issueToken(closed.id, 'test')).rejects.toMatchObject({ code: 'account_closed' });
      await expect(ledger.revokeToken('tok_nobody')).rejects.toMatchObject({ code: 'token_not_found' });
    });
  });
});
