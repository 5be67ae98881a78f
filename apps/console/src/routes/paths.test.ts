import { describe, expect, it } from 'vitest';
import { accountPath } from './paths';

describe('accountPath', () => {
  it('puts a caller’s screens at the root', () => {
    expect(accountPath(undefined, 'transactions')).toBe('/transactions');
    expect(accountPath(undefined, 'transactions', 'TX1')).toBe('/transactions/TX1');
  });

  it('puts an operator’s view of an account under /accounts/<id>', () => {
    expect(accountPath('acc_1', 'deliveries')).toBe('/accounts/acc_1/deliveries');
    expect(accountPath('a/b', 'transactions', 'T X')).toBe('/accounts/a%2Fb/transactions/T%20X');
  });
});
