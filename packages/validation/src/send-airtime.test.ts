import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { parseBuyAirtime } from './buy-airtime.js';
import {
  maxRecipients,
  parseSendAirtime,
  sendAirtimeSchema,
  type SendAirtimeInput,
  type SendAirtimeRecipient,
  type SendAirtimeRequest,
} from './send-airtime.js';

const recipient = { mobile: '254712345678', amount: 50 };
const resolved = { ...recipient, country: 'KE', currency: 'KES', network: 'CarrierA' };

function recipients(count: number): (typeof recipient)[] {
  return Array.from({ length: count }, () => recipient);
}

describe('parseSendAirtime accepts', () => {
  it('a list, detecting each recipient’s country, currency and carrier and making its mobile canonical', () => {
    const result = parseSendAirtime({
      recipients: [
        { mobile: '0712 345 678', amount: 50 },
        { mobile: '+254-731-234-567', amount: 20, name: 'Otieno', email: 'otieno@example.com' },
        { mobile: 254771234567, amount: 10 },
      ],
      note: 'staff airtime',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        recipients: [
          { mobile: '254712345678', amount: 50, country: 'KE', currency: 'KES', network: 'CarrierA' },
          {
            mobile: '254731234567',
            amount: 20,
            name: 'Otieno',
            email: 'otieno@example.com',
            country: 'KE',
            currency: 'KES',
            network: 'CarrierB',
          },
          { mobile: '254771234567', amount: 10, country: 'KE', currency: 'KES', network: 'CarrierC' },
        ],
        note: 'staff airtime',
      },
    });
  });

  it('a list from XML, where every value is a string, amounts included', () => {
    const result = parseSendAirtime({
      recipients: [
        {
          country: 'ke',
          network: 'CarrierC',
          name: ' Wanjiku ',
          mobile: '0733123456',
          email: 'wanjiku@example.com',
          currency: 'kes',
          amount: '0100',
        },
      ],
      note: '',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        recipients: [
          {
            country: 'KE',
            network: 'CarrierC',
            name: 'Wanjiku',
            mobile: '254733123456',
            email: 'wanjiku@example.com',
            currency: 'KES',
            amount: 100,
          },
        ],
      },
    });
  });

  it('the same recipient twice', () => {
    expect(parseSendAirtime({ recipients: [recipient, recipient] })).toEqual({
      ok: true,
      value: { recipients: [resolved, resolved] },
    });
  });

  it.each([1, maxRecipients])('a list of %i', (count) => {
    const result = parseSendAirtime({ recipients: recipients(count) });
    expect(result.ok && result.value.recipients).toHaveLength(count);
  });

  it('each amount within the configured bounds, the bounds included', () => {
    const result = parseSendAirtime(
      {
        recipients: [
          { ...recipient, amount: 10 },
          { ...recipient, amount: '10000' },
        ],
      },
      { amount: { min: 10, max: 10_000 } },
    );
    expect(result.ok && result.value.recipients.map((entry) => entry.amount)).toEqual([10, 10_000]);
  });

  it('ignores unknown fields, in the body and in an entry', () => {
    expect(parseSendAirtime({ recipients: [{ ...recipient, extra: 1 }], extra: 2 })).toEqual({
      ok: true,
      value: { recipients: [resolved] },
    });
  });
});

describe('parseSendAirtime reports recipients', () => {
  it.each([
    ['missing', {}],
    ['null', { recipients: null }],
    ['blank', { recipients: '  ' }],
    ['an empty list', { recipients: [] }],
  ])('required when %s', (_case, input) => {
    expect(parseSendAirtime(input)).toEqual({ ok: false, errors: ["'recipients is required.'"] });
  });

  it('required for a body that is not an object', () => {
    expect(parseSendAirtime([recipient])).toEqual({ ok: false, errors: ["'recipients is required.'"] });
  });

  it.each([
    ['one recipient not in a list', recipient],
    ['a string', '254712345678'],
    ['a number', 254712345678],
    ['a boolean', true],
  ])('invalid given %s', (_case, value) => {
    expect(parseSendAirtime({ recipients: value })).toEqual({
      ok: false,
      errors: ["'recipients is invalid'"],
    });
  });

  it(`invalid, once and without looking at the entries, given more than ${maxRecipients}`, () => {
    const tooMany = [...recipients(maxRecipients), { mobile: 'x' }];
    expect(parseSendAirtime({ recipients: tooMany, note: 'ok' })).toEqual({
      ok: false,
      errors: ["'recipients is invalid'"],
    });
  });

  it.each([
    ['a string', 'x'],
    ['null', null],
    ['a list', [recipient]],
    ['a number', 5],
  ])('an entry that is %s as invalid, by its position', (_case, entry) => {
    expect(parseSendAirtime({ recipients: [recipient, entry] })).toEqual({
      ok: false,
      errors: ["'recipients[1] is invalid'"],
    });
  });
});

describe('parseSendAirtime reports a recipient’s field by its position', () => {
  it.each([
    ['mobile', { amount: 50 }],
    ['amount', { mobile: '254712345678', amount: ' ' }],
  ])('%s as required', (field, entry) => {
    expect(parseSendAirtime({ recipients: [recipient, recipient, entry] })).toEqual({
      ok: false,
      errors: [`'recipients[2].${field} is required.'`],
    });
  });

  it.each([
    ['country', 'TZ'],
    ['network', 'MoneyNetA'],
    ['name', 12],
    ['mobile', '+1 555 0100'],
    ['email', 'wanjiku@'],
    ['currency', 'EUR'],
    ['amount', '10.0'],
    ['amount', 0],
  ])('%s as invalid given %j, by the same rules as buy_airtime', (field, value) => {
    const entry = { ...recipient, [field]: value };
    expect(parseSendAirtime({ recipients: [entry] })).toEqual({
      ok: false,
      errors: [`'recipients[0].${field} is invalid'`],
    });
    expect(
      parseBuyAirtime({ ...entry, payment_network: 'MoneyNetA', payment_mobile: '254722000000' }),
    ).toEqual({ ok: false, errors: [`'${field} is invalid'`] });
  });

  it('network as invalid when the mobile belongs to no known network and none is given', () => {
    expect(parseSendAirtime({ recipients: [{ ...recipient, mobile: '254747123456' }] })).toEqual({
      ok: false,
      errors: ["'recipients[0].network is invalid'"],
    });
  });

  it('amount as invalid in each entry outside the configured bounds', () => {
    const result = parseSendAirtime(
      { recipients: [{ ...recipient, amount: 9 }, recipient, { ...recipient, amount: '10001' }] },
      { amount: { min: 10, max: 10_000 } },
    );
    expect(result).toEqual({
      ok: false,
      errors: ["'recipients[0].amount is invalid'", "'recipients[2].amount is invalid'"],
    });
  });
});

describe('parseSendAirtime refuses text XML cannot carry', () => {
  it.each([
    ['NUL', '\u0000'],
    ['a form feed', '\u000C'],
    ['U+FFFE', '\uFFFE'],
    ['a lone high surrogate', '\uD83D'],
  ])('with %s in a recipient’s name or e-mail, or in the note', (_char, char) => {
    const input = {
      recipients: [recipient, { ...recipient, name: `Jane${char}Wanjiru`, email: `jane${char}@example.com` }],
      note: `order${char}1`,
    };
    expect(parseSendAirtime(input)).toEqual({
      ok: false,
      errors: ["'recipients[1].name is invalid'", "'recipients[1].email is invalid'", "'note is invalid'"],
    });
  });
});

describe('parseSendAirtime with several problems', () => {
  it('lists them entry by entry, each in buy_airtime’s field order, then the note', () => {
    const input = {
      note: false,
      recipients: [
        recipient,
        {
          amount: '1e3',
          currency: 'EUR',
          email: 'e',
          mobile: 'm',
          name: 3,
          network: 'X',
          country: 'XX',
        },
        'not a recipient',
        { name: 'Achieng' },
        { amount: 5, mobile: '254747123456', country: 'UG' },
      ],
    };
    expect(parseSendAirtime(input, { amount: { min: 10, max: 10_000 } })).toEqual({
      ok: false,
      errors: [
        "'recipients[1].country is invalid'",
        "'recipients[1].network is invalid'",
        "'recipients[1].name is invalid'",
        "'recipients[1].mobile is invalid'",
        "'recipients[1].email is invalid'",
        "'recipients[1].currency is invalid'",
        "'recipients[1].amount is invalid'",
        "'recipients[2] is invalid'",
        "'recipients[3].mobile is required.'",
        "'recipients[3].amount is required.'",
        "'recipients[4].country is invalid'",
        "'recipients[4].network is invalid'",
        "'recipients[4].amount is invalid'",
        "'note is invalid'",
      ],
    });
  });

  it('reports the note after a recipients problem', () => {
    expect(parseSendAirtime({ recipients: {}, note: 'n'.repeat(101) })).toEqual({
      ok: false,
      errors: ["'recipients is invalid'", "'note is invalid'"],
    });
  });

  it('reports the note alone when the list is valid', () => {
    expect(parseSendAirtime({ recipients: [recipient], note: 7 })).toEqual({
      ok: false,
      errors: ["'note is invalid'"],
    });
  });
});

describe('parseSendAirtime on arbitrary input', () => {
  const recipientFields = ['country', 'network', 'name', 'mobile', 'email', 'currency', 'amount'];
  const fieldValue = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('0712345678', '254747123456', 'CarrierB', 'KE', 'kes', '1500', 'a@b.co'),
  );
  const entry = fc.oneof(
    fc.dictionary(fc.constantFrom(...recipientFields, 'extra'), fieldValue),
    fc.anything(),
  );
  const body = fc.record(
    { recipients: fc.oneof(fc.array(entry, { maxLength: 5 }), fc.anything()), note: fieldValue },
    { requiredKeys: [] },
  );

  // Where an error string falls in the order: its entry, then its field; `recipients` itself and the
  // note come before and after every entry.
  function rank(error: string): [number, number] {
    const match = /^'recipients\[(\d+)\](?:\.([a-z]+))? is (?:invalid'|required\.')$/.exec(error);
    if (match !== null) return [Number(match[1]) + 1, recipientFields.indexOf(match[2] ?? '') + 1];
    if (/^'recipients is (?:invalid'|required\.')$/.test(error)) return [0, 0];
    if (error === "'note is invalid'") return [Number.MAX_SAFE_INTEGER, 0];
    throw new Error(`unexpected error string: ${error}`);
  }

  it('never throws, and reports each field of each entry at most once, in order', () => {
    fc.assert(
      fc.property(fc.oneof(body, fc.anything()), (input) => {
        const result = parseSendAirtime(input);
        if (result.ok) return;
        const ranks = result.errors.map(rank);
        expect(result.errors.length).toBeGreaterThan(0);
        expect(new Set(result.errors).size).toBe(result.errors.length);
        const sorted = [...ranks].sort(
          ([entryA, fieldA], [entryB, fieldB]) => entryA - entryB || fieldA - fieldB,
        );
        expect(ranks).toEqual(sorted);
      }),
    );
  });
});

describe('sendAirtimeSchema', () => {
  it('infers the request, recipient and input types', () => {
    expectTypeOf<SendAirtimeRequest['recipients']>().toEqualTypeOf<SendAirtimeRecipient[]>();
    expectTypeOf<SendAirtimeRecipient['network']>().toEqualTypeOf<'CarrierA' | 'CarrierB' | 'CarrierC'>();
    expectTypeOf<SendAirtimeRecipient['mobile']>().toEqualTypeOf<string>();
    expectTypeOf<SendAirtimeRecipient['amount']>().toEqualTypeOf<number>();
    expectTypeOf<SendAirtimeInput['recipients'][number]['amount']>().toEqualTypeOf<number | string>();
  });

  it('describes recipients as a list of 1 to 1000 recipient objects, and the note', () => {
    const schema = z.toJSONSchema(sendAirtimeSchema, { io: 'input' });
    expect(schema.required).toEqual(['recipients']);
    expect(schema.properties?.note).toMatchObject({ type: 'string', maxLength: 100 });
    expect(schema.properties?.recipients).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: maxRecipients,
      items: {
        type: 'object',
        required: ['mobile', 'amount'],
        properties: { network: { enum: ['CarrierA', 'CarrierB', 'CarrierC'] } },
      },
    });
    expect(maxRecipients).toBe(1000);
  });

  it('parses a valid body to the same request as the parse function', () => {
    const body = { recipients: [recipient, { mobile: '0731234567', amount: '20' }], note: 'n' };
    const parsed = parseSendAirtime(body);
    expect(parsed.ok && sendAirtimeSchema.parse(body)).toEqual(parsed.ok && parsed.value);
  });
});
