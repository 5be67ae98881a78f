// Golden input: the status callback as Africa's Talking sends it (fixtures/status-callback-success.json),
// and its form-encoded twin, read into reports named by AT's requestId.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AFRICASTALKING_UNDELIVERED, africastalkingWebhooks } from './africastalking-webhooks.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');
const requestId = 'ATQid_dba7c4a6c51b8a3e5b2f9c4d1e7a0b3c';

const status = (contentType: string, body: string) =>
  africastalkingWebhooks.parse({ event: 'airtime-status', contentType, body });

describe('africastalkingWebhooks', () => {
  it('reads a JSON Success callback as a completed report about the submission, named by its requestId', () => {
    const event = status('application/json', fixture('status-callback-success'));
    expect(event).toEqual({
      kind: 'reports',
      eventId: `airtime-status:${requestId}:Success`,
      reports: [
        {
          id: `airtime-status:${requestId}:Success`,
          providerId: requestId,
          about: 'submission',
          outcome: 'completed',
          providerCode: requestId,
          reason: '',
          evidence: { mobile: '254711082300', amountMinor: 10_000n },
        },
      ],
    });
    expect(africastalkingWebhooks.reply(event)).toEqual({
      status: 200,
      contentType: 'application/json',
      body: '{"status":"ok"}',
    });
  });

  it('reads a form-encoded Failed callback as declined with AT’s description, or a fixed reason without one', () => {
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const failed = status(
      'application/x-www-form-urlencoded',
      form({
        requestId: 'ATQid_2',
        status: 'Failed',
        phoneNumber: '+254711080005',
        description: 'carrier error',
        value: 'KES 50.0000',
      }),
    );
    expect(failed).toEqual({
      kind: 'reports',
      eventId: 'airtime-status:ATQid_2:Failed',
      reports: [
        {
          id: 'airtime-status:ATQid_2:Failed',
          providerId: 'ATQid_2',
          about: 'submission',
          outcome: 'declined',
          providerCode: 'ATQid_2',
          reason: 'carrier error',
          evidence: { mobile: '254711080005', amountMinor: 5_000n },
        },
      ],
    });
    const bare = status(
      'application/x-www-form-urlencoded',
      form({ requestId: 'ATQid_3', status: 'Failed' }),
    );
    expect(bare).toMatchObject({ reports: [{ outcome: 'declined', reason: AFRICASTALKING_UNDELIVERED }] });
  });

  it('gives a repeated callback the same event id, so it is stored once', () => {
    const body = fixture('status-callback-success');
    expect(status('application/json', body)).toEqual(status('application/json', body));
  });

  it('reads garbage as garbled, answered 400', () => {
    for (const body of [
      '<html>Bad Gateway</html>',
      '',
      '{"status":"Success"}',
      'requestId=ATQid_4&status=Sent',
    ]) {
      const event = status('application/json', body);
      expect(event.kind).toBe('garbled');
      expect(africastalkingWebhooks.reply(event).status).toBe(400);
    }
    expect(status('', '{"status":"Success"}')).toEqual({
      kind: 'garbled',
      problem: 'expected a requestId in the untyped body, found none',
    });
  });

  it('ignores any other event, answered 200', () => {
    const event = africastalkingWebhooks.parse({
      event: 'result',
      contentType: 'application/json',
      body: '{}',
    });
    expect(event).toMatchObject({ kind: 'ignored', why: 'no such event: result' });
    expect(africastalkingWebhooks.reply(event).status).toBe(200);
  });
});
