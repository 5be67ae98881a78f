import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-rules';

describe('passwordProblem', () => {
  it('accepts 12 to 200 characters typed twice alike', () => {
    expect(passwordProblem('correct horse', 'correct horse')).toBeUndefined();
    expect(passwordProblem('a'.repeat(200), 'a'.repeat(200))).toBeUndefined();
  });

  it('says what is wrong', () => {
    expect(passwordProblem('short', 'short')).toBe('The password needs at least 12 characters.');
    expect(passwordProblem('a'.repeat(201), 'a'.repeat(201))).toBe(
      'The password can have at most 200 characters.',
    );
    expect(passwordProblem('correct horse', 'correct hose!')).toBe('The two passwords differ.');
  });
});
