// Text the ledger stores and later shows in answers and callbacks, in JSON or XML. XML cannot carry some
// characters (NUL, most control characters, U+FFFE, U+FFFF, lone surrogates), and PostgreSQL refuses NUL in
// text outright: a value with one would fail every request batched with it, or an answer after the money
// moved. The API's validation refuses them first; this is the ledger's own guard for every other caller.

import { codePointLabel, firstNonXmlChar } from '@topup/envelope';
import { LedgerError } from './ledger-error.js';

/** Throws `invalid_input` naming `field` when `text` holds a character XML cannot carry. */
export function assertWireText(field: string, text: string): void {
  const char = firstNonXmlChar(text);
  if (char === undefined) return;
  throw new LedgerError(
    'invalid_input',
    `Expected ${field} without characters XML cannot carry, received one with ${codePointLabel(char)}.`,
  );
}

/** `assertWireText` for each named field of `fields` that is a string. */
export function assertWireFields(what: string, fields: object): void {
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') assertWireText(`${what} ${name}`, value);
  }
}
