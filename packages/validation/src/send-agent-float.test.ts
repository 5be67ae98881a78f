import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  parseSendAgentFloat,
  sendAgentFloatSchema,
  type SendAgentFloatInput,
  type SendAgentFloatRequest,
} from './send-agent-float.js';

// An Airtel number: detected as MoneyNetB, which needs no agent or store number.
const airtelMobile = '254731234567';
const safaricomMobile = '254712345678';
const valid = { mobile: airtelMobile, amount: '1500' };

describe('parseSendAgentFloat accepts', () => {
  it('a minimal request and detects country, currency and network from the mobile number', () => {
    expect(parseSendAgentFloat(valid)).toEqual({
      ok: true,
      value: { mobile: airtelMobile, amount: 1500, country: 'KE', currency: 'KES', network: 'MoneyNetB' },
    });
  });

  it('a full request, normalising each field', () => {
    const result = parseSendAgentFloat({
      country: 'ke',
      network: 'MoneyNetA',
      name: '  Duka Ltd ',
      mobile: '0712 345 678',
      email: ' agent@example.co.ke ',
      agent_name: 'Duka Agent',
      agent_number: 123456,
      store_number: '0042',
      currency: 'kes',
      amount: 2500,
      note: 'order-17',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        country: 'KE',
        network: 'MoneyNetA',
        name: 'Duka Ltd',
        mobile: safaricomMobile,
        email: 'agent@example.co.ke',
        agent_name: 'Duka Agent',
        agent_number: '123456',
        store_number: '0042',
        currency: 'KES',
        amount: 2500,
        note: 'order-17',
      },
    });
  });

  it('null, empty and blank optional fields as absent', () => {
    const result = parseSendAgentFloat({ ...valid, name: null, email: '', note: '   ', country: '' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).not.toHaveProperty('name');
    expect(result.value).not.toHaveProperty('email');
    expect(result.value).not.toHaveProperty('note');
    expect(result.value.country).toBe('KE');
  });

  it('and ignores unknown fields', () => {
    const result = parseSendAgentFloat({ ...valid, colour: 'blue', source: 'API' });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).not.toHaveProperty('colour');
  });

  it('names and notes of exactly the maximum length', () => {
    const result = parseSendAgentFloat({ ...valid, name: 'n'.repeat(100), note: 'x'.repeat(100) });
    expect(result.ok).toBe(true);
  });
});

describe('parseSendAgentFloat reports a missing field', () => {
  it.each([
    ['mobile', { amount: 100 }, ["'mobile is required.'"]],
    ['amount', { mobile: airtelMobile }, ["'amount is required.'"]],
    ['mobile given as null', { mobile: null, amount: 100 }, ["'mobile is required.'"]],
    ['amount given as an empty string', { mobile: airtelMobile, amount: '' }, ["'amount is required.'"]],
    [
      'agent_number and store_number when MoneyNetA is detected',
      { mobile: safaricomMobile, amount: 100 },
      ["'agent_number is required.'", "'store_number is required.'"],
    ],
    [
      'agent_number when MoneyNetA is given',
      { network: 'MoneyNetA', mobile: airtelMobile, store_number: '5', amount: 100 },
      ["'agent_number is required.'"],
    ],
    [
      'store_number when MoneyNetA is given',
      { network: 'MoneyNetA', mobile: airtelMobile, agent_number: '5', amount: 100 },
      ["'store_number is required.'"],
    ],
  ])('%s', (_description, input, errors) => {
    expect(parseSendAgentFloat(input)).toEqual({ ok: false, errors });
  });

  it.each([null, undefined, 'mobile=254712345678', 42, true, [], [valid]])(
    'reports every required field for a body that is not an object: %j',
    (input) => {
      expect(parseSendAgentFloat(input)).toEqual({
        ok: false,
        errors: ["'mobile is required.'", "'amount is required.'"],
      });
    },
  );
});

describe('parseSendAgentFloat reports an invalid field', () => {
  const long = (length: number) => 'x'.repeat(length);
  it.each([
    ['country', 'UG'],
    ['country', 'KEN'],
    ['country', 254],
    ['network', 'MoneyNetD'],
    ['network', 'CarrierA'],
    ['network', 'moneyneta'],
    ['network', 1],
    ['name', 42],
    ['name', long(101)],
    ['name', ['Duka']],
    ['mobile', '0812345678'],
    ['mobile', '07123a5678'],
    ['mobile', '+255712345678'],
    ['mobile', 712345678],
    ['mobile', { number: safaricomMobile }],
    ['email', 'not-an-email'],
    ['email', `${long(250)}@example.com`],
    ['email', 7],
    ['agent_name', 7],
    ['agent_name', long(101)],
    ['agent_number', '12a'],
    ['agent_number', '1.5'],
    ['agent_number', -1],
    ['agent_number', 1.5],
    ['agent_number', '１２'],
    ['agent_number', '123456789012345678901'],
    ['store_number', 'S-12'],
    ['store_number', '-3'],
    ['store_number', 3.25],
    ['currency', 'USD'],
    ['currency', 'KE'],
    ['currency', 404],
    ['amount', '12.50'],
    ['note', 9],
    ['note', long(101)],
  ])('%s given %j', (field, value) => {
    expect(parseSendAgentFloat({ ...valid, [field]: value })).toEqual({
      ok: false,
      errors: [`'${field} is invalid'`],
    });
  });

  it('network when the mobile number belongs to no known network and none is given', () => {
    expect(parseSendAgentFloat({ mobile: '254760123456', amount: 100 })).toEqual({
      ok: false,
      errors: ["'network is invalid'"],
    });
  });

  it.each([
    '1e3',
    '10.0',
    '-5',
    '+5',
    '0x10',
    '١٢',
    '1 000',
    ' 100',
    '0',
    '9007199254740993',
    100.5,
    0,
    -5,
    2 ** 53,
    true,
  ])('amount given %j', (amount) => {
    expect(parseSendAgentFloat({ ...valid, amount })).toEqual({ ok: false, errors: ["'amount is invalid'"] });
  });
});

describe('parseSendAgentFloat amounts', () => {
  it.each([
    [100, 100],
    ['100', 100],
    ['0100', 100],
  ])('takes %j as %d', (amount, expected) => {
    const result = parseSendAgentFloat({ ...valid, amount });
    expect(result.ok && result.value.amount).toBe(expected);
  });

  const options = { amount: { min: 10, max: 70000 } };

  it.each([10, 70000, '500'])('accepts %j within the configured bounds', (amount) => {
    expect(parseSendAgentFloat({ ...valid, amount }, options).ok).toBe(true);
  });

  it.each([9, 70001, '1'])('rejects %j outside the configured bounds', (amount) => {
    expect(parseSendAgentFloat({ ...valid, amount }, options)).toEqual({
      ok: false,
      errors: ["'amount is invalid'"],
    });
  });

  it('reports an out-of-bounds amount in its field position', () => {
    expect(parseSendAgentFloat({ note: 7, amount: 5, mobile: 'x' }, options)).toEqual({
      ok: false,
      errors: ["'mobile is invalid'", "'amount is invalid'", "'note is invalid'"],
    });
  });
});

describe('parseSendAgentFloat networks', () => {
  it('lets a given network win over detection and then asks for no agent numbers', () => {
    const result = parseSendAgentFloat({ network: 'MoneyNetB', mobile: safaricomMobile, amount: 100 });
    expect(result.ok && result.value.network).toBe('MoneyNetB');
  });

  it('accepts a number of no known network when the network is given', () => {
    const result = parseSendAgentFloat({ network: 'MoneyNetC', mobile: '254744123456', amount: 100 });
    expect(result.ok && result.value).toMatchObject({ network: 'MoneyNetC', country: 'KE', currency: 'KES' });
  });

  it.each([
    ['Safaricom', '254712345678', 'MoneyNetA'],
    ['Airtel', '254731234567', 'MoneyNetB'],
    ['Telkom', '254771234567', 'MoneyNetC'],
  ])('detects the %s money network', (_operator, mobile, network) => {
    const result = parseSendAgentFloat({ mobile, amount: 100, agent_number: '1', store_number: '2' });
    expect(result.ok && result.value.network).toBe(network);
  });

  it('asks for no agent numbers when the given network is invalid', () => {
    expect(parseSendAgentFloat({ network: 'MoneyNetD', mobile: safaricomMobile, amount: 100 })).toEqual({
      ok: false,
      errors: ["'network is invalid'"],
    });
  });

  it('keeps an invalid agent number as invalid rather than missing under MoneyNetA', () => {
    expect(parseSendAgentFloat({ mobile: safaricomMobile, amount: 100, agent_number: 'A1' })).toEqual({
      ok: false,
      errors: ["'agent_number is invalid'", "'store_number is required.'"],
    });
  });
});

describe('parseSendAgentFloat with several problems', () => {
  it('lists every field in the order of the spec, whatever the order of the body', () => {
    const input = {
      note: 3,
      amount: '-5',
      currency: 'USD',
      store_number: 'b',
      agent_number: 'a',
      agent_name: 1,
      email: 'y',
      mobile: 'x',
      name: 5,
      network: 'MoneyNetD',
      country: 'UG',
    };
    expect(parseSendAgentFloat(input)).toEqual({
      ok: false,
      errors: [
        "'country is invalid'",
        "'network is invalid'",
        "'name is invalid'",
        "'mobile is invalid'",
        "'email is invalid'",
        "'agent_name is invalid'",
        "'agent_number is invalid'",
        "'store_number is invalid'",
        "'currency is invalid'",
        "'amount is invalid'",
        "'note is invalid'",
      ],
    });
  });

  // The errors of @topup/envelope's `invalid-parameters` golden fixture: the list must be one this
  // validator really produces, required and invalid mixed, in the spec's field order.
  it('answers a MoneyNetA request without mobile and with a bad amount with the golden 3000 list', () => {
    expect(parseSendAgentFloat({ network: 'MoneyNetA', amount: 'x' })).toEqual({
      ok: false,
      errors: [
        "'mobile is required.'",
        "'agent_number is required.'",
        "'store_number is required.'",
        "'amount is invalid'",
      ],
    });
  });

  it('merges field problems with the rules between fields', () => {
    expect(parseSendAgentFloat({ amount: 'ten', email: 'x', mobile: '0712345678' })).toEqual({
      ok: false,
      errors: [
        "'email is invalid'",
        "'agent_number is required.'",
        "'store_number is required.'",
        "'amount is invalid'",
      ],
    });
  });
});

describe('sendAgentFloatSchema', () => {
  it('parses a valid body to the same request as the parse function', () => {
    const body = { mobile: '+254 731 234 567', amount: '1500', network: 'MoneyNetB' };
    const parsed = parseSendAgentFloat(body);
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && sendAgentFloatSchema.parse(body)).toEqual(parsed.ok && parsed.value);
  });

  it('reports the rules between fields as issues on the field, with the spec string', () => {
    const result = sendAgentFloatSchema.safeParse({ mobile: safaricomMobile, amount: 100 });
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['agent_number'], "'agent_number is required.'"],
      [['store_number'], "'store_number is required.'"],
    ]);
  });

  it('infers the request and input types', () => {
    expectTypeOf<SendAgentFloatRequest['network']>().toEqualTypeOf<'MoneyNetA' | 'MoneyNetB' | 'MoneyNetC'>();
    expectTypeOf<SendAgentFloatRequest['amount']>().toEqualTypeOf<number>();
    expectTypeOf<SendAgentFloatRequest['mobile']>().toEqualTypeOf<string>();
    expectTypeOf<SendAgentFloatRequest['country']>().toEqualTypeOf<string>();
    expectTypeOf<SendAgentFloatRequest['agent_number']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SendAgentFloatInput['amount']>().toEqualTypeOf<number | string>();
    expectTypeOf<SendAgentFloatInput['network']>().toEqualTypeOf<
      'MoneyNetA' | 'MoneyNetB' | 'MoneyNetC' | undefined
    >();
  });
});
