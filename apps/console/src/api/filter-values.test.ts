import { describe, expect, it } from 'vitest';
import { filledIn, queryString } from './filter-values';

describe('filledIn', () => {
  it('keeps only the fields that hold something, trimmed', () => {
    expect(filledIn({ reference: ' TX1 ', mobile: '', state: '   ', from: '2025-11-01' })).toEqual({
      reference: 'TX1',
      from: '2025-11-01',
    });
  });
});

describe('queryString', () => {
  it('encodes the filled-in fields', () => {
    expect(queryString({ type: 'Agent Float', mobile: '', to: '2025-11-30' })).toBe(
      '?type=Agent+Float&to=2025-11-30',
    );
  });

  it('is empty when nothing is filled in', () => {
    expect(queryString({ type: '' })).toBe('');
  });
});
