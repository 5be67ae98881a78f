// Requests that Node's HTTP parser refuses before the app sees them (headers too large, malformed HTTP, a
// client too slow to send its headers or body) are answered with a `1000` envelope too, instead of Node's
// bare status line, and the connection is closed.

import { randomBytes } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { encodeJson, failure } from '@topup/envelope';
import type { Logger } from 'pino';

const closeAfterRefusalMs = 1_000;

interface ParserRefusal {
  readonly status: number;
  readonly reason: string;
  readonly problem: string;
}

function refusalOf(code: string | undefined, headerLimit: number): ParserRefusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        problem: `the request headers are larger than the limit of ${headerLimit} bytes`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        reason: 'Request Timeout',
        problem: 'the request did not arrive within the time limit',
      };
    default:
      return { status: 400, reason: 'Bad Request', problem: 'the request is not valid HTTP/1.1' };
  }
}

/** The raw HTTP answer to a refused request: a JSON `1000` envelope on a connection about to close. */
export function parserRefusalResponse(code: string | undefined, headerLimit: number): string {
  const refusal = refusalOf(code, headerLimit);
  const body = encodeJson(failure('1000', [refusal.problem]));
  return [
    `HTTP/1.1 ${refusal.status} ${refusal.reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: req_${randomBytes(12).toString('hex')}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Answers parser and timeout errors with an envelope. `responses` holds the last response of each socket:
 * an answer is written unless that response is still being sent (Node's own rule), so a half-sent answer
 * is never corrupted; a finished one belongs to an earlier request of the kept-alive connection.
 */
export function answerClientErrors(
  server: Server,
  responses: WeakMap<Duplex, ServerResponse>,
  logger: Logger,
): void {
  const refused = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser reports again for every further chunk a refused client sends: it was answered once.
    if (refused.has(socket)) return;
    refused.add(socket);
    logger.debug({ code: error.code }, 'request refused by the HTTP parser');
    const response = responses.get(socket);
    const inFlight = response !== undefined && !response.writableFinished;
    const answerable = socket.writable && !(inFlight && response.headersSent);
    if (error.code === 'ECONNRESET' || !answerable) {
      socket.destroy();
      return;
    }
    socket.end(parserRefusalResponse(error.code, maxHeaderSize));
    // A client still sending would see a reset instead of the answer if the socket were destroyed at
    // once; it gets a moment to read it, and whatever it still sends is discarded.
    socket.resume();
    setTimeout(() => socket.destroy(), closeAfterRefusalMs).unref();
  });
}
