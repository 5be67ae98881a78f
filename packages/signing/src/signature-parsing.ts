// Parsing the received signature header values into numbers and MAC bytes, with messages that say what
// was expected and what was received.

/** A parsed header value, or why it could not be parsed. */
export type ParsedHeader<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const MAC_BYTES = 32;
// The base64 of a 32-byte HMAC-SHA256 is always 43 characters and one `=`.
const MAC_BASE64 = /^[A-Za-z0-9+/]{43}=$/;
// Canonical integers only, so the text signed and the number compared can never disagree.
const UNIX_SECONDS = /^(?:0|[1-9][0-9]{0,15})$/;
const RECEIVED_PREVIEW_CHARS = 60;

/** Parses a timestamp header of whole Unix seconds. */
export function parseTimestamp(headerName: string, raw: string): ParsedHeader<number> {
  if (!UNIX_SECONDS.test(raw)) {
    return {
      ok: false,
      message: `Expected ${headerName} to be whole Unix seconds (digits only), received ${preview(raw)}.`,
    };
  }
  return { ok: true, value: Number(raw) };
}

/** Parses `Signature-Hash`: one or more base64 HMAC-SHA256 values, separated by spaces. */
export function parseSignatureHashes(headerName: string, raw: string): ParsedHeader<Buffer[]> {
  // Commas too: a header repeated by a proxy arrives joined with `, `.
  const entries = raw.split(/[\s,]+/).filter((entry) => entry !== '');
  const macs: Buffer[] = [];
  for (const entry of entries) {
    const mac = decodeMac(entry);
    if (mac === undefined) {
      return {
        ok: false,
        message: `Expected ${headerName} to hold space-separated base64 HMAC-SHA256 values (44 characters each), received ${preview(raw)}.`,
      };
    }
    macs.push(mac);
  }
  if (macs.length === 0) {
    return {
      ok: false,
      message: `Expected ${headerName} to hold at least one base64 HMAC-SHA256 value, received ${preview(raw)}.`,
    };
  }
  return { ok: true, value: macs };
}

/**
 * Parses `webhook-signature`: space-separated `<version>,<base64>` entries. Entries of other versions
 * (such as Standard Webhooks' asymmetric `v1a`) are skipped; at least one `v1` entry is required.
 */
export function parseWebhookSignatures(headerName: string, raw: string): ParsedHeader<Buffer[]> {
  const entries = raw
    .split(/\s+/)
    // A header repeated by a proxy arrives joined with `, `, which leaves a trailing comma on an entry.
    .map((entry) => entry.replace(/,$/, ''))
    .filter((entry) => entry !== '');
  const macs: Buffer[] = [];
  for (const entry of entries) {
    const comma = entry.indexOf(',');
    if (comma <= 0) {
      return {
        ok: false,
        message: `Expected ${headerName} entries of the form v1,<base64>, received ${preview(raw)}.`,
      };
    }
    if (entry.slice(0, comma) !== 'v1') {
      continue;
    }
    const mac = decodeMac(entry.slice(comma + 1));
    if (mac === undefined) {
      return {
        ok: false,
        message: `Expected each v1 entry of ${headerName} to be a base64 HMAC-SHA256 (44 characters), received ${preview(raw)}.`,
      };
    }
    macs.push(mac);
  }
  if (macs.length === 0) {
    return {
      ok: false,
      message: `Expected ${headerName} to hold at least one v1,<base64> entry, received ${preview(raw)}.`,
    };
  }
  return { ok: true, value: macs };
}

/** Quotes a received value for a message, shortened so a hostile header cannot flood logs. */
export function preview(raw: string): string {
  return JSON.stringify(
    raw.length > RECEIVED_PREVIEW_CHARS ? `${raw.slice(0, RECEIVED_PREVIEW_CHARS)}…` : raw,
  );
}

function decodeMac(text: string): Buffer | undefined {
  if (!MAC_BASE64.test(text)) {
    return undefined;
  }
  const mac = Buffer.from(text, 'base64');
  return mac.length === MAC_BYTES ? mac : undefined;
}
