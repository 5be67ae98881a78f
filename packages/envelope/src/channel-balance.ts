// Where a balance sits in the envelope and the form it takes. `channel.balance` is the one value the
// JSON form writes as a number; everywhere in the model it is a decimal string with exactly two places.

// No leading zeros: the JSON form writes the balance as a number token, and `0150.00` is not one.
const twoDecimalBalance = /^-?(?:0|[1-9]\d*)\.\d{2}$/;
const decimalBalance = /^(-?(?:0|[1-9]\d*))(?:\.(\d{1,2}))?$/;

/**
 * Whether the value under `key` is a channel balance: a `balance` field of the `channel` object or of
 * an entry of the `channels` list. `parentKey` is the key the enclosing object sits under (for list
 * entries, the key of the list).
 */
export function isChannelBalance(parentKey: string | undefined, key: string): boolean {
  return key === 'balance' && (parentKey === 'channel' || parentKey === 'channels');
}

/** Whether a model balance has the required form: optional minus, digits, a dot and exactly two places. */
export function isTwoDecimalBalance(value: string): boolean {
  return twoDecimalBalance.test(value);
}

/**
 * A balance read off the wire in its model form: `1500` and `1500.5` become `1500.00` and `1500.50`.
 * Undefined when the text is not a plain decimal with at most two places (no exponent, no third place:
 * a balance is never rounded).
 */
export function normalizeBalance(text: string): string | undefined {
  const match = decimalBalance.exec(text);
  if (match === null) return undefined;
  const [, whole = '', fraction = ''] = match;
  return `${whole}.${fraction.padEnd(2, '0')}`;
}
