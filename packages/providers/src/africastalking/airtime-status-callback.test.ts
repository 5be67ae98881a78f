import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAirtimeStatusCallback } from './airtime-status-callback.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');

describe('parseAirtimeStatusCallback', () => {
  it('reads a delivered recipient from a JSON body', () => {
    expect(parseAirtimeStatusCallback('application/json', fixture('status-callback-success'))).toEqual({
      ok: true,
      status: {
        requestId: 'ATQid_dba7c4a6c51b8a3e5b2f9c4d1e7a0b3c',
        delivered: true,
        phoneNumber: '+254711082300',
        description: 'Airtime Delivered Successfully',
        value: 'KES 100.0000',
        discount: 'KES 4.0000',
      },
    });
  });

  it('reads the same from a form-encoded body, whatever the content type claims', () => {
    const form = new URLSearchParams({
      requestId: 'ATQid_2',
      status: 'Failed',
      phoneNumber: '+254711082300',
      description: 'Airtime delivery failed',
    }).toString();
    for (const type of ['application/x-www-form-urlencoded', 'application/json', '']) {
      expect(parseAirtimeStatusCallback(type, form)).toEqual({
        ok: true,
        status: {
          requestId: 'ATQid_2',
          delivered: false,
          phoneNumber: '+254711082300',
          description: 'Airtime delivery failed',
          value: '',
          discount: '',
        },
      });
    }
  });

  it('says what is missing or unknown instead of guessing', () => {
    expect(parseAirtimeStatusCallback('application/json', '{"status":"Success"}')).toEqual({
      ok: false,
      problem: 'expected a requestId in the application/json body, found none',
    });
    expect(parseAirtimeStatusCallback('', 'requestId=ATQid_3&status=Sent')).toEqual({
      ok: false,
      problem: 'expected status Success or Failed for ATQid_3, received "Sent"',
    });
  });
});
