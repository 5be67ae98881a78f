// Reading an envelope from a body whose format is known only from the body itself. The service replays
// a keyed answer in the format it was first given in, and a callback is JSON or XML by its endpoint's
// setting, so the first non-blank character decides: `<` is XML, anything else JSON.

import { decodeJsonEnvelope, decodeXmlEnvelope } from '@topup/envelope';
import type { Envelope, WireFormat } from '@topup/envelope';

const leadingBlank = /^\uFEFF?[ \t\r\n]*/;

/** The wire format of a body by its first non-blank character (a byte order mark is skipped). */
export function bodyFormatOf(text: string): WireFormat {
  return text.replace(leadingBlank, '').startsWith('<') ? 'xml' : 'json';
}

/** The envelope in a JSON or XML body; throws `EnvelopeDecodeError` when it is not one. */
export function decodeEnvelopeBody(text: string): Envelope {
  return bodyFormatOf(text) === 'xml' ? decodeXmlEnvelope(text) : decodeJsonEnvelope(text);
}
