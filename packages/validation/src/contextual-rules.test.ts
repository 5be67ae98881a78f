import { describe, expect, it } from 'vitest';
import { amountBoundProblems, resolveNetwork, resolvePlace } from './contextual-rules.js';
import { numberingPlans, type NumberingPlan } from './network-tables.js';

// A fictional second country, so that agreement between country, currency and mobile can be tested.
const uganda: NumberingPlan = {
  country: 'UG',
  dialCode: '256',
  currency: 'UGX',
  trunkPrefix: '0',
  mobileNationalNumber: /^7[0-9]{8}$/,
  prefixes: { '25677': { name: 'Example', carrier: 'CarrierC', moneyNetwork: 'MoneyNetD' } },
};
const plans = [...numberingPlans, uganda];
const kenyanMobile = '254712345678';
const ugandanMobile = '256771234567';
const none = new Set<string>();

describe('resolvePlace', () => {
  it('detects country and currency from the mobile number when neither is given', () => {
    expect(resolvePlace({ mobile: ugandanMobile }, none, plans)).toEqual({
      value: { country: 'UG', currency: 'UGX' },
      problems: [],
    });
  });

  it('rejects a given country that is not the country of the mobile number', () => {
    expect(resolvePlace({ country: 'UG', mobile: kenyanMobile }, none, plans).problems).toEqual([
      { field: 'country', kind: 'invalid' },
    ]);
  });

  it('judges the currency against the given country', () => {
    expect(
      resolvePlace({ country: 'UG', mobile: kenyanMobile, currency: 'UGX' }, none, plans).problems,
    ).toEqual([{ field: 'country', kind: 'invalid' }]);
  });

  it('rejects a currency that is not the currency of the country', () => {
    expect(resolvePlace({ mobile: kenyanMobile, currency: 'UGX' }, none, plans)).toEqual({
      value: { country: 'KE', currency: 'KES' },
      problems: [{ field: 'currency', kind: 'invalid' }],
    });
  });

  it('uses the given country when the mobile number is missing', () => {
    expect(resolvePlace({ country: 'UG' }, new Set(['mobile']), plans).value).toEqual({
      country: 'UG',
      currency: 'UGX',
    });
  });

  it('resolves nothing and reports nothing more when the country itself failed', () => {
    expect(resolvePlace({ mobile: kenyanMobile, currency: 'UGX' }, new Set(['country']), plans)).toEqual({
      value: undefined,
      problems: [],
    });
  });
});

describe('resolveNetwork', () => {
  const moneyNetworkOf = (detected: { moneyNetwork: string }) => detected.moneyNetwork;
  const floatNetworks = ['MoneyNetA', 'MoneyNetB', 'MoneyNetC'] as const;

  it('keeps a given network whatever the mobile number', () => {
    expect(
      resolveNetwork({ network: 'MoneyNetC', mobile: kenyanMobile }, none, moneyNetworkOf, floatNetworks),
    ).toEqual({ value: 'MoneyNetC', problems: [] });
  });

  it('detects the network when none is given', () => {
    expect(resolveNetwork({ mobile: kenyanMobile }, none, moneyNetworkOf, floatNetworks).value).toBe(
      'MoneyNetA',
    );
  });

  it('makes network invalid when the detected network is not allowed for the operation', () => {
    expect(resolveNetwork({ mobile: kenyanMobile }, none, moneyNetworkOf, ['MoneyNetB'])).toEqual({
      value: undefined,
      problems: [{ field: 'network', kind: 'invalid' }],
    });
  });

  it('detects nothing and reports nothing when the network itself failed or the mobile is missing', () => {
    expect(
      resolveNetwork({ mobile: kenyanMobile }, new Set(['network']), moneyNetworkOf, floatNetworks),
    ).toEqual({
      value: undefined,
      problems: [],
    });
    expect(resolveNetwork({}, new Set(['mobile']), moneyNetworkOf, floatNetworks)).toEqual({
      value: undefined,
      problems: [],
    });
  });
});

describe('amountBoundProblems', () => {
  const options = { amount: { min: 10, max: 100 } };

  it('accepts the bounds themselves', () => {
    expect([...amountBoundProblems(10, options), ...amountBoundProblems(100, options)]).toEqual([]);
  });

  it('rejects amounts just outside the bounds', () => {
    expect([...amountBoundProblems(9, options), ...amountBoundProblems(101, options)]).toEqual([
      { field: 'amount', kind: 'invalid' },
      { field: 'amount', kind: 'invalid' },
    ]);
  });

  it('accepts any amount when no bounds are configured', () => {
    expect(amountBoundProblems(Number.MAX_SAFE_INTEGER, {})).toEqual([]);
  });
});
