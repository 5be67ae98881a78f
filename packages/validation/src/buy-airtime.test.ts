import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  buyAirtimeSchema,
  parseBuyAirtime,
  type BuyAirtimeInput,
  type BuyAirtimeRequest,
} from './buy-airtime.js';

const valid = {
  mobile: '254712345678',
  amount: 50,
  payment_network: 'MoneyNetA',
  payment_mobile: '254731234567',
};

describe('parseBuyAirtime accepts', () => {
  it('a minimal request and detects country, currency and carrier from the recipient', () => {
    expect(parseBuyAirtime(valid)).toEqual({
      ok: true,
      value: { ...valid, country: 'KE', currency: 'KES', network: 'CarrierA' },
    });
  });

  it('a full request from XML, where every value is a string', () => {
    const result = parseBuyAirtime({
      country: 'KE',
      network: 'CarrierB',
      name: 'Wanjiku',
      mobile: '0733 123 456',
      email: 'wanjiku@example.com',
      currency: 'KES',
      amount: '100',
      note: 'top-up 9',
      payment_network: 'MoneyNetD',
      payment_name: 'Otieno',
      payment_mobile: '+254 111 222 333',
      payment_email: 'otieno@example.com',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        country: 'KE',
        network: 'CarrierB',
        name: 'Wanjiku',
        mobile: '254733123456',
        email: 'wanjiku@example.com',
        currency: 'KES',
        amount: 100,
        note: 'top-up 9',
        payment_network: 'MoneyNetD',
        payment_name: 'Otieno',
        payment_mobile: '254111222333',
        payment_email: 'otieno@example.com',
      },
    });
  });

  it.each([
    ['Safaricom', '254712345678', 'CarrierA'],
    ['Airtel', '254731234567', 'CarrierB'],
    ['Telkom', '254771234567', 'CarrierC'],
  ])('detects the %s carrier', (_operator, mobile, network) => {
    const result = parseBuyAirtime({ ...valid, mobile });
    expect(result.ok && result.value.network).toBe(network);
  });

  it('lets a given carrier win over detection', () => {
    const result = parseBuyAirtime({ ...valid, network: 'CarrierC' });
    expect(result.ok && result.value.network).toBe('CarrierC');
  });

  it('detects the carrier from the recipient, not the payer', () => {
    const result = parseBuyAirtime({ ...valid, mobile: '254771234567', payment_mobile: '254712345678' });
    expect(result.ok && result.value.network).toBe('CarrierC');
  });
});

describe('parseBuyAirtime reports a missing field', () => {
  it.each([
    ['mobile', { ...valid, mobile: undefined }],
    ['amount', { ...valid, amount: null }],
    ['payment_network', { ...valid, payment_network: '' }],
    ['payment_mobile', { ...valid, payment_mobile: undefined }],
  ])('%s', (field, input) => {
    expect(parseBuyAirtime(input)).toEqual({ ok: false, errors: [`'${field} is required.'`] });
  });

  it('never detects the payment network from the payer mobile', () => {
    const { payment_network: _omitted, ...withoutPaymentNetwork } = valid;
    expect(parseBuyAirtime(withoutPaymentNetwork)).toEqual({
      ok: false,
      errors: ["'payment_network is required.'"],
    });
  });

  it('reports every required field for a body that is not an object', () => {
    expect(parseBuyAirtime('<xml/>')).toEqual({
      ok: false,
      errors: [
        "'mobile is required.'",
        "'amount is required.'",
        "'payment_network is required.'",
        "'payment_mobile is required.'",
      ],
    });
  });
});

describe('parseBuyAirtime reports an invalid field', () => {
  it.each([
    ['country', 'TZ'],
    ['network', 'MoneyNetA'],
    ['network', 'CarrierD'],
    ['name', 12],
    ['name', 'n'.repeat(101)],
    ['mobile', '+1 555 0100'],
    ['mobile', 254712345678.5],
    ['email', 'wanjiku@'],
    ['currency', 'EUR'],
    ['amount', '10.0'],
    ['amount', 100.5],
    ['amount', '1e3'],
    ['note', false],
    ['payment_network', 'CarrierA'],
    ['payment_network', 'MoneyNetE'],
    ['payment_name', 3],
    ['payment_mobile', '07-12-34'],
    ['payment_mobile', 'O712345678'],
    ['payment_email', 'otieno.example.com'],
  ])('%s given %j', (field, value) => {
    expect(parseBuyAirtime({ ...valid, [field]: value })).toEqual({
      ok: false,
      errors: [`'${field} is invalid'`],
    });
  });

  it('network when the recipient belongs to no known network and none is given', () => {
    expect(parseBuyAirtime({ ...valid, mobile: '254747123456' })).toEqual({
      ok: false,
      errors: ["'network is invalid'"],
    });
  });

  it('amount outside the configured bounds', () => {
    expect(parseBuyAirtime({ ...valid, amount: 5 }, { amount: { min: 10, max: 10000 } })).toEqual({
      ok: false,
      errors: ["'amount is invalid'"],
    });
  });
});

describe('parseBuyAirtime with several problems', () => {
  it('lists every field in the order of the spec', () => {
    const input = {
      payment_email: 'e',
      payment_mobile: 'm',
      payment_name: 1,
      payment_network: 'X',
      note: 2,
      amount: '0x10',
      currency: 'EUR',
      email: 'e',
      mobile: 'm',
      name: 3,
      network: 'X',
      country: 'XX',
    };
    expect(parseBuyAirtime(input)).toEqual({
      ok: false,
      errors: [
        "'country is invalid'",
        "'network is invalid'",
        "'name is invalid'",
        "'mobile is invalid'",
        "'email is invalid'",
        "'currency is invalid'",
        "'amount is invalid'",
        "'note is invalid'",
        "'payment_network is invalid'",
        "'payment_name is invalid'",
        "'payment_mobile is invalid'",
        "'payment_email is invalid'",
      ],
    });
  });

  it('mixes missing and invalid fields, each in its place', () => {
    expect(parseBuyAirtime({ payment_mobile: 'x', mobile: '254760123456' })).toEqual({
      ok: false,
      errors: [
        "'network is invalid'",
        "'amount is required.'",
        "'payment_network is required.'",
        "'payment_mobile is invalid'",
      ],
    });
  });
});

describe('buyAirtimeSchema', () => {
  it('infers the request and input types', () => {
    expectTypeOf<BuyAirtimeRequest['network']>().toEqualTypeOf<'CarrierA' | 'CarrierB' | 'CarrierC'>();
    expectTypeOf<BuyAirtimeRequest['payment_network']>().toEqualTypeOf<
      'MoneyNetA' | 'MoneyNetB' | 'MoneyNetC' | 'MoneyNetD'
    >();
    expectTypeOf<BuyAirtimeRequest['payment_mobile']>().toEqualTypeOf<string>();
    expectTypeOf<BuyAirtimeInput['payment_mobile']>().toEqualTypeOf<number | string>();
  });

  it('parses a valid body to the same request as the parse function', () => {
    const parsed = parseBuyAirtime(valid);
    expect(parsed.ok && buyAirtimeSchema.parse(valid)).toEqual(parsed.ok && parsed.value);
  });
});
