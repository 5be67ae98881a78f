import { describe, expect, it } from 'vitest';
import { createTokenVerdicts, type Verdict } from './token-verdicts.js';

function verdictsOn(ttlMs: number, maxEntries: number, now: () => number) {
  const verdicts = createTokenVerdicts(ttlMs, maxEntries, now);
  return {
    get: (token: string) => verdicts.get(verdicts.keyOf(token)),
    set: (token: string, verdict: Verdict) => {
      verdicts.set(verdicts.keyOf(token), verdict);
    },
  };
}

describe('recent verdicts on tokens', () => {
  it('remembers a verdict for its lifetime, and the latest verdict on a token wins', () => {
    let now = 0;
    const verdicts = verdictsOn(1_000, 10, () => now);
    verdicts.set('tk_test_a', 'valid');
    verdicts.set('tk_test_b', 'invalid');
    expect([verdicts.get('tk_test_a'), verdicts.get('tk_test_b'), verdicts.get('tk_test_c')]).toEqual([
      'valid',
      'invalid',
      undefined,
    ]);
    verdicts.set('tk_test_a', 'invalid');
    expect(verdicts.get('tk_test_a')).toBe('invalid');
    now = 1_000;
    expect(verdicts.get('tk_test_b')).toBeUndefined();
  });

  it('forgets the oldest of a kind when full, so a flood of invalid tokens never pushes out valid ones', () => {
    const verdicts = verdictsOn(60_000, 3, () => 0);
    verdicts.set('tk_test_valid', 'valid');
    for (let index = 0; index < 100; index += 1) verdicts.set(`tk_test_guess_${index}`, 'invalid');
    expect(verdicts.get('tk_test_valid')).toBe('valid');
    expect(verdicts.get('tk_test_guess_96')).toBeUndefined();
    expect(verdicts.get('tk_test_guess_99')).toBe('invalid');
  });

  it('keeps tokens under their SHA-256 digest, never themselves', () => {
    const verdicts = createTokenVerdicts();
    expect(verdicts.keyOf('tk_test_a')).toBe('um6tdvC0QqADLxkxhs8KN2tmGg25g0kKMmMAvIpvXY4=');
  });
});
