// What every answer of the API must be: an envelope in a format it names (JSON or XML), with a code from
// the contract's table, that code's message, and the HTTP status (and headers) the decisions give it.
// Returns what is wrong, so a property test can report it with the request that caused it.

import { decodeJsonEnvelope, decodeXmlEnvelope, failureMessage, successMessages } from '@topup/envelope';
import type { Envelope, FailureCode } from '@topup/envelope';
import type { RawAnswer } from './raw-http.js';

/** The HTTP statuses each code may be answered with (docs/decisions.md, "HTTP statuses"). */
export const statusesOfCode: Readonly<Record<string, readonly number[]>> = {
  '0000': [200],
  '1000': [400, 404, 408, 431],
  '2000': [405],
  '3000': [422],
  '4000': [401],
  '5000': [403, 409, 429],
  '6000': [403],
  '7000': [402],
  '8000': [409],
  '9000': [502, 503],
};

const successTexts = new Set<string>(Object.values(successMessages));

function messagesOf(code: string): readonly string[] {
  if (code === '8000')
    return [failureMessage('8000', 'send_agent_float'), failureMessage('8000', 'buy_airtime')];
  return [failureMessage(code as Exclude<FailureCode, '8000'>)];
}

function decode(answer: RawAnswer): Envelope | string {
  const type = answer.headers['content-type'] ?? '';
  try {
    if (type.startsWith('application/json')) return decodeJsonEnvelope(answer.body);
    if (type.startsWith('text/xml') || type.startsWith('application/xml'))
      return decodeXmlEnvelope(answer.body);
  } catch (error) {
    return `the body is not an envelope (${error instanceof Error ? error.message : String(error)}): ${answer.body.slice(0, 200)}`;
  }
  return `expected a JSON or XML envelope, received Content-Type ${JSON.stringify(type)}: ${answer.body.slice(0, 200)}`;
}

/** What is wrong with an answer, or undefined when it is a proper envelope with a matching status. */
export function envelopeProblem(answer: RawAnswer): string | undefined {
  const envelope = decode(answer);
  if (typeof envelope === 'string') return `HTTP ${answer.status}: ${envelope}`;
  const { code, message } = envelope.status;
  const statuses = statusesOfCode[code] ?? [];
  if (!statuses.includes(answer.status)) {
    return `code ${code} came with HTTP ${answer.status}, expected one of ${statuses.join(', ')}`;
  }
  if (code === '0000' ? !successTexts.has(message) : !messagesOf(code).includes(message)) {
    return `code ${code} came with the message ${JSON.stringify(message)}`;
  }
  const header = (name: string) => answer.headers[name];
  if (answer.status === 405 && header('allow') !== 'POST') return 'a 405 without Allow: POST';
  if (answer.status === 401 && header('www-authenticate') !== 'Bearer')
    return 'a 401 without WWW-Authenticate: Bearer';
  if ((answer.status === 429 || answer.status === 503) && header('retry-after') === undefined) {
    return `a ${answer.status} without Retry-After`;
  }
  if (envelope.data.errors.some((text) => text.includes('internal error'))) {
    return `an internal error: ${envelope.data.errors.join('; ')}`;
  }
  return undefined;
}
