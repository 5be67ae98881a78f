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

/** One field of an XML request: text, an object of text fields, or a list of either. */
export type XmlField = string | Readonly<Record<string, string>> | readonly XmlListEntry[];
export type XmlListEntry = string | Readonly<Record<string, string>>;

/** The element name of one entry of each list field a request may carry. */
const listEntryNames: Readonly<Record<string, string>> = { recipients: 'recipient' };

function escapeXmlText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function xmlElement(name: string, value: XmlField): string {
  if (typeof value === 'string') return `<${name}>${escapeXmlText(value)}</${name}>`;
  if (Array.isArray(value)) {
    const entryName = listEntryNames[name];
    if (entryName === undefined) throw new Error(`Expected a list field (recipients), received ${name}.`);
    return `<${name}>${(value as readonly XmlListEntry[]).map((entry) => xmlElement(entryName, entry)).join('')}</${name}>`;
  }
  const fields = value as Readonly<Record<string, string>>;
  return `<${name}>${Object.entries(fields)
    .map(([field, text]) => xmlElement(field, text))
    .join('')}</${name}>`;
}

/**
 * A request body as XML, root `xml`, with its text escaped: a list field (`recipients`) holds one element
 * per entry named by the singular (`<recipients><recipient>…</recipient></recipients>`).
 */
export function xmlRequestBody(fields: Readonly<Record<string, XmlField>>): string {
  const children = Object.entries(fields)
    .map(([name, value]) => xmlElement(name, value))
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><xml>${children}</xml>`;
}
