// Money as people read it: thousands grouped, the decimals the value came with. Amounts arrive as digit
// strings ("1500"), balances as two-place decimals; the JSON form writes a channel's balance as a number
// token, so JSON.parse hands it over as a number (1500.5), which is shown with its two places again.

const plainDecimal = /^(-?)(\d+)(\.\d+)?$/;

function grouped(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "1500" → "1,500"; "-20000.50" → "-20,000.50"; 1500.5 → "1,500.50"; anything else unchanged. */
export function formatMoney(value: string | number): string {
  const text = typeof value === 'number' ? value.toFixed(2) : value;
  const match = plainDecimal.exec(text);
  if (match === null) return text;
  const [, sign = '', whole = '', fraction = ''] = match;
  return `${sign}${grouped(whole)}${fraction}`;
}
