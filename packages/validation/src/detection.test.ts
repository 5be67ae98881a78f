import { describe, expect, it } from 'vitest';
import { detectCountry, detectNetwork, findCountry, isKnownCurrency } from './detection.js';

const safaricom = {
  country: 'KE',
  currency: 'KES',
  operator: 'Safaricom',
  carrier: 'CarrierA',
  moneyNetwork: 'MoneyNetA',
};
const airtel = {
  country: 'KE',
  currency: 'KES',
  operator: 'Airtel',
  carrier: 'CarrierB',
  moneyNetwork: 'MoneyNetB',
};
const telkom = {
  country: 'KE',
  currency: 'KES',
  operator: 'Telkom',
  carrier: 'CarrierC',
  moneyNetwork: 'MoneyNetC',
};

describe('detectNetwork', () => {
  it.each([
    ['25470', '254701234567', safaricom],
    ['25471', '254711234567', safaricom],
    ['25472', '254721234567', safaricom],
    ['25474', '254741234567', safaricom],
    ['254757', '254757123456', safaricom],
    ['254758', '254758123456', safaricom],
    ['254759', '254759123456', safaricom],
    ['254768', '254768123456', safaricom],
    ['254769', '254769123456', safaricom],
    ['25479', '254791234567', safaricom],
    ['25411', '254111234567', safaricom],
    ['25414', '254141234567', safaricom],
    ['25418', '254181234567', safaricom],
    ['25473', '254731234567', airtel],
    ['25475', '254751234567', airtel],
    ['25475', '254756123456', airtel],
    ['254761', '254761123456', airtel],
    ['254762', '254762123456', airtel],
    ['25478', '254781234567', airtel],
    ['25410', '254101234567', airtel],
    ['25477', '254771234567', telkom],
    ['254120', '254120123456', telkom],
  ])('finds the operator of prefix %s (%s)', (_prefix, mobile, expected) => {
    expect(detectNetwork(mobile)).toEqual(expected);
  });

  it.each([
    ['254744, a gap inside Safaricom 25474', '254744123456'],
    ['254747, a gap inside Safaricom 25474', '254747123456'],
    ['254760', '254760123456'],
    ['254763', '254763123456'],
    ['254767', '254767123456'],
    ['254121, beside Telkom 254120', '254121123456'],
    ['25412 without a known sub-range', '254129123456'],
    ['25413', '254131234567'],
    ['25415', '254151234567'],
    ['25419', '254191234567'],
  ])('finds no network for prefix %s', (_description, mobile) => {
    expect(detectNetwork(mobile)).toBeUndefined();
  });

  it('lets a longer prefix win over a shorter one in both directions', () => {
    expect(detectNetwork('254741234567')?.operator).toBe('Safaricom');
    expect(detectNetwork('254744123456')).toBeUndefined();
    expect(detectNetwork('254751234567')?.operator).toBe('Airtel');
    expect(detectNetwork('254757123456')?.operator).toBe('Safaricom');
  });

  it.each([
    ['a number of another country', '255712345678'],
    ['a national form', '0712345678'],
    ['a number with a plus', '+254712345678'],
    ['a number that is too short', '25471234567'],
    ['a number that is too long', '2547123456789'],
    ['the empty string', ''],
  ])('detects nothing for %s', (_description, mobile) => {
    expect(detectNetwork(mobile)).toBeUndefined();
  });
});

describe('detectCountry', () => {
  it('finds Kenya and its currency for a Kenyan mobile number', () => {
    expect(detectCountry('254712345678')).toEqual({ country: 'KE', currency: 'KES', dialCode: '254' });
  });

  it('finds the country even when the number belongs to no known network', () => {
    expect(detectCountry('254760123456')?.country).toBe('KE');
  });

  it.each(['255712345678', '0712345678', '254201234567', '25471234567'])(
    'finds no country for %s',
    (mobile) => {
      expect(detectCountry(mobile)).toBeUndefined();
    },
  );
});

describe('findCountry and isKnownCurrency', () => {
  it('knows Kenya by its upper-case code', () => {
    expect(findCountry('KE')).toEqual({ country: 'KE', currency: 'KES', dialCode: '254' });
  });

  it.each(['UG', 'ke', 'KEN', ''])('does not know the country code %j', (country) => {
    expect(findCountry(country)).toBeUndefined();
  });

  it('knows the Kenyan shilling and not other currencies', () => {
    expect(isKnownCurrency('KES')).toBe(true);
    expect(isKnownCurrency('USD')).toBe(false);
    expect(isKnownCurrency('kes')).toBe(false);
  });
});
