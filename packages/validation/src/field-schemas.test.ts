import { encodeXml, encodeXmlRequest, firstNonXmlChar, success, type RequestFields } from '@topup/envelope';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiFunctions, type ApiFunctionName } from './api-functions.js';
import { parseBuyAirtime } from './buy-airtime.js';
import { invalid } from './error-messages.js';

// One valid body per function with text fields, and how to put a character inside each text field
// while keeping the rest of its value well-formed (an e-mail address stays an address, a URL a URL).
const validBodies: Partial<Record<ApiFunctionName, Record<string, unknown>>> = {
  send_agent_float: { mobile: '0712345678', amount: '500', agent_number: '123456', store_number: '654321' },
  buy_airtime: {
    mobile: '0712345678',
    amount: 50,
    payment_network: 'MoneyNetA',
    payment_mobile: '0722000000',
  },
  get_transaction: { reference: 'TX7Q2M9K4D' },
  add_callback_endpoint: { url: 'https://caller.example/callbacks' },
  remove_callback_endpoint: { endpoint_id: 'ep_4KX2' },
  rotate_callback_secret: { endpoint_id: 'ep_4KX2' },
  resend_callback: { reference: 'TX7Q2M9K4D' },
  list_callback_deliveries: {},
  list_transactions: {},
  list_statement: { channel: 'Airtime' },
  resend_failed_callbacks: { since: '2025-11-21' },
  send_test_callback: { endpoint_id: 'ep_4KX2' },
};

const plainText = (char: string) => `Jane${char}Wanjiru`;
const emailText = (char: string) => `jane${char}@example.com`;
const urlText = (char: string) => `https://caller.example/hooks${char}`;

// A flat request's fields are what a client encodes; `send_airtime` holds a list of recipients, so
// its text fields are tested beside it, in send-airtime.test.ts.
type FlatRequestName = Exclude<ApiFunctionName, 'send_airtime'>;

const textFields: [FlatRequestName, string, (char: string) => string][] = [
  ['send_agent_float', 'name', plainText],
  ['send_agent_float', 'email', emailText],
  ['send_agent_float', 'agent_name', plainText],
  ['send_agent_float', 'note', plainText],
  ['buy_airtime', 'name', plainText],
  ['buy_airtime', 'email', emailText],
  ['buy_airtime', 'note', plainText],
  ['buy_airtime', 'payment_name', plainText],
  ['buy_airtime', 'payment_email', emailText],
  ['get_transaction', 'reference', plainText],
  ['add_callback_endpoint', 'url', urlText],
  ['add_callback_endpoint', 'description', plainText],
  ['remove_callback_endpoint', 'endpoint_id', plainText],
  ['rotate_callback_secret', 'endpoint_id', plainText],
  ['resend_callback', 'reference', plainText],
  ['resend_callback', 'endpoint_id', plainText],
  ['list_callback_deliveries', 'reference', plainText],
  ['list_transactions', 'reference', plainText],
  ['list_callback_deliveries', 'endpoint_id', plainText],
  ['resend_failed_callbacks', 'endpoint_id', plainText],
  ['send_test_callback', 'endpoint_id', plainText],
];

// Every kind XML 1.0 excludes: NUL, C0 controls on both sides of tab, LF and CR, U+FFFE, U+FFFF, and
// each half of a surrogate pair alone.
const nonXmlChars: [string, string][] = [
  ['NUL', '\u0000'],
  ['U+0001', '\u0001'],
  ['U+0008', '\u0008'],
  ['a vertical tab', '\u000B'],
  ['a form feed', '\u000C'],
  ['U+000E', '\u000E'],
  ['U+001F', '\u001F'],
  ['U+FFFE', '\uFFFE'],
  ['U+FFFF', '\uFFFF'],
  ['a lone high surrogate', '\uD83D'],
  ['a lone low surrogate', '\uDE00'],
];

function parse(name: ApiFunctionName, field: string, value: string) {
  return apiFunctions[name]({ ...validBodies[name], [field]: value });
}

describe('every text field of every request', () => {
  it.each(textFields)('%s accepts %s written with characters XML can carry', (name, field, textWith) => {
    expect(parse(name, field, textWith('')).ok).toBe(true);
    expect(parse(name, field, textWith('-')).ok).toBe(true);
  });

  describe.each(textFields)('%s.%s', (name, field, textWith) => {
    it.each(nonXmlChars)('is invalid with %s in it', (_char, char) => {
      expect(parse(name, field, textWith(char))).toStrictEqual({ ok: false, errors: [invalid(field)] });
    });
  });

  it('judges text as it was sent, so a control character that trimming would remove is still invalid', () => {
    expect(parse('send_agent_float', 'name', '\u000CJane Wanjiru\u000B')).toStrictEqual({
      ok: false,
      errors: [invalid('name')],
    });
  });

  it('accepts text outside the Basic Multilingual Plane, written as a surrogate pair', () => {
    const result = parseBuyAirtime({ ...validBodies.buy_airtime, note: 'order 😀 \u{10FFFF}' });
    expect(result.ok && result.value.note).toBe('order 😀 \u{10FFFF}');
  });
});

// Text weighted towards what parses (so the property has accepted bodies to judge) with every UTF-16
// code unit possible, lone surrogates and controls included, and whole code points past U+FFFF.
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point));
const plainChar = fc.constantFrom('a', 'Z', '0', ' ', '-', '.', 'é', 'ß', '😀');
const anyText = fc.string({
  unit: fc.oneof({ arbitrary: plainChar, weight: 16 }, anyCodeUnit, anyCodePoint),
  maxLength: 16,
});

const functionsWithText = [...new Set(textFields.map(([name]) => name))];
const bodyOf = (name: ApiFunctionName) =>
  fc
    .tuple(
      ...textFields
        .filter(([owner]) => owner === name)
        .map(([, field, textWith]) => fc.option(anyText.map((text) => [field, textWith(text)] as const))),
    )
    .map((entries) => ({
      ...validBodies[name],
      ...Object.fromEntries(entries.filter((entry) => entry !== null)),
    }));

describe('text the schemas accept', () => {
  it.each(functionsWithText)('in a %s request always encodes to XML', (name) => {
    let accepted = 0;
    fc.assert(
      fc.property(bodyOf(name), (body) => {
        const result = apiFunctions[name](body);
        if (!result.ok) return;
        accepted += 1;
        const fields: RequestFields = { ...result.value };
        expect(() => encodeXmlRequest(fields)).not.toThrow();
        const request = Object.fromEntries(
          Object.entries(fields).flatMap(([key, value]) =>
            typeof value === 'string' || typeof value === 'number' ? [[key, String(value)]] : [],
          ),
        );
        expect(() => encodeXml(success('Accepted', { request }))).not.toThrow();
      }),
      { numRuns: 300 },
    );
    expect(accepted, 'accepted bodies among 300').toBeGreaterThan(10);
  });

  it.each(functionsWithText)('in a %s request never holds a character XML cannot carry', (name) => {
    fc.assert(
      fc.property(bodyOf(name), (body) => {
        const sent = Object.values(body).filter((value) => typeof value === 'string');
        const result = apiFunctions[name](body);
        if (sent.some((text) => firstNonXmlChar(text) !== undefined)) expect(result.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
