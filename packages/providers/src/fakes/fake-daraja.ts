// A fake of Safaricom's Daraja over real HTTP on loopback, written from Daraja's documentation, for tests
// and `pnpm start:fakes`. It issues client-credentials tokens (each new one invalidating the one before,
// as Daraja's do), refuses calls without the current token as Daraja does, and acknowledges STK Push
// requests after checking them as Daraja would: the password against the short code, passkey and
// timestamp, the amount's range, the lengths of AccountReference and TransactionDesc. Each prompt then
// ends as the payer's number scripts it (fake-stk-scripts.ts), its callback POSTed to CallBackURL in
// Daraja's shape, and STK Query answers "being processed" until it has ended. Every request is recorded,
// so a test can see what an adapter sent.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stkPassword } from '../daraja/daraja-timestamp.js';
import { stkScriptFor, type StkScript } from './fake-stk-scripts.js';

export interface FakeDarajaOptions {
  readonly consumerKey: string;
  readonly consumerSecret: string;
  readonly shortCode: string;
  readonly passkey: string;
  /** How long a prompt stays open before it ends; a late callback comes ten times later. Default 200 ms. */
  readonly promptMs?: number;
}

/** A request the fake received, as it read it. */
export interface FakeDarajaRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

export interface FakeDaraja {
  /** `http://127.0.0.1:<port>`, for DARAJA_BASE_URL. */
  readonly url: string;
  /** Every request received, oldest first. */
  readonly requests: readonly FakeDarajaRequest[];
  /** How many tokens it has issued. */
  readonly tokensIssued: number;
  /** The STK callbacks it has POSTed, oldest first, with the status each was answered. */
  readonly callbacks: readonly { readonly url: string; readonly body: unknown; readonly status: number }[];
  /** Issues a token as another process would, invalidating the current one. */
  issueTokenElsewhere(): void;
  close(): Promise<void>;
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

function requestId(): string {
  return `${String(randomBytes(2).readUInt16BE())}-${String(randomBytes(4).readUInt32BE())}-1`;
}

function darajaError(
  response: ServerResponse,
  status: number,
  errorCode: string,
  errorMessage: string,
): void {
  json(response, status, { requestId: requestId(), errorCode, errorMessage });
}

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The first problem Daraja would find with an STK Push request, or undefined. */
function stkPushProblem(
  body: Readonly<Record<string, unknown>>,
  options: FakeDarajaOptions,
): string | undefined {
  const text = (name: string) => (typeof body[name] === 'string' ? body[name] : undefined);
  const timestamp = text('Timestamp') ?? '';
  if (String(body['BusinessShortCode']) !== options.shortCode) return 'Invalid BusinessShortCode';
  if (!/^\d{14}$/.test(timestamp)) return 'Invalid Timestamp';
  if (text('Password') !== stkPassword(options.shortCode, options.passkey, timestamp))
    return 'Wrong credentials';
  const type = text('TransactionType');
  if (type !== 'CustomerPayBillOnline' && type !== 'CustomerBuyGoodsOnline') return 'Invalid TransactionType';
  const amount = Number(body['Amount']);
  if (!Number.isInteger(amount) || amount < 1 || amount > 250_000) return 'Invalid Amount';
  const phone = String(body['PhoneNumber']);
  if (!/^2547\d{8}$|^2541\d{8}$/.test(phone) || String(body['PartyA']) !== phone)
    return 'Invalid PhoneNumber';
  if (!/^https?:\/\//.test(text('CallBackURL') ?? '')) return 'Invalid CallBackURL';
  if ((text('AccountReference') ?? '').length > 12) return 'Invalid AccountReference';
  if ((text('TransactionDesc') ?? '').length > 13) return 'Invalid TransactionDesc';
  return undefined;
}

interface Prompt {
  readonly merchantRequestId: string;
  readonly checkoutRequestId: string;
  readonly script: StkScript;
  readonly amount: number;
  readonly phone: number;
  readonly callbackUrl: string;
  ended: boolean;
}

/** The callback body Daraja POSTs when a prompt ends: numbers where Daraja sends numbers. */
function stkCallbackBody(prompt: Prompt, receipt: string): unknown {
  const paid = prompt.script.resultCode === 0;
  return {
    Body: {
      stkCallback: {
        MerchantRequestID: prompt.merchantRequestId,
        CheckoutRequestID: prompt.checkoutRequestId,
        ResultCode: prompt.script.resultCode,
        ResultDesc: paid ? 'The service request is processed successfully.' : 'Request cancelled by user',
        ...(paid
          ? {
              CallbackMetadata: {
                Item: [
                  { Name: 'Amount', Value: prompt.amount },
                  { Name: 'MpesaReceiptNumber', Value: receipt },
                  { Name: 'Balance' },
                  { Name: 'TransactionDate', Value: 20261124102115 },
                  { Name: 'PhoneNumber', Value: prompt.phone },
                ],
              },
            }
          : {}),
      },
    },
  };
}

/** Starts the fake on a free loopback port. */
export async function startFakeDaraja(options: FakeDarajaOptions): Promise<FakeDaraja> {
  const promptMs = options.promptMs ?? 200;
  const prompts = new Map<string, Prompt>();
  const callbacks: { url: string; body: unknown; status: number }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, action: () => Promise<void>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      void action();
    }, ms);
    timers.add(timer);
  };
  const callBack = async (prompt: Prompt) => {
    const body = stkCallbackBody(prompt, `TK${randomBytes(4).toString('hex').toUpperCase()}`);
    let status = 0;
    try {
      const response = await fetch(prompt.callbackUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5_000),
      });
      status = response.status;
      await response.body?.cancel();
    } catch {
      // Daraja does not retry a callback that failed: the query path is what recovers it.
    }
    callbacks.push({ url: prompt.callbackUrl, body, status });
  };
  const end = (prompt: Prompt) => {
    const { delivery } = prompt.script;
    if (delivery === 'never') return;
    later(delivery === 'late' ? promptMs * 10 : promptMs, async () => {
      prompt.ended = true;
      if (delivery === 'lost' || delivery === 'before_ack') return;
      await callBack(prompt);
      if (delivery === 'twice') await callBack(prompt);
    });
  };
  const requests: FakeDarajaRequest[] = [];
  let currentToken: string | undefined;
  let tokensIssued = 0;
  const issue = () => {
    tokensIssued += 1;
    currentToken = randomBytes(21).toString('base64url');
    return currentToken;
  };
  const expectedBasic = `Basic ${Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString('base64')}`;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = request.method === 'POST' ? await bodyOf(request) : undefined;
    requests.push({ method: request.method ?? '', path: url.pathname, body });
    if (url.pathname === '/oauth/v1/generate') {
      if (url.searchParams.get('grant_type') !== 'client_credentials') {
        darajaError(response, 400, '400.008.02', 'Invalid grant type passed');
        return;
      }
      if (request.headers.authorization !== expectedBasic) {
        darajaError(response, 400, '400.008.01', 'Invalid Authentication passed');
        return;
      }
      // An older answer's shape: expires_in as a string.
      json(response, 200, { access_token: issue(), expires_in: '3599' });
      return;
    }
    if (request.headers.authorization !== `Bearer ${currentToken ?? '-'}`) {
      darajaError(response, 404, '404.001.03', 'Invalid Access Token');
      return;
    }
    if (url.pathname === '/mpesa/stkpush/v1/processrequest' && request.method === 'POST') {
      const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      const problem = stkPushProblem(fields, options);
      if (problem !== undefined) {
        darajaError(response, 400, '400.002.02', `Bad Request - ${problem}`);
        return;
      }
      const prompt: Prompt = {
        merchantRequestId: requestId(),
        checkoutRequestId: `ws_CO_${randomBytes(9).toString('hex')}`,
        script: stkScriptFor(String(fields['PhoneNumber'])),
        amount: Number(fields['Amount']),
        phone: Number(fields['PhoneNumber']),
        callbackUrl: String(fields['CallBackURL']),
        ended: false,
      };
      prompts.set(prompt.checkoutRequestId, prompt);
      if (prompt.script.delivery === 'before_ack') {
        prompt.ended = true;
        await callBack(prompt);
      }
      end(prompt);
      json(response, 200, {
        MerchantRequestID: prompt.merchantRequestId,
        CheckoutRequestID: prompt.checkoutRequestId,
        ResponseCode: '0',
        ResponseDescription: 'Success. Request accepted for processing',
        CustomerMessage: 'Success. Request accepted for processing',
      });
      return;
    }
    if (url.pathname === '/mpesa/stkpushquery/v1/query' && request.method === 'POST') {
      const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      const timestamp = typeof fields['Timestamp'] === 'string' ? fields['Timestamp'] : '';
      if (fields['Password'] !== stkPassword(options.shortCode, options.passkey, timestamp)) {
        darajaError(response, 400, '400.002.02', 'Bad Request - Wrong credentials');
        return;
      }
      const prompt = prompts.get(String(fields['CheckoutRequestID']));
      if (prompt === undefined) {
        darajaError(response, 400, '400.002.02', 'Bad Request - Invalid CheckoutRequestID');
        return;
      }
      if (!prompt.ended) {
        darajaError(response, 500, '500.001.1001', 'The transaction is being processed');
        return;
      }
      // STK Query sends the result code as a string, unlike the callback.
      json(response, 200, {
        ResponseCode: '0',
        ResponseDescription: 'The service request has been accepted successsfully',
        MerchantRequestID: prompt.merchantRequestId,
        CheckoutRequestID: prompt.checkoutRequestId,
        ResultCode: String(prompt.script.resultCode),
        ResultDesc:
          prompt.script.resultCode === 0
            ? 'The service request is processed successfully.'
            : 'Request cancelled by user',
      });
      return;
    }
    darajaError(response, 404, '404.002.01', 'Resource not found');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) darajaError(response, 500, '500.003.1001', 'Internal Server Error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    callbacks,
    get tokensIssued() {
      return tokensIssued;
    },
    issueTokenElsewhere() {
      issue();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      }),
  };
}
