// Which wire format a request is written in (`Content-Type`) and which one the answer should use, under
// which media type (`Accept`). JSON is the default both ways (spec, Headers). XML is offered as
// `text/xml` and `application/xml`, and answered under the one the client asked for; media types match
// case-insensitively and parameters such as `charset` are allowed.

/**
 * A body format of the API: JSON (the default) or XML.
 *
 * @example
 * ```ts
 * import { contentTypeOf, responseFormat, type WireFormat } from '@topup/envelope';
 *
 * const format: WireFormat = responseFormat('text/xml');
 * contentTypeOf(format); // 'text/xml; charset=utf-8'
 * ```
 */
export type WireFormat = 'json' | 'xml';

/**
 * How to answer a request: the body format and the `Content-Type` to send it with, as its `Accept`
 * header negotiates them.
 *
 * @example
 * ```ts
 * import { negotiateResponse, type ResponseNegotiation } from '@topup/envelope';
 *
 * const answer: ResponseNegotiation = negotiateResponse('application/xml');
 * answer; // { format: 'xml', contentType: 'application/xml; charset=utf-8' }
 * ```
 */
export interface ResponseNegotiation {
  readonly format: WireFormat;
  /** The media type of the range that won, with `; charset=utf-8`. */
  readonly contentType: string;
}

const mediaTypesOf: Readonly<Record<WireFormat, readonly string[]>> = {
  json: ['application/json'],
  xml: ['text/xml', 'application/xml'],
};

// Our preference when the client's ranking ties, by format and, within XML, by media type: `text/xml`
// is the spec's name for XML.
const formatsInPreference: readonly WireFormat[] = ['json', 'xml'];

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly quality: number;
  /** Position in the header, to honour the client's order among equal qualities. */
  readonly order: number;
}

const token = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const qualityValue = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The format and `Content-Type` of the answer for an `Accept` header. Each media type we answer in takes
 * the quality of the most specific range that matches it (`application/json` over `application/*` over
 * the full wildcard); the highest quality wins, then the range the client listed first, then JSON, then
 * `text/xml`. So XML goes out as `application/xml` when that is what the client's winning range named
 * (`application/xml`, or `application/*` with JSON refused), and as `text/xml` otherwise. Missing,
 * empty, unparsable or nothing acceptable: JSON, the spec's default.
 *
 * @example
 * ```ts
 * import { negotiateResponse } from '@topup/envelope';
 *
 * negotiateResponse('application/xml'); // { format: 'xml', contentType: 'application/xml; charset=utf-8' }
 * negotiateResponse('text/xml, application/xml'); // { format: 'xml', contentType: 'text/xml; charset=utf-8' }
 * negotiateResponse(undefined); // { format: 'json', contentType: 'application/json; charset=utf-8' }
 * ```
 */
export function negotiateResponse(accept: string | undefined): ResponseNegotiation {
  const header = accept ?? '';
  const known = negotiated.get(header);
  if (known !== undefined) return known;
  const answer = negotiate(header);
  if (negotiated.size >= negotiatedLimit) negotiated.clear();
  negotiated.set(header, answer);
  return answer;
}

// A client sends the same Accept header on every call, so the answer to each header is kept: the parse
// was a per cent of the server's CPU per request. Bounded, since the header is the client's to choose.
const negotiatedLimit = 64;
const negotiated = new Map<string, ResponseNegotiation>();

function negotiate(accept: string): ResponseNegotiation {
  const ranges = parseAccept(accept);
  let best: { format: WireFormat; mediaType: string; quality: number; order: number } | undefined;
  for (const format of formatsInPreference) {
    for (const mediaType of mediaTypesOf[format]) {
      const range = mostSpecificMatch(ranges, mediaType);
      if (range === undefined || range.quality === 0) continue;
      if (
        best === undefined ||
        range.quality > best.quality ||
        (range.quality === best.quality && range.order < best.order)
      ) {
        best = { format, mediaType, quality: range.quality, order: range.order };
      }
    }
  }
  if (best === undefined) return { format: 'json', contentType: contentTypeOf('json') };
  return { format: best.format, contentType: withCharset(best.mediaType) };
}

/**
 * The format of the answer for an `Accept` header, as `negotiateResponse` picks it.
 *
 * @example
 * ```ts
 * import { responseFormat } from '@topup/envelope';
 *
 * responseFormat('text/xml;q=0.9, application/json;q=0.5'); // 'xml'
 * responseFormat('text/html'); // 'json'
 * responseFormat(undefined); // 'json'
 * ```
 */
export function responseFormat(accept: string | undefined): WireFormat {
  return negotiateResponse(accept).format;
}

// Content types that say nothing about the body: like a missing header, they mean JSON, the spec's
// default. `text/*` is not among them: it rules JSON out without naming XML, so it is refused.
const unspecificMediaTypes: readonly string[] = ['*/*', 'application/*'];

/**
 * The format of a request body for its `Content-Type` header: missing, empty, the full wildcard or
 * `application/*` means JSON; undefined means an unsupported media type (the server answers `1000`).
 * A `charset` other than UTF-8 is unsupported too, since bodies are read as UTF-8.
 *
 * @example
 * ```ts
 * import { requestFormat } from '@topup/envelope';
 *
 * requestFormat('application/xml; charset=utf-8'); // 'xml'
 * requestFormat(undefined); // 'json'
 * requestFormat('application/*'); // 'json'
 * requestFormat('text/plain'); // undefined
 * ```
 */
export function requestFormat(contentType: string | undefined): WireFormat | undefined {
  if (contentType === undefined || contentType.trim() === '') return 'json';
  const [mediaType = '', ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=').map((part) => part.trim());
    if (name === 'charset' && !['utf-8', 'utf8', '"utf-8"'].includes(value)) return undefined;
  }
  if (unspecificMediaTypes.includes(mediaType)) return 'json';
  return formatsInPreference.find((format) => mediaTypesOf[format].includes(mediaType));
}

/**
 * The `Content-Type` header of a body in `format` sent with no `Accept` to follow, such as a request or
 * a callback: XML is `text/xml`, the spec's name for it. To answer a request, use `negotiateResponse`,
 * which keeps the XML media type the client asked for.
 *
 * @example
 * ```ts
 * import { contentTypeOf } from '@topup/envelope';
 *
 * contentTypeOf('json'); // 'application/json; charset=utf-8'
 * contentTypeOf('xml'); // 'text/xml; charset=utf-8'
 * ```
 */
export function contentTypeOf(format: WireFormat): string {
  return withCharset(format === 'json' ? 'application/json' : 'text/xml');
}

function withCharset(mediaType: string): string {
  return `${mediaType}; charset=utf-8`;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  accept.split(',').forEach((entry, order) => {
    const [mediaRange = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    const [type = '', subtype = '', extra] = mediaRange.split('/');
    if (!token.test(type) || !token.test(subtype) || extra !== undefined) return;
    if (type === '*' && subtype !== '*') return;
    let quality = 1;
    for (const parameter of parameters) {
      const [name, value = ''] = parameter.split('=').map((part) => part.trim());
      if (name !== 'q') continue;
      if (!qualityValue.test(value)) return;
      quality = Number(value);
    }
    ranges.push({ type, subtype, quality, order });
  });
  return ranges;
}

function mostSpecificMatch(ranges: readonly MediaRange[], mediaType: string): MediaRange | undefined {
  const [type, subtype] = mediaType.split('/');
  let match: MediaRange | undefined;
  let matchSpecificity = -1;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity > matchSpecificity) {
      match = range;
      matchSpecificity = specificity;
    }
  }
  return match;
}
