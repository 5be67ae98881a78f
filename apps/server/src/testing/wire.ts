// Test helpers to read answers: the envelope of a JSON or XML response, as plain objects.

import { decodeJsonEnvelope, decodeXmlEnvelope } from '@topup/envelope';
import type { Envelope } from '@topup/envelope';

export async function envelopeOf(response: Response): Promise<Envelope & { data: Record<string, unknown> }> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const xml = type.startsWith('text/xml') || type.startsWith('application/xml');
  return xml ? decodeXmlEnvelope(text) : decodeJsonEnvelope(text);
}

/** A request body as XML, root `xml`, one child per field. */
export function xmlBody(fields: Readonly<Record<string, string>>): string {
  const children = Object.entries(fields)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><xml>${children}</xml>`;
}
