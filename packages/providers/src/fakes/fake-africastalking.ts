// A fake of Africa's Talking's airtime API over real HTTP on loopback, written from the research notes
// (shared research, providers.md, "Africa's Talking airtime"), for tests and `pnpm start:fakes`. It checks
// the apiKey header and the username as AT does, answering a failure in plain text as AT does rather than
// in JSON, so a reader that expects JSON meets what it will really meet. It reads the form body and its
// JSON `recipients` text, and refuses each recipient AT would refuse (amount, number) without refusing the
// rest. It does not replay: as AT documents, a repeat of an Idempotency-Key within its window is refused
// as a duplicate (HTTP 201, the top-level errorMessage "A duplicate request was received within the last 5
// minutes", no recipients), and after the window the repeat is a new send; and AT's five-minute guard
// refuses the same number and amount again, keyed or not, as a per-recipient duplicate. Both windows are
// options, so tests run in milliseconds.
//
// Each recipient it sends then ends as its number's last four digits script it (fake-airtime-scripts.ts):
// a status callback POSTed to the URL that AT's dashboard would hold, as JSON or form-encoded, and the
// transaction query reports what the fake holds, since it is how an adapter recovers a lost callback. Every
// request (without the apiKey itself) and every callback is recorded, so a test can see both sides.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { objectOf, parsedJson, textOf } from '../tolerant-json.js';
import { airtimeScriptFor, type AirtimeScript } from './fake-airtime-scripts.js';
import { createFakeTimers } from './fake-timers.js';

/**
 * The account the fake answers as, where its status callbacks go, and how quickly recipients end.
 *
 * @example
 * ```ts
 * import { startFakeAfricasTalking, type FakeAfricasTalkingOptions } from '@topup/providers/fakes';
 *
 * const options: FakeAfricasTalkingOptions = {
 *   username: 'topup', apiKey: 'at-key', callbackUrl: 'http://127.0.0.1:8080/callbacks/airtime',
 *   callbackForm: 'form', deliveryMs: 50, duplicateWindowMs: 500, idempotencyWindowMs: 500,
 * };
 * const fake = await startFakeAfricasTalking(options);
 * ```
 */
export interface FakeAfricasTalkingOptions {
  readonly username: string;
  readonly apiKey: string;
  /** The status callback URL, as set in AT's dashboard; unset, no callbacks are POSTed. */
  readonly callbackUrl?: string;
  /** How callbacks are encoded: JSON (the default) or form-encoded; AT's documentation does not settle it. */
  readonly callbackForm?: 'json' | 'form';
  /** How long a sent recipient takes to end; a late callback comes ten times later. Default 200 ms. */
  readonly deliveryMs?: number;
  /** How long the same number and amount is refused as a duplicate after a Sent one. Default 5 minutes. */
  readonly duplicateWindowMs?: number;
  /**
   * How long a repeat of an Idempotency-Key is refused as a duplicate; after it, the repeat is a new send.
   * Default 5 minutes.
   */
  readonly idempotencyWindowMs?: number;
  /** The loopback port to listen on; default any free one. */
  readonly port?: number;
}

/**
 * A request the fake received, as it read it. The apiKey it carried is never kept, only whether it matched.
 *
 * @example
 * ```ts
 * import type { FakeAfricasTalkingRequest } from '@topup/providers/fakes';
 *
 * const sends = (requests: readonly FakeAfricasTalkingRequest[]) =>
 *   requests.filter((request) => request.path === '/version1/airtime/send');
 * ```
 */
export interface FakeAfricasTalkingRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: { readonly apiKeyMatched: boolean; readonly idempotencyKey?: string };
  /** The body as received (form-encoded for a send); empty for a query. */
  readonly body: string;
}

/**
 * A status callback the fake POSTed, with the HTTP status it was answered (0 when no answer came).
 *
 * @example
 * ```ts
 * import type { FakeAfricasTalkingCallback } from '@topup/providers/fakes';
 *
 * const refused = (callback: FakeAfricasTalkingCallback) => callback.status !== 200;
 * ```
 */
export interface FakeAfricasTalkingCallback {
  readonly url: string;
  /** The body as sent: JSON or form-encoded text. */
  readonly body: string;
  readonly status: number;
}

/**
 * A recipient the fake sent, as it stands: `Sent` until it ends `Success` or `Failed`.
 *
 * @example
 * ```ts
 * import type { FakeAirtimeDelivery } from '@topup/providers/fakes';
 *
 * const open = (delivery: FakeAirtimeDelivery) => delivery.status === 'Sent';
 * ```
 */
export interface FakeAirtimeDelivery {
  readonly requestId: string;
  readonly phoneNumber: string;
  /** As AT writes it: `KES 100.0000`. */
  readonly amount: string;
  readonly status: 'Sent' | 'Success' | 'Failed';
  readonly idempotencyKey: string | undefined;
}

/**
 * A running fake: where it is, and what it has received, sent and holds.
 *
 * @example
 * ```ts
 * import { startFakeAfricasTalking, type FakeAfricasTalking } from '@topup/providers/fakes';
 *
 * const fake: FakeAfricasTalking = await startFakeAfricasTalking({ username: 'topup', apiKey: 'at-key' });
 * process.env.AFRICASTALKING_BASE_URL = fake.url;
 * // … run the adapter against it, then:
 * fake.deliveries.filter((delivery) => delivery.status === 'Sent'); // what is still open
 * await fake.close();
 * ```
 */
export interface FakeAfricasTalking {
  /** `http://127.0.0.1:<port>`, in place of `https://api.africastalking.com`. */
  readonly url: string;
  /** Every request received, oldest first. */
  readonly requests: readonly FakeAfricasTalkingRequest[];
  /** Every status callback POSTed, oldest first. */
  readonly callbacks: readonly FakeAfricasTalkingCallback[];
  /** The recipients it has sent, oldest first, as they stand at this read. */
  readonly deliveries: readonly FakeAirtimeDelivery[];
  close(): Promise<void>;
}

interface Delivery {
  readonly requestId: string;
  readonly phoneNumber: string;
  /** Ten-thousandths of a shilling, the precision AT writes amounts in. */
  readonly units: number;
  readonly script: AirtimeScript;
  readonly idempotencyKey: string | undefined;
  status: 'Sent' | 'Success' | 'Failed';
}

const authFailure = 'The supplied authentication is invalid';

function text(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain' });
  response.end(body);
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function textOfBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Ten-thousandths of a shilling as AT writes them: `KES 100.0000`. */
function kes(units: number): string {
  return `KES ${String(Math.floor(units / 10_000))}.${String(units % 10_000).padStart(4, '0')}`;
}

/** An amount such as `KES 100` or `KES 100.50` in ten-thousandths, when AT would take it. */
function amountUnits(amount: string): number | undefined {
  const match = /^KES (\d{1,7})(?:\.(\d{1,4}))?$/.exec(amount);
  if (match === null) return undefined;
  const units = Number(match[1]) * 10_000 + Number((match[2] ?? '').padEnd(4, '0'));
  return units >= 10 * 10_000 && units <= 10_000 * 10_000 ? units : undefined;
}

/** AT's discount on Kenyan airtime, 4 %. */
const discountOf = (units: number) => Math.round((units * 4) / 100);

interface Recipient {
  readonly phoneNumber: string;
  readonly amount: string;
}

/** The recipients of a send's form body, or the problem AT would answer 400 with. */
function readRecipients(form: URLSearchParams): Recipient[] | string {
  const recipients = form.get('recipients');
  if (recipients === null || recipients === '') return 'recipients is required';
  const list = parsedJson(recipients);
  if (!Array.isArray(list)) return 'recipients must be a JSON list';
  const items: readonly unknown[] = list;
  if (items.length === 0) return 'recipients must not be empty';
  const read: Recipient[] = [];
  for (const [index, item] of items.entries()) {
    const fields = objectOf(item) ?? {};
    const phoneNumber = textOf(fields['phoneNumber']);
    const amount = textOf(fields['amount']);
    if (phoneNumber === undefined || phoneNumber === '')
      return `recipient ${String(index + 1)} has no phoneNumber`;
    if (amount === undefined || amount === '') return `recipient ${String(index + 1)} has no amount`;
    read.push({ phoneNumber, amount });
  }
  return read;
}

/** What an answer that sent nothing carries besides its problem. */
const nothingSent = { numSent: 0, totalAmount: '0', totalDiscount: '0', responses: [] };

/** AT's words for a duplicate, of a key within its window or of a number and amount within five minutes. */
const duplicateMessage = 'A duplicate request was received within the last 5 minutes';

/**
 * Starts the fake on a free loopback port.
 *
 * @example
 * ```ts
 * import { startFakeAfricasTalking } from '@topup/providers/fakes';
 *
 * const fake = await startFakeAfricasTalking({
 *   username: 'topup', apiKey: 'at-key', callbackUrl: 'http://127.0.0.1:8080/callbacks/airtime', deliveryMs: 50,
 * });
 * // Point the adapter at fake.url; airtime to a number ending 9003 then has its callback lost.
 * await fake.close();
 * ```
 */
export async function startFakeAfricasTalking(
  options: FakeAfricasTalkingOptions,
): Promise<FakeAfricasTalking> {
  const deliveryMs = options.deliveryMs ?? 200;
  const duplicateWindowMs = options.duplicateWindowMs ?? 300_000;
  const idempotencyWindowMs = options.idempotencyWindowMs ?? 300_000;
  const requests: FakeAfricasTalkingRequest[] = [];
  const callbacks: FakeAfricasTalkingCallback[] = [];
  const deliveries = new Map<string, Delivery>();
  /** When each Idempotency-Key was first taken, by username and key. */
  const keyTaken = new Map<string, number>();
  /** When each number and amount was last Sent, for the duplicate guard. */
  const lastSent = new Map<string, number>();
  const timers = createFakeTimers();
  const { later } = timers;

  const callbackBody = (delivery: Delivery): string => {
    const fields = {
      requestId: delivery.requestId,
      status: delivery.script.outcome,
      phoneNumber: delivery.phoneNumber,
      description: delivery.script.description,
      discount: kes(discountOf(delivery.units)),
      value: kes(delivery.units),
    };
    return options.callbackForm === 'form' ? new URLSearchParams(fields).toString() : JSON.stringify(fields);
  };
  const callBack = async (delivery: Delivery) => {
    const url = options.callbackUrl;
    if (url === undefined) return;
    const body = callbackBody(delivery);
    let status = 0;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type':
            options.callbackForm === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
        },
        body,
        signal: AbortSignal.timeout(5_000),
      });
      status = response.status;
      await response.body?.cancel();
    } catch {
      // Not retried: the transaction query is how a lost callback is recovered.
    }
    callbacks.push({ url, body, status });
  };
  /** Ends a sent recipient as scripted; `before_ack` is ended by the send itself, before it answers. */
  const end = (delivery: Delivery) => {
    const { delivery: how } = delivery.script;
    if (how === 'never' || how === 'before_ack') return;
    later(how === 'late' ? deliveryMs * 10 : deliveryMs, async () => {
      delivery.status = delivery.script.outcome;
      if (how === 'lost') return;
      await callBack(delivery);
      if (how === 'twice') await callBack(delivery);
    });
  };

  /** One recipient's line in the send's answer, sending it when AT would. */
  const sendTo = (recipient: Recipient, idempotencyKey: string | undefined) => {
    const refused = (errorMessage: string, amount: string) => ({
      phoneNumber: recipient.phoneNumber,
      errorMessage,
      amount,
      status: 'Failed',
      requestId: 'None',
      discount: kes(0),
    });
    const units = amountUnits(recipient.amount);
    if (units === undefined) return { line: refused('Invalid amount', recipient.amount) };
    if (!/^\+254[71]\d{8}$/.test(recipient.phoneNumber))
      return { line: refused('Invalid phone number', kes(units)) };
    const script = airtimeScriptFor(recipient.phoneNumber);
    if (script.refusal !== undefined) return { line: refused(script.refusal, kes(units)) };
    const guard = `${options.username}\n${recipient.phoneNumber}\n${String(units)}`;
    const now = Date.now();
    if (now - (lastSent.get(guard) ?? -Infinity) < duplicateWindowMs)
      return { line: refused(duplicateMessage, kes(units)) };
    lastSent.set(guard, now);
    const delivery: Delivery = {
      requestId: `ATQid_${randomBytes(16).toString('hex')}`,
      phoneNumber: recipient.phoneNumber,
      units,
      script,
      idempotencyKey,
      status: 'Sent',
    };
    deliveries.set(delivery.requestId, delivery);
    return {
      delivery,
      line: {
        phoneNumber: recipient.phoneNumber,
        errorMessage: 'None',
        amount: kes(units),
        status: 'Sent',
        requestId: delivery.requestId,
        discount: kes(discountOf(units)),
      },
    };
  };

  const handleSend = async (
    request: IncomingMessage,
    response: ServerResponse,
    form: URLSearchParams,
    idempotencyKey: string | undefined,
  ) => {
    if (!(request.headers.accept ?? '').includes('application/json')) {
      // AT answers in XML without it; the fake speaks only JSON, so it says so instead of guessing.
      text(response, 406, 'Not Acceptable: send Accept: application/json');
      return;
    }
    const recipients = readRecipients(form);
    if (typeof recipients === 'string') {
      json(response, 400, { errorMessage: recipients, ...nothingSent });
      return;
    }
    const key = idempotencyKey === undefined ? undefined : `${options.username}\n${idempotencyKey}`;
    const now = Date.now();
    if (key !== undefined && now - (keyTaken.get(key) ?? -Infinity) < idempotencyWindowMs) {
      json(response, 201, { errorMessage: duplicateMessage, ...nothingSent });
      return;
    }
    // Taken before any await, so a repeat arriving while a before_ack callback is out is a duplicate.
    if (key !== undefined) keyTaken.set(key, now);
    // maxNumRetry is read by AT's carrier retries; the fake's carrier ends each recipient once, so it changes nothing.
    const sent = recipients.map((recipient) => sendTo(recipient, idempotencyKey));
    const made = sent.flatMap(({ delivery }) => (delivery === undefined ? [] : [delivery]));
    const total = made.reduce((sum, delivery) => sum + delivery.units, 0);
    const body = {
      errorMessage: 'None',
      numSent: made.length,
      totalAmount: kes(total),
      totalDiscount: kes(made.reduce((sum, delivery) => sum + discountOf(delivery.units), 0)),
      responses: sent.map(({ line }) => line),
    };
    for (const delivery of made) {
      if (delivery.script.delivery !== 'before_ack') continue;
      delivery.status = delivery.script.outcome;
      await callBack(delivery);
    }
    for (const delivery of made) end(delivery);
    json(response, 201, body);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = request.method === 'POST' ? await textOfBody(request) : '';
    const apiKeyMatched = request.headers.apikey === options.apiKey;
    const idempotencyHeader = request.headers['idempotency-key'];
    const idempotencyKey = typeof idempotencyHeader === 'string' ? idempotencyHeader : undefined;
    requests.push({
      method: request.method ?? '',
      path: url.pathname,
      headers: idempotencyKey === undefined ? { apiKeyMatched } : { apiKeyMatched, idempotencyKey },
      body,
    });
    if (url.pathname === '/version1/airtime/send' && request.method === 'POST') {
      const form = new URLSearchParams(body);
      if (!apiKeyMatched || form.get('username') !== options.username) {
        text(response, 401, authFailure);
        return;
      }
      await handleSend(request, response, form, idempotencyKey);
      return;
    }
    if (url.pathname === '/query/transaction/find' && request.method === 'GET') {
      if (!apiKeyMatched || url.searchParams.get('username') !== options.username) {
        text(response, 401, authFailure);
        return;
      }
      // The shape of this answer, found or not, is [sdk]-grade knowledge in the research notes (what AT's
      // SDKs read), not a documented contract: an adapter reading it should be as tolerant as the fake is plain.
      const delivery = deliveries.get(url.searchParams.get('transactionId') ?? '');
      if (delivery === undefined) {
        json(response, 200, { status: 'Failure', errorMessage: 'Transaction not found' });
        return;
      }
      json(response, 200, {
        status: 'Success',
        data: {
          requestId: delivery.requestId,
          status: delivery.status,
          phoneNumber: delivery.phoneNumber,
          value: kes(delivery.units),
          description: delivery.status === 'Sent' ? '' : delivery.script.description,
        },
      });
      return;
    }
    text(response, 404, 'Not Found');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) text(response, 500, 'Internal Server Error');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    callbacks,
    get deliveries() {
      return [...deliveries.values()].map(({ requestId, phoneNumber, units, status, idempotencyKey }) => ({
        requestId,
        phoneNumber,
        amount: kes(units),
        status,
        idempotencyKey,
      }));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        timers.clear();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      }),
  };
}
