import { describe, expect, it } from 'vitest';
import { OperatorError } from '@topup/operators';
import { requireStatedModeFor } from './stated-mode.js';

describe('the mode a CLI settling a payment leg must be told', () => {
  const payment = { leg: 'TXVQYSN6XMFZTY-payment', as: 'succeeded' };

  it('refuses to settle a payment leg when TOPUP_MODE is unset or empty, naming why', () => {
    for (const environment of [{}, { TOPUP_MODE: '' }]) {
      expect(() => {
        requireStatedModeFor('legs resolve', payment, environment);
      }).toThrow(OperatorError);
    }
    expect(() => {
      requireStatedModeFor('legs resolve', payment, {});
    }).toThrow(/Expected TOPUP_MODE to settle the payment leg TXVQYSN6XMFZTY-payment, found it unset/);
  });

  it('settles a payment leg in either stated mode, and any other leg or command without one', () => {
    expect(() => {
      requireStatedModeFor('legs resolve', payment, { TOPUP_MODE: 'live' });
    }).not.toThrow();
    expect(() => {
      requireStatedModeFor('legs resolve', payment, { TOPUP_MODE: 'sandbox' });
    }).not.toThrow();
    const delivery = { leg: 'TXVQYSN6XMFZTY-delivery', as: 'failed' };
    expect(() => {
      requireStatedModeFor('legs resolve', delivery, {});
    }).not.toThrow();
    expect(() => {
      requireStatedModeFor('legs list', { reference: 'TXVQYSN6XMFZTY' }, {});
    }).not.toThrow();
  });
});
