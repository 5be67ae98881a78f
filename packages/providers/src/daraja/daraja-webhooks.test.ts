// Golden fixtures: Daraja's Results as they come, and the reports we read in them. A call's own Result
// speaks of the submission; a status query's speaks through the query's id, and one that failed says
// nothing of the submission it asked about.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { darajaWebhooks } from './daraja-webhooks.js';

function result(name: string) {
  return {
    event: 'result',
    contentType: 'application/json',
    body: readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'),
  };
}

describe('darajaWebhooks', () => {
  it('reads a paid B2B Result as a completion of the submission, its receipt as the provider code', () => {
    expect(darajaWebhooks.parse(result('b2b-result-paid'))).toEqual({
      kind: 'reports',
      eventId: 'result:AG_20261124_0000568dae54d7a63b0f',
      reports: [
        {
          id: 'result:AG_20261124_0000568dae54d7a63b0f',
          providerId: 'AG_20261124_0000568dae54d7a63b0f',
          about: 'submission',
          outcome: 'completed',
          providerCode: 'TKO5X7Y8Z9',
          reason: '',
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
      eventId: 'result:AG_20261124_000049f3a6e1c2b8d7a5',
      reports: [
        {
          id: 'result:AG_20261124_000049f3a6e1c2b8d7a5',
          providerId: 'AG_20261124_000049f3a6e1c2b8d7a5',
          about: 'status',
          outcome: 'completed',
          providerCode: 'TKO5X7Y8Z9',
          reason: '',
        },
      ],
    });
  });

  it('reads a status query that found nothing as a report about a submission, which its id is not', () => {
    expect(darajaWebhooks.parse(result('status-result-not-found'))).toMatchObject({
      kind: 'reports',
      reports: [{ providerId: 'AG_20261124_00007c1e0b6f4a3d2e19', about: 'submission', outcome: 'declined' }],
    });
  });

  it('stores a queue timeout and unknown events without applying them, and keeps what cannot be read', () => {
    expect(
      darajaWebhooks.parse({ event: 'timeout', contentType: 'application/json', body: '{"a":1}' }),
    ).toMatchObject({
      kind: 'ignored',
      eventId: expect.stringMatching(/^timeout:[0-9a-f]{32}$/) as string,
    });
    expect(darajaWebhooks.parse({ event: 'stk', contentType: 'application/json', body: '{}' })).toMatchObject(
      {
        kind: 'ignored',
        why: 'no such event: stk',
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
});
