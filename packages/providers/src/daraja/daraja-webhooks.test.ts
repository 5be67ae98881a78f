// Golden fixtures: Daraja's Results and STK callbacks as they come, and the reports we read in them. A
// call's own Result speaks of the submission; a status query's speaks through the query's id, and one that
// failed says nothing of the submission it asked about. A prompt's callback speaks of the payment leg.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DARAJA_DECLINED, darajaWebhooks } from './daraja-webhooks.js';

function result(name: string, event = 'result') {
  return {
    event,
    contentType: 'application/json',
    body: readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'),
  };
}

describe('darajaWebhooks', () => {
  it('reads a paid B2B Result as a completion of the submission, its receipt as the provider code', () => {
    expect(darajaWebhooks.parse(result('b2b-result-paid'))).toEqual({
      kind: 'reports',
      eventId: 'result:AG_20261124_0000568dae54d7a63b0f:0',
      reports: [
        {
          id: 'result:AG_20261124_0000568dae54d7a63b0f',
          providerId: 'AG_20261124_0000568dae54d7a63b0f',
          about: 'submission',
          outcome: 'completed',
          providerCode: 'TKO5X7Y8Z9',
          reason: '',
          evidence: { amountMinor: 19_000n, partyCode: '000000' },
        },
      ],
    });
  });

  it('reads a failed B2B Result as a decline, its result code as the provider code', () => {
    expect(darajaWebhooks.parse(result('b2b-result-failed'))).toMatchObject({
      kind: 'reports',
      reports: [
        { about: 'submission', outcome: 'declined', providerCode: '2001', reason: 'declined by M-Pesa' },
      ],
    });
  });

  it('reads a status query’s Completed as a completion through the query’s id, with the receipt', () => {
    expect(darajaWebhooks.parse(result('status-result-completed'))).toEqual({
      kind: 'reports',
      eventId: 'result:AG_20261124_000049f3a6e1c2b8d7a5:0',
      reports: [
        {
          id: 'result:AG_20261124_000049f3a6e1c2b8d7a5',
          providerId: 'AG_20261124_000049f3a6e1c2b8d7a5',
          about: 'status',
          outcome: 'completed',
          providerCode: 'TKO5X7Y8Z9',
          reason: '',
          evidence: { amountMinor: 150_000n, partyCode: '400400' },
        },
      ],
    });
  });

  it('stores a status query that found nothing (2032, undocumented) as nothing to apply', () => {
    expect(darajaWebhooks.parse(result('status-result-not-found'))).toMatchObject({
      kind: 'ignored',
      eventId: 'result:AG_20261124_00007c1e0b6f4a3d2e19:2032',
    });
  });

  it('leaves a call unknown on a Result code that does not say it moved nothing, never declining it', () => {
    expect(darajaWebhooks.parse(result('b2b-result-internal-failure'))).toEqual({
      kind: 'ignored',
      eventId: 'result:AG_20261124_0000657265d5fa9ae5c1:17',
      why: 'M-Pesa result 17 (Internal Failure) does not say whether the call moved money; Transaction Status will be asked',
    });
  });

  it('reads a reversal’s Result as a completed refund, the reversal’s own receipt as the provider code', () => {
    expect(darajaWebhooks.parse(result('reversal-result-done'))).toEqual({
      kind: 'reports',
      eventId: 'result:AG_20261124_00003f9b2c7d1e5a4b6c:0',
      reports: [
        {
          id: 'result:AG_20261124_00003f9b2c7d1e5a4b6c',
          providerId: 'AG_20261124_00003f9b2c7d1e5a4b6c',
          about: 'submission',
          outcome: 'completed',
          providerCode: 'TK7A1C3E5B',
          reason: '',
          evidence: { amountMinor: 5_000n },
        },
      ],
    });
  });

  it('reads a reversal’s already-reversed Result as a completed refund, its code standing for a receipt', () => {
    expect(darajaWebhooks.parse(result('reversal-result-already-reversed'))).toEqual({
      kind: 'reports',
      eventId: 'result:AG_20261124_0000a7d3c7b5fa1e7b7c:R000001',
      reports: [
        {
          id: 'result:AG_20261124_0000a7d3c7b5fa1e7b7c',
          providerId: 'AG_20261124_0000a7d3c7b5fa1e7b7c',
          about: 'submission',
          outcome: 'completed',
          providerCode: 'R000001',
          reason: '',
        },
      ],
    });
  });

  it('reads a paid prompt’s callback as a completed payment, its M-Pesa receipt as the provider code', () => {
    expect(darajaWebhooks.parse(result('stk-callback-paid', 'stk'))).toEqual({
      kind: 'reports',
      eventId: 'stk:ws_CO_191220191020363925:0',
      reports: [
        {
          id: 'stk:ws_CO_191220191020363925',
          providerId: 'ws_CO_191220191020363925',
          about: 'submission',
          outcome: 'completed',
          providerCode: 'NLJ7RT61SV',
          reason: '',
          evidence: { amountMinor: 100n, mobile: '254708374149' },
        },
      ],
    });
  });

  it.each([
    ['stk-callback-cancelled', '1032', 'the payer cancelled the payment prompt'],
    [
      'stk-callback-string-code',
      'SFC_IC0003',
      'M-Pesa does not know the paybill or till paid (wrong TransactionType or PartyB)',
    ],
  ])('reads the callback %s as a declined payment with its result code', (name, code, reason) => {
    expect(darajaWebhooks.parse(result(name, 'stk'))).toMatchObject({
      kind: 'reports',
      reports: [{ about: 'submission', outcome: 'declined', providerCode: code, reason }],
    });
  });

  it('stores a paid callback after a declined one for the same prompt as another event, and a repeat as the same', () => {
    const eventIdOf = (name: string) => {
      const event = darajaWebhooks.parse(result(name, 'stk'));
      return event.kind === 'garbled' ? undefined : event.eventId;
    };
    // Both fixtures name prompt ws_CO_191220191020363925: dropping the second as a repeat of the first
    // would hide a payer charged for a purchase the ledger cancelled.
    expect(eventIdOf('stk-callback-cancelled')).toBe('stk:ws_CO_191220191020363925:1032');
    expect(eventIdOf('stk-callback-paid')).toBe('stk:ws_CO_191220191020363925:0');
    expect(eventIdOf('stk-callback-paid')).toBe(eventIdOf('stk-callback-paid'));
  });

  it('gives a masked payer’s number as the callback wrote it, with the amount paid', () => {
    expect(darajaWebhooks.parse(result('stk-callback-masked-phone', 'stk'))).toMatchObject({
      kind: 'reports',
      reports: [{ outcome: 'completed', evidence: { amountMinor: 50_000n, mobile: '2547******149' } }],
    });
  });

  it('stores a callback with an undocumented code as nothing to apply, so STK Query asks again', () => {
    const event = darajaWebhooks.parse(result('stk-callback-undocumented-code', 'stk'));
    expect(event).toEqual({
      kind: 'ignored',
      eventId: 'stk:ws_CO_191220191020363926:1001',
      why:
        'M-Pesa result 1001 is not documented: the payment is unknown (Unable to lock subscriber, a transaction ' +
        'is already in process for the current subscriber); STK Query will ask about ws_CO_191220191020363926 again',
    });
    expect(darajaWebhooks.reply(event).status).toBe(200);
  });

  it('keeps a prompt’s callback it cannot read as garbled, answered 400', () => {
    const garbled = darajaWebhooks.parse({ event: 'stk', contentType: 'application/json', body: '{}' });
    expect(garbled).toEqual({ kind: 'garbled', problem: 'expected Body.stkCallback, found none' });
    expect(darajaWebhooks.reply(garbled).status).toBe(400);
  });

  it('stores a queue timeout and unknown events without applying them, and keeps what cannot be read', () => {
    expect(
      darajaWebhooks.parse({ event: 'timeout', contentType: 'application/json', body: '{"a":1}' }),
    ).toMatchObject({
      kind: 'ignored',
      eventId: expect.stringMatching(/^timeout:[0-9a-f]{32}$/) as string,
    });
    expect(darajaWebhooks.parse({ event: 'c2b', contentType: 'application/json', body: '{}' })).toMatchObject(
      {
        kind: 'ignored',
        why: 'no such event: c2b',
      },
    );
    const garbled = darajaWebhooks.parse({
      event: 'result',
      contentType: 'text/html',
      body: '<html>502</html>',
    });
    expect(garbled).toEqual({ kind: 'garbled', problem: 'expected a Result object, found none' });
    expect(darajaWebhooks.reply(garbled).status).toBe(400);
    expect(darajaWebhooks.reply({ kind: 'ignored', eventId: 'x', why: '' })).toEqual({
      status: 200,
      contentType: 'application/json',
      body: '{"ResultCode":0,"ResultDesc":"Accepted"}',
    });
  });

  it('never names a declined call by the status query’s own success code', () => {
    const failed = {
      Result: {
        ResultType: 0,
        ResultCode: 0,
        ResultDesc: 'The service request has been accepted successfully.',
        OriginatorConversationID: '16740-34861180-1',
        ConversationID: 'AG_20261126_query',
        TransactionID: 'TKQ0000000',
        ResultParameters: {
          ResultParameter: [
            { Key: 'TransactionStatus', Value: 'Failed' },
            { Key: 'Amount', Value: 1500 },
          ],
        },
      },
    };
    const event = darajaWebhooks.parse({
      event: 'result',
      contentType: 'application/json',
      body: JSON.stringify(failed),
    });
    expect(event).toMatchObject({
      kind: 'reports',
      reports: [
        {
          about: 'status',
          outcome: 'declined',
          providerCode: '',
          reason: DARAJA_DECLINED,
          evidence: { amountMinor: 150_000n },
        },
      ],
    });
  });
});
