// The requests the cases send, as a caller would: complete bodies with names and e-mails (so contacts are
// written), numbers whose last four digits make the sandbox accept and complete the transaction (and, in
// live mode, make the fake providers' scripts end the payment paid and the delivery delivered).

import type { LoadRequest } from './load-run.js';

const floatFields = {
  name: 'Jane Wanjiku',
  mobile: '254712000123',
  email: 'jane@example.com',
  network: 'MoneyNetA',
  agent_number: '123456',
  store_number: '654321',
  amount: '100',
  note: 'bench float',
} as const;

const airtimeFields = {
  name: 'Otieno Mwangi',
  mobile: '254733000123',
  email: 'otieno@example.com',
  amount: '50',
  payment_network: 'MoneyNetB',
  payment_name: 'Achieng Odhiambo',
  payment_mobile: '254722000456',
  payment_email: 'achieng@example.com',
} as const;

/**
 * A purchase carried by the live providers: the payer's M-Pesa (MoneyNetA, Daraja) pays, the recipient's
 * CarrierA (Africa's Talking) delivers. Neither number ends in four digits the fakes script otherwise
 * (fake-stk-scripts.ts, fake-airtime-scripts.ts), so each purchase is paid once and delivered once.
 */
const liveAirtimeFields = {
  ...airtimeFields,
  mobile: '254711080123',
  network: 'CarrierA',
  payment_network: 'MoneyNetA',
  payment_mobile: '254712340123',
} as const;

function xmlOf(fields: Readonly<Record<string, string>>): string {
  const children = Object.entries(fields)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><xml>${children}</xml>`;
}

function authorized(token: string, format: 'json' | 'xml'): Record<string, string> {
  const type = format === 'xml' ? 'text/xml' : 'application/json';
  return { Authorization: `Bearer ${token}`, 'Content-Type': type, Accept: type };
}

/** `send_agent_float` of KES 100 to one agent. */
export function floatRequest(token: string): LoadRequest {
  return {
    path: '/api/send_agent_float',
    headers: authorized(token, 'json'),
    body: JSON.stringify(floatFields),
  };
}

/** `buy_airtime` of KES 50, in JSON or XML (request and answer). */
export function airtimeRequest(token: string, format: 'json' | 'xml'): LoadRequest {
  return {
    path: '/api/buy_airtime',
    headers: authorized(token, format),
    body: format === 'xml' ? xmlOf(airtimeFields) : JSON.stringify(airtimeFields),
  };
}

/**
 * Live recipients handed out so far in this process. Africa's Talking refuses a second send of the same
 * amount to the same number within five minutes as a duplicate (and the fake does too), so every live
 * purchase of every run goes to a number of its own.
 */
let liveRecipientsIssued = 0;

/**
 * A live recipient's number: CarrierA's 25471 prefix, then the purchase's sequence, with last four digits
 * from 1000 to 8999, which no fake script claims (each is delivered once).
 */
function liveRecipientMobile(sequence: number): string {
  const block = Math.floor(sequence / 8_000);
  const last = 1_000 + (sequence % 8_000);
  return `25471${String(block).padStart(3, '0')}${String(last)}`;
}

/**
 * `buy_airtime` of KES 50 in JSON against a live service, paid by STK push and delivered by the carrier,
 * each request to a recipient no earlier request of the process used.
 */
export function liveAirtimeRequest(token: string): LoadRequest {
  return {
    path: '/api/buy_airtime',
    headers: authorized(token, 'json'),
    body: JSON.stringify(liveAirtimeFields),
    bodyPerRequest: () =>
      JSON.stringify({ ...liveAirtimeFields, mobile: liveRecipientMobile(liveRecipientsIssued++) }),
  };
}

/** `get_balance` of both channels. */
export function balanceRequest(token: string): LoadRequest {
  return { path: '/api/get_balance', headers: authorized(token, 'json'), body: '{}' };
}

/** What the baseline reads: the float request's body, no token needed. */
export function baselineRequest(): LoadRequest {
  return {
    path: '/api/send_agent_float',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(floatFields),
  };
}

/**
 * `send_airtime` of KES 50 to each of `count` distinct recipients, with names and e-mails (so contacts are
 * written). The numbers end in 1000 and up, past the four digits the sandbox scripts (0001 to 0005), so
 * every recipient is delivered.
 */
export function sendAirtimeRequest(token: string, count: number): LoadRequest {
  const recipients = Array.from({ length: count }, (_, index) => ({
    name: `Field Agent ${index + 1}`,
    mobile: `2547330${String(1_000 + index).padStart(5, '0')}`,
    email: `agent${index + 1}@example.com`,
    amount: '50',
  }));
  return {
    path: '/api/send_airtime',
    headers: authorized(token, 'json'),
    body: JSON.stringify({ recipients, note: 'bench send' }),
  };
}
