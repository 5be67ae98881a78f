// Golden fixtures: query answers as Africa's Talking gives them (fixtures/query-answer-*.json), and the
// request that asks.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { airtimeQueryRequest, readAirtimeQueryAnswer } from './airtime-query.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');

describe('airtimeQueryRequest', () => {
  it('asks by the requestId under our username, with the apiKey header', () => {
    expect(airtimeQueryRequest({ username: 'topup', apiKey: 'at-key', requestId: 'ATQid_1' })).toEqual({
      path: '/query/transaction/find?username=topup&transactionId=ATQid_1',
      headers: { apiKey: 'at-key', Accept: 'application/json' },
    });
  });
});

describe('readAirtimeQueryAnswer', () => {
  it('reads a delivered send', () => {
    expect(readAirtimeQueryAnswer(200, fixture('query-answer-delivered'))).toEqual({
      kind: 'delivered',
      requestId: 'ATQid_dba7c4a6c51b8a3e5b2f9c4d1e7a0b3c',
      evidence: { mobile: '254711082300', amountMinor: 10_000n },
    });
  });

  it('reads a send it does not know as not found', () => {
    expect(readAirtimeQueryAnswer(200, fixture('query-answer-not-found'))).toEqual({ kind: 'not_found' });
  });

  it('reads a failed send with its description, and one still with the carrier as sent', () => {
    expect(
      readAirtimeQueryAnswer(
        200,
        '{"status":"Success","data":{"requestId":"ATQid_2","status":"Failed","description":"carrier error"}}',
      ),
    ).toEqual({ kind: 'failed', requestId: 'ATQid_2', description: 'carrier error' });
    expect(
      readAirtimeQueryAnswer(200, '{"status":"Success","data":{"requestId":"ATQid_3","status":"Sent"}}'),
    ).toEqual({ kind: 'sent', requestId: 'ATQid_3' });
  });

  it('reads an error page, a refusal or an odd status as unknown, never as a failure', () => {
    expect(readAirtimeQueryAnswer(401, 'The supplied authentication is invalid')).toEqual({
      kind: 'unknown',
      problem: 'HTTP 401: "The supplied authentication is invalid"',
    });
    expect(readAirtimeQueryAnswer(200, '{"status":"Failure","errorMessage":"Rate limited"}')).toEqual({
      kind: 'unknown',
      problem: 'the query failed: Rate limited',
    });
    expect(
      readAirtimeQueryAnswer(200, '{"status":"Success","data":{"requestId":"ATQid_4","status":"Reversed"}}'),
    ).toEqual({
      kind: 'unknown',
      problem: 'expected a status of Success, Failed or Sent, received "Reversed"',
    });
  });
});
