import { describe, expect, it } from 'vitest';
import { darajaTimestamp, stkPassword } from './daraja-timestamp.js';

describe('darajaTimestamp', () => {
  it('writes the time in East Africa Time, three hours ahead of UTC, across a date change', () => {
    expect(darajaTimestamp(new Date('2026-11-24T21:05:09.999Z'))).toBe('20261125000509');
    expect(darajaTimestamp(new Date('2026-12-31T20:59:59Z'))).toBe('20261231235959');
    expect(darajaTimestamp(new Date('2026-12-31T21:00:00Z'))).toBe('20270101000000');
  });
});

describe('stkPassword', () => {
  it('is base64 of the short code, passkey and timestamp run together', () => {
    const password = stkPassword('174379', 'bfb279f9aa9bdbcf158e97dd71a467cd', '20260101120000');
    expect(Buffer.from(password, 'base64').toString('utf8')).toBe(
      '174379bfb279f9aa9bdbcf158e97dd71a467cd20260101120000',
    );
    expect(stkPassword('174379', 'passkey', '20261125000509')).toBe('MTc0Mzc5cGFzc2tleTIwMjYxMTI1MDAwNTA5');
  });
});
