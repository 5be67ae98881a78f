import { describe, expect, it } from 'vitest';
import { invalid, required } from './error-messages.js';

describe('error messages', () => {
  it('writes a missing field as the spec does, quoted and with a period', () => {
    expect(required('mobile')).toBe("'mobile is required.'");
  });

  it('writes a wrong field as the spec does, quoted and without a period', () => {
    expect(invalid('amount')).toBe("'amount is invalid'");
  });
});
