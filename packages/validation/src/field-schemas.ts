// The schema of each kind of field value, applied to a value that is present (absence is the
// request parser's concern). Integers take a JSON number or a digit string and are normalised by a
// transform placed after the wire description, so that `z.toJSONSchema(…, { io: 'input' })` still
// documents what a caller may send. Every free-text field refuses characters XML cannot carry.

import { firstNonXmlChar } from '@topup/envelope';
import { z } from 'zod';
import { readDateBound } from './date-bounds.js';
import { findCountry, isKnownCurrency } from './detection.js';
import { maxIdentifierDigits, toDigitString, toPositiveInteger } from './integers.js';
import { normalizeMobile } from './mobile.js';

/** Longest name or note accepted; the spec leaves string lengths open. */
export const maxTextLength = 100;
/** Longest e-mail address (RFC 5321 path limit). */
export const maxEmailLength = 254;
/** Longest callback URL accepted. */
export const maxUrlLength = 2048;
/** Longest callback endpoint description accepted. */
export const maxDescriptionLength = 200;
/** Longest transaction reference or endpoint id accepted. */
export const maxIdentifierLength = 100;

type IntegerOnTheWire = number | string;

// A transform step that keeps what `normalise` returns and fails the field when it returns undefined.
function normalisedBy<Out>(normalise: (value: IntegerOnTheWire) => Out | undefined) {
  return (value: IntegerOnTheWire, context: z.core.$RefinementCtx<IntegerOnTheWire>): Out => {
    const normalised = normalise(value);
    if (normalised !== undefined) return normalised;
    context.issues.push({ code: 'custom', message: 'not accepted by the normalisation', input: value });
    return z.NEVER;
  };
}

/** A mobile number in any accepted form, normalised to `2547XXXXXXXX` / `2541XXXXXXXX`. */
export const mobileNumber = z
  .union([z.int().positive(), z.string().regex(/^\+?[0-9][0-9 -]*$/)])
  .meta({ examples: ['254712345678', 254712345678, '0712 345 678', '+254-712-345-678'] })
  .transform(normalisedBy(normalizeMobile));

/** A positive whole amount: JSON number or digit string, no sign, decimals, exponent or spaces. */
export const wholeAmount = z
  .union([z.int().positive(), z.string().regex(/^[0-9]+$/)])
  .meta({ examples: [1500, '1500'] })
  .transform(normalisedBy(toPositiveInteger));

/** A number issued by a network (agent or store number), kept as its digit string. */
export const networkIssuedNumber = z
  .union([z.int().nonnegative(), z.string().regex(new RegExp(`^[0-9]{1,${maxIdentifierDigits}}$`))])
  .transform(normalisedBy(toDigitString));

// Accepted text is stored, and shown again in answers and callbacks that may be XML: a character XML
// cannot carry would fail that answer after the ledger had acted, and a NUL fails the database write.
// Checked before trimming, so what is judged is what the caller sent.
function xmlCarriableText() {
  return z.string().refine((text) => firstNonXmlChar(text) === undefined);
}

/** Free text such as a name or note: only characters XML can carry, trimmed, at most `maxLength`. */
export function boundedText(maxLength: number) {
  return xmlCarriableText().trim().max(maxLength);
}

/** A plausible e-mail address, trimmed. */
export const emailAddress = xmlCarriableText().trim().max(maxEmailLength).check(z.email());

/** An ISO 3166-1 alpha-2 code of a known country, any case, normalised to upper case. */
export const countryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/)
  .toUpperCase()
  .refine((country) => findCountry(country) !== undefined)
  .meta({ examples: ['KE'] });

/** An ISO 4217 code of a known currency, any case, normalised to upper case. */
export const currencyCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/)
  .toUpperCase()
  .refine(isKnownCurrency)
  .meta({ examples: ['KES'] });

/** An identifier the service issued (transaction reference, endpoint id). */
export const serviceIdentifier = xmlCarriableText().trim().min(1).max(maxIdentifierLength);

/** An absolute `http` or `https` URL. */
export const callbackUrl = xmlCarriableText()
  .trim()
  .max(maxUrlLength)
  .check(z.url({ protocol: /^https?$/ }));

/** Most entries one page of a listing holds. */
export const maxPageLimit = 100;
/** Entries in a page of a listing when the request names no `limit`. */
export const defaultPageLimit = 50;

/** An ISO 8601 date or date-time (`readDateBound`), kept as sent: its time zone is the ledger's to apply. */
export const dateBoundText = xmlCarriableText()
  .trim()
  .refine((text) => readDateBound(text) !== undefined)
  .meta({ examples: ['2025-11-21', '2025-11-21T14:05:09', '2025-11-21T11:05:09Z'] });

/** How many entries a page holds: 1 to `maxPageLimit`, a JSON number or a digit string. */
export const pageLimit = z
  .union([z.int().min(1).max(maxPageLimit), z.string().regex(/^[0-9]+$/)])
  .transform(normalisedBy(toPositiveInteger))
  .refine((limit) => limit <= maxPageLimit)
  .default(defaultPageLimit);

/** An `Idempotency-Key` as the header carries it: 1 to 255 visible ASCII characters. */
export const idempotencyKeyText = z
  .string()
  .trim()
  .regex(/^[\x21-\x7e]{1,255}$/);
