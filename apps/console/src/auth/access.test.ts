import { describe, expect, it } from 'vitest';
import { canChange, homePath, isOperator, isPublicPath, redirectFor } from './access';

describe('roles', () => {
  it('admin and support are operators; only support is read-only', () => {
    expect([isOperator('admin'), isOperator('support'), isOperator('caller')]).toEqual([true, true, false]);
    expect([canChange('admin'), canChange('support'), canChange('caller')]).toEqual([true, false, true]);
  });

  it('operators start at the accounts, callers at their overview', () => {
    expect(homePath('support')).toBe('/accounts');
    expect(homePath('caller')).toBe('/overview');
  });
});

describe('redirectFor', () => {
  it('sends the start page to each role’s home', () => {
    expect(redirectFor('admin', '/')).toBe('/accounts');
    expect(redirectFor('caller', '/')).toBe('/overview');
  });

  it('keeps callers out of the operator screens', () => {
    for (const path of ['/accounts', '/accounts/acc_1/overview', '/funding', '/ledger', '/users', '/audit']) {
      expect(redirectFor('caller', path)).toBe('/overview');
    }
  });

  it('lets callers open their own account’s screens', () => {
    for (const path of ['/overview', '/transactions', '/transactions/TX1', '/statement', '/endpoints']) {
      expect(redirectFor('caller', path)).toBeUndefined();
    }
  });

  it('sends operators to the accounts from screens that need an account', () => {
    expect(redirectFor('admin', '/transactions')).toBe('/accounts');
    expect(redirectFor('support', '/deliveries')).toBe('/accounts');
  });

  it('lets operators, support included, open every operator screen and any account', () => {
    for (const path of [
      '/accounts',
      '/accounts/acc_1/transactions/TX1',
      '/accounts/acc_1/tokens',
      '/audit',
    ]) {
      expect(redirectFor('support', path)).toBeUndefined();
    }
  });

  it('matches whole path segments, not prefixes', () => {
    expect(redirectFor('caller', '/accountsx')).toBeUndefined();
    expect(redirectFor('admin', '/overviews')).toBeUndefined();
  });
});

describe('isPublicPath', () => {
  it('only the one-time link page needs no session', () => {
    expect(isPublicPath('/link')).toBe(true);
    expect(isPublicPath('/linked')).toBe(false);
    expect(isPublicPath('/accounts')).toBe(false);
  });
});
