// Verifying a received callback against one or more secrets: either header set (Standard Webhooks or the
// spec's), a timestamp tolerance both ways, constant-time comparison of the raw bytes' MACs, and a reason
// for every failure.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readHeader } from './header-lookup.js';
import type { HeaderSource } from './header-lookup.js';
import { bodyBytes, signatureHashMac, webhookSignatureMac } from './mac.js';
import type { CallbackBody } from './mac.js';
import { decodeSecrets } from './secret.js';
import { SIGNATURE_ALGORITHM, signatureHeaderNames as names } from './signature-headers.js';
import {
  parseSignatureHashes,
  parseTimestamp,
  parseWebhookSignatures,
  preview,
} from './signature-parsing.js';

/**
 * Seconds a callback timestamp may differ from the receiver's clock, in either direction.
 *
 * @example
 * ```ts
 * import { DEFAULT_TOLERANCE_SECONDS } from '@topup/signing';
 *
 * DEFAULT_TOLERANCE_SECONDS; // 300
 * ```
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Why a callback failed verification.
 *
 * @example
 * ```ts
 * import { verifyCallback, type VerificationFailureReason } from '@topup/signing';
 *
 * const result = verifyCallback({
 *   secrets: ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
 *   headers: {},
 *   body: '',
 * });
 * const reason: VerificationFailureReason | undefined = result.ok ? undefined : result.reason;
 * reason; // 'missing_header'
 * ```
 */
export type VerificationFailureReason = 'missing_header' | 'bad_format' | 'too_old' | 'too_new' | 'no_match';

/**
 * A verified callback. `key` identifies the callback for de-duplication whichever signature verified it:
 * `sha256:` and the hex SHA-256 of the raw body, which every retry of one callback repeats byte for byte
 * and which both signatures bind. `id` is the `webhook-id`, present when the Standard Webhooks headers
 * verified it; it cannot serve for de-duplication alone, since a captured callback replayed with those
 * headers stripped still verifies by its `Signature-Hash`, without any id.
 *
 * @example
 * ```ts
 * import { signCallback, verifyCallback, type VerifiedCallbackSignature } from '@topup/signing';
 *
 * const secrets = ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='];
 * const body = '{"status":{"type":"SUCCESS"}}';
 * const headers = signCallback({ secrets, id: 'cb_1', timestamp: 1763740800, body });
 * const result = verifyCallback({ secrets, headers, body, now: 1763740800 });
 * if (result.ok) {
 *   const verified: VerifiedCallbackSignature = result;
 *   verified.id; // 'cb_1'
 *   verified.key; // 'sha256:…' of the body: the same for every retry, and for a replay without webhook-id
 * }
 * ```
 */
export interface VerifiedCallbackSignature {
  readonly ok: true;
  readonly id?: string;
  readonly timestamp: number;
  /** The de-duplication key: `sha256:<hex of the raw body>`. */
  readonly key: string;
}

/**
 * A rejected callback: the reason and a message saying what was expected and what was received.
 *
 * @example
 * ```ts
 * import { signCallback, verifyCallback } from '@topup/signing';
 *
 * const secrets = ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='];
 * const headers = signCallback({ secrets, id: 'cb_1', timestamp: 1763740800, body: 'sent' });
 * const result = verifyCallback({ secrets, headers, body: 'tampered', now: 1763740800 });
 * if (!result.ok) {
 *   result.reason; // 'no_match'
 *   console.warn(result.message); // says what was expected and what was received
 * }
 * ```
 */
export interface CallbackVerificationFailure {
  readonly ok: false;
  readonly reason: VerificationFailureReason;
  readonly message: string;
}

/**
 * The outcome of `verifyCallback`: a verified signature, or a failure with its reason. Check `ok` first.
 *
 * @example
 * ```ts
 * import { verifyCallback, type CallbackVerification } from '@topup/signing';
 *
 * const result: CallbackVerification = verifyCallback({
 *   secrets: ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
 *   headers: { 'Signature-Timestamp': '1763740800' },
 *   body: '{}',
 *   now: 1763740800,
 * });
 * result.ok ? result.timestamp : result.reason; // 'missing_header'
 * ```
 */
export type CallbackVerification = VerifiedCallbackSignature | CallbackVerificationFailure;

/**
 * What `verifyCallback` checks: the endpoint's secrets, the headers and raw body received, and the clock.
 *
 * @example
 * ```ts
 * import type { VerifyCallbackInput } from '@topup/signing';
 *
 * const input: VerifyCallbackInput = {
 *   secrets: ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
 *   headers: { 'webhook-id': 'cb_1', 'webhook-timestamp': '1763740800', 'webhook-signature': 'v1,…' },
 *   body: '{"status":{"type":"SUCCESS"}}',
 *   toleranceSeconds: 60,
 * };
 * ```
 */
export interface VerifyCallbackInput {
  /** The endpoint's secrets; during a rotation both. Any of them may have signed the callback. */
  readonly secrets: readonly string[];
  /** The received headers, read case-insensitively. */
  readonly headers: HeaderSource;
  /** The raw body exactly as received; a string is taken as its UTF-8 bytes. Never re-serialised JSON. */
  readonly body: CallbackBody;
  /** The receiver's clock in Unix seconds; defaults to now. */
  readonly now?: number;
  /** Allowed clock difference in seconds, both ways; defaults to 300. */
  readonly toleranceSeconds?: number;
}

/** The signed material of one header set, ready to compare. */
interface ReceivedSignatures {
  readonly headerName: string;
  readonly id?: string;
  readonly timestamp: number;
  readonly macs: readonly Buffer[];
  readonly expectedMac: (key: Buffer, body: Buffer) => Buffer;
}

/**
 * Verifies a received callback. The Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) are used when `webhook-signature` is present, otherwise the spec's
 * (`Signature-Timestamp`, `Signature-Hash`, and `Signature-Algorithm` which must be `HMAC-SHA256` when
 * present). Any listed signature may match any of the secrets.
 * @throws Error when the secrets are malformed or empty, the tolerance is not a non-negative number, or
 *   `now` is not finite: those are configuration errors, not properties of the request.
 *
 * @example
 * ```ts
 * import { signCallback, verifyCallback } from '@topup/signing';
 *
 * const secrets = ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='];
 * const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Agent float deposited"}}';
 * const headers = signCallback({ secrets, id: 'cb_01JD8Z6Q4M', timestamp: 1763740800, body });
 *
 * verifyCallback({ secrets, headers, body, now: 1763740800 }); // { ok: true, id: 'cb_01JD8Z6Q4M', timestamp: 1763740800, key: 'sha256:…' }
 * const late = verifyCallback({ secrets, headers, body, now: 1763741400 }); // 600 s later
 * late.ok ? late.timestamp : late.reason; // 'too_old'
 * ```
 */
export function verifyCallback(input: VerifyCallbackInput): CallbackVerification {
  const keys = decodeSecrets(input.secrets);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new Error(`Expected toleranceSeconds to be a non-negative number, received ${tolerance}.`);
  }
  const now = input.now ?? Math.floor(Date.now() / 1000);
  // A NaN clock would compare false both ways and silently disable the tolerance check.
  if (!Number.isFinite(now)) {
    throw new Error(`Expected now to be a finite number of Unix seconds, received ${now}.`);
  }

  const received = readSignatures(input.headers);
  if (!received.ok) {
    return received;
  }
  const { headerName, timestamp } = received.value;

  const age = now - timestamp;
  if (age > tolerance) {
    return failure(
      'too_old',
      `Expected a timestamp within ${tolerance} s of the receiver's clock (${now}), received ${timestamp}, ${age} s old.`,
    );
  }
  if (-age > tolerance) {
    return failure(
      'too_new',
      `Expected a timestamp within ${tolerance} s of the receiver's clock (${now}), received ${timestamp}, ${-age} s in the future.`,
    );
  }

  const body = bodyBytes(input.body);
  const expected = keys.map((key) => received.value.expectedMac(key, body));
  const matched = received.value.macs.some((mac) =>
    expected.some((candidate) => timingSafeEqual(mac, candidate)),
  );
  if (!matched) {
    return failure(
      'no_match',
      `Expected one of the ${received.value.macs.length} ${headerName} value(s) to match the HMAC-SHA256 of the body under one of the ${keys.length} secret(s), received no match.`,
    );
  }
  const key = `sha256:${createHash('sha256').update(body).digest('hex')}`;
  return received.value.id === undefined
    ? { ok: true, timestamp, key }
    : { ok: true, id: received.value.id, timestamp, key };
}

function readSignatures(
  headers: HeaderSource,
): { readonly ok: true; readonly value: ReceivedSignatures } | CallbackVerificationFailure {
  const webhookSignature = readHeader(headers, names.webhookSignature);
  if (webhookSignature !== undefined) {
    return readStandardWebhooksSignatures(headers, webhookSignature);
  }
  const hash = readHeader(headers, names.hash);
  if (hash !== undefined) {
    return readSpecSignatures(headers, hash);
  }
  return failure(
    'missing_header',
    `Expected a ${names.webhookSignature} header (Standard Webhooks) or a ${names.hash} header, received neither.`,
  );
}

function readStandardWebhooksSignatures(
  headers: HeaderSource,
  signatureText: string,
): { readonly ok: true; readonly value: ReceivedSignatures } | CallbackVerificationFailure {
  const id = readHeader(headers, names.webhookId);
  const timestampText = readHeader(headers, names.webhookTimestamp);
  const missing = [
    ...(id === undefined ? [names.webhookId] : []),
    ...(timestampText === undefined ? [names.webhookTimestamp] : []),
  ];
  if (id === undefined || timestampText === undefined) {
    return failure(
      'missing_header',
      `Expected ${names.webhookId} and ${names.webhookTimestamp} alongside ${names.webhookSignature}, received no ${missing.join(' or ')}.`,
    );
  }
  const timestamp = parseTimestamp(names.webhookTimestamp, timestampText);
  if (!timestamp.ok) {
    return failure('bad_format', timestamp.message);
  }
  const macs = parseWebhookSignatures(names.webhookSignature, signatureText);
  if (!macs.ok) {
    return failure('bad_format', macs.message);
  }
  return {
    ok: true,
    value: {
      headerName: names.webhookSignature,
      id,
      timestamp: timestamp.value,
      macs: macs.value,
      expectedMac: (key, body) => webhookSignatureMac(key, id, timestampText, body),
    },
  };
}

function readSpecSignatures(
  headers: HeaderSource,
  hashText: string,
): { readonly ok: true; readonly value: ReceivedSignatures } | CallbackVerificationFailure {
  const algorithm = readHeader(headers, names.algorithm);
  if (algorithm !== undefined && algorithm.toUpperCase() !== SIGNATURE_ALGORITHM) {
    return failure(
      'bad_format',
      `Expected ${names.algorithm} to be ${SIGNATURE_ALGORITHM}, received ${preview(algorithm)}.`,
    );
  }
  const timestampText = readHeader(headers, names.timestamp);
  if (timestampText === undefined) {
    return failure(
      'missing_header',
      `Expected a ${names.timestamp} header alongside ${names.hash}, received none.`,
    );
  }
  const timestamp = parseTimestamp(names.timestamp, timestampText);
  if (!timestamp.ok) {
    return failure('bad_format', timestamp.message);
  }
  const macs = parseSignatureHashes(names.hash, hashText);
  if (!macs.ok) {
    return failure('bad_format', macs.message);
  }
  return {
    ok: true,
    value: {
      headerName: names.hash,
      timestamp: timestamp.value,
      macs: macs.value,
      expectedMac: (key, body) => signatureHashMac(key, timestampText, body),
    },
  };
}

function failure(reason: VerificationFailureReason, message: string): CallbackVerificationFailure {
  return { ok: false, reason, message };
}
