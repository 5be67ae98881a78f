// Turning a decoded tree into an envelope, shared by the JSON and XML decoders once each has undone its
// own syntax. It checks the status block and `data.errors`, keeps every other field as a string, list
// or object, and restores channel balances to their two-decimal model form.

import { isChannelBalance, normalizeBalance } from './channel-balance.js';
import type { Envelope } from './envelope.js';
import { EnvelopeDecodeError } from './envelope-decode-error.js';
import { statusCodes, type FailureCode } from './status-codes.js';
import { listEntryName } from './wire-arrays.js';
import { describeValue } from './value-description.js';

/** A number token read from JSON, kept as its exact text until we know where it sits. */
export class WireNumber {
  constructor(readonly source: string) {}
}

/** How the wire form carries a channel balance: a JSON number token or XML text. */
export type BalanceForm = 'number' | 'text';

/** The envelope a decoded tree describes; throws `EnvelopeDecodeError` saying what is wrong where. */
export function readEnvelope(tree: unknown, balanceForm: BalanceForm): Envelope {
  if (!isRecord(tree)) throw mismatch('an envelope object', 'the top', tree);
  const status = readStatus(tree.status);
  const data = tree.data;
  if (!isRecord(data)) throw mismatch('a data object', 'data', data);
  const errors = readErrors(data.errors);
  const fields = Object.fromEntries(
    Object.entries(data)
      .filter(([key]) => key !== 'errors')
      .map(([key, value]) => [key, readField(key, value, `data.${key}`, 'data', balanceForm)]),
  );
  if (status.type === 'SUCCESS') {
    if (errors.length > 0) {
      throw new EnvelopeDecodeError(
        `Expected an empty data.errors on a SUCCESS envelope, received ${errors.length} errors.`,
      );
    }
    return { status, data: { errors: [], ...fields } };
  }
  return { status, data: { errors, ...fields } };
}

type ReadStatus =
  { type: 'SUCCESS'; code: '0000'; message: string } | { type: 'FAIL'; code: FailureCode; message: string };

function readStatus(status: unknown): ReadStatus {
  if (!isRecord(status)) throw mismatch('a status object', 'status', status);
  const { type, code, message } = status;
  if (typeof message !== 'string') throw mismatch('a string', 'status.message', message);
  if (type === 'SUCCESS') {
    if (code !== '0000') throw mismatch('the code "0000" with type SUCCESS', 'status.code', code);
    return { type, code, message };
  }
  if (type === 'FAIL') {
    if (!isFailureCode(code)) throw mismatch('one of the failure codes 1000 to 9000', 'status.code', code);
    return { type, code, message };
  }
  throw mismatch('"SUCCESS" or "FAIL"', 'status.type', type);
}

function isFailureCode(code: unknown): code is FailureCode {
  return typeof code === 'string' && Object.hasOwn(statusCodes, code) && code !== '0000';
}

function readErrors(errors: unknown): string[] {
  if (!Array.isArray(errors)) throw mismatch('a list of strings', 'data.errors', errors);
  return errors.map((entry: unknown, index) => {
    if (typeof entry !== 'string') throw mismatch('a string', `data.errors[${index}]`, entry);
    return entry;
  });
}

// Mirrors the encoders: lists only under the known list keys, and those keys always hold lists.
function readField(
  name: string,
  value: unknown,
  path: string,
  parentKey: string,
  balanceForm: BalanceForm,
): unknown {
  if (isChannelBalance(parentKey, name)) return readBalance(value, path, balanceForm);
  if (listEntryName(name) !== undefined) {
    if (!Array.isArray(value)) throw mismatch('a list', path, value);
    return value.map((entry: unknown, index) => readContent(entry, `${path}[${index}]`, name, balanceForm));
  }
  return readContent(value, path, name, balanceForm);
}

// `ownKey` is the key the value sits under (a list entry's is its list's key): its fields' parent key.
function readContent(value: unknown, path: string, ownKey: string, balanceForm: BalanceForm): unknown {
  if (typeof value === 'string') return value;
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([field, fieldValue]) => [
        field,
        readField(field, fieldValue, `${path}.${field}`, ownKey, balanceForm),
      ]),
    );
  }
  throw mismatch(
    Array.isArray(value) ? 'no list here (not a known list key)' : 'a string or object',
    path,
    value,
  );
}

function readBalance(value: unknown, path: string, balanceForm: BalanceForm): string {
  let source: string;
  if (balanceForm === 'number') {
    if (!(value instanceof WireNumber)) throw mismatch('a JSON number', path, value);
    source = value.source;
  } else {
    if (typeof value !== 'string') throw mismatch('a decimal as text', path, value);
    source = value;
  }
  const balance = normalizeBalance(source);
  if (balance === undefined) throw mismatch('a decimal with at most two places', path, value);
  return balance;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof WireNumber)
  );
}

function mismatch(expected: string, where: string, received: unknown): EnvelopeDecodeError {
  return new EnvelopeDecodeError(`Expected ${expected} at ${where}, received ${describe(received)}.`);
}

function describe(value: unknown): string {
  return value instanceof WireNumber ? `the number ${value.source}` : describeValue(value);
}
