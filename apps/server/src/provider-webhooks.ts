// The routes providers push results to: `POST /providers/<provider>/<PROVIDER_WEBHOOK_TOKEN>/<event>`. The
// secret path segment authenticates the caller (compared in constant time; a wrong one, an unknown provider
// or no token configured all answer a plain 404, so the route reveals nothing), and a provider's own list
// (DARAJA_ALLOWED_SOURCES) or else PROVIDER_WEBHOOK_SOURCES, when set, narrows who may call to those
// addresses, read through TRUST_PROXY.
// The call is stored in the providers' inbox before it is answered (with the calls that arrived meanwhile,
// in one statement), once per provider event id, and answered in the form its provider expects; the
// worker applies it. A call that cannot be read is stored too, for inspection; nothing in a body can make
// this route throw.
// A flood is refused, never stored: each source address has a rate (PROVIDER_WEBHOOK_RATE_LIMIT), and a
// provider with PROVIDER_INBOX_LIMIT calls waiting is answered 429 until the worker catches up, so the
// inbox stays bounded without dropping anything it holds. The token never reaches a log: the request's
// path is logged with `***` in its place.

import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList } from 'node:net';
import type { ProviderRoutes, ReceivedWebhookCall } from '@topup/providers';
import { storeWebhookCalls } from '@topup/providers';
import { createGroupCommit, isolatingFailures, type Store } from '@topup/ledger';
import { sourceRange } from '@topup/service';
import type { Config } from '@topup/service';
import { createInboxFill } from './inbox-fill.js';
import type { Middleware, ParameterizedContext } from 'koa';
import type { ApiState } from './api-state.js';
import { ApiFailure } from './api-failure.js';
import { readRawBody } from './middleware/body-decoding.js';
import { failureCountKey } from './rate-limit/failure-count-key.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';
import { isStoreUnavailable } from './store-errors.js';

const route = /^\/providers\/([^/]+)\/([^/]+)\/([^/]+)$/;

export interface ProviderWebhookDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly providers: ProviderRoutes;
  /** Each source address's calls, at PROVIDER_WEBHOOK_RATE_LIMIT. */
  readonly webhookRateLimiter: RateLimiter;
}

/** How long a provider refused for a full inbox is asked to wait: the worker applies calls in seconds. */
const fullInboxRetrySeconds = 60;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function allowListOf(sources: readonly string[]): BlockList | undefined {
  if (sources.length === 0) return undefined;
  const list = new BlockList();
  for (const source of sources) {
    const range = sourceRange(source);
    if (range !== undefined) list.addSubnet(range.address, range.prefix, range.family);
  }
  return list;
}

/** A path segment decoded, or undefined when its %-escapes are malformed. */
function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function plain(ctx: { status: number; type: string; body: unknown }, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'text/plain';
  ctx.body = text;
}

export function providerWebhooks(deps: ProviderWebhookDependencies): Middleware<ApiState> {
  const { config, store, providers, webhookRateLimiter } = deps;
  const inboxFill = createInboxFill(store, config.providerInboxLimit);
  // Calls that arrive while others are being stored are stored together, in one statement and commit.
  const inbox = createGroupCommit<ReceivedWebhookCall, boolean>({
    maxWaitMs: 0,
    maxSize: 64,
    flush: isolatingFailures(async (calls) =>
      (await storeWebhookCalls(store, calls, new Date())).map((value) => ({ ok: true, value })),
    ),
  });
  const token = config.providerWebhookToken;
  const expected = token === undefined ? undefined : digest(token);
  const allowedByDefault = allowListOf(config.providerWebhookSources);
  const allowedFor = new Map(
    [...config.providerSources].map(([name, sources]) => [name, allowListOf(sources)]),
  );
  async function received(ctx: ParameterizedContext<ApiState>, match: RegExpExecArray): Promise<void> {
    const [, name = '', given = '', rawEvent = ''] = match;
    ctx.state.loggedPath = `/providers/${name}/***/${rawEvent}`;
    const rate = await webhookRateLimiter.take(failureCountKey(ctx.ip));
    if (!rate.allowed) {
      ctx.set('Retry-After', String(rate.retryAfterSeconds));
      plain(ctx, 429, 'too many calls from this address, try again later');
      return;
    }
    const receiver = providers.named(name)?.webhooks;
    const presented = decoded(given);
    const event = decoded(rawEvent);
    if (
      expected === undefined ||
      receiver === undefined ||
      presented === undefined ||
      event === undefined ||
      !timingSafeEqual(digest(presented), expected)
    ) {
      plain(ctx, 404, 'not found');
      return;
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      plain(ctx, 405, 'method not allowed');
      return;
    }
    const address = ctx.ip.replace(/^::ffff:/, '');
    const allowed = allowedFor.get(name) ?? allowedByDefault;
    if (allowed !== undefined && !allowed.check(address, address.includes(':') ? 'ipv6' : 'ipv4')) {
      ctx.state.log.warn({ provider: name, address }, 'provider webhook refused: source not allowed');
      plain(ctx, 403, 'forbidden');
      return;
    }
    let body: string;
    try {
      body = (await readRawBody(ctx.req, config.bodyLimitBytes)).toString('utf8');
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      plain(ctx, 413, `the body is larger than the limit of ${config.bodyLimitBytes} bytes`);
      return;
    }
    const call = { event, contentType: ctx.get('content-type'), body };
    const parsed = receiver.parse(call);
    try {
      if (await inboxFill.full(name)) {
        ctx.state.log.warn({ provider: name }, 'provider webhook refused: its inbox is full');
        ctx.set('Retry-After', String(fullInboxRetrySeconds));
        plain(ctx, 429, 'too many calls waiting, try again later');
        return;
      }
      const stored = await inbox.submit({ provider: name, call, event: parsed });
      if (stored && (parsed.kind === 'results' || parsed.kind === 'reports')) inboxFill.stored(name);
      ctx.state.log.info(
        { provider: name, event: call.event, kind: parsed.kind, repeated: !stored },
        'provider webhook stored',
      );
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      // Not stored, so not acknowledged: the provider sends it again.
      plain(ctx, 503, 'unavailable, try again');
      return;
    }
    const reply = receiver.reply(parsed);
    ctx.status = reply.status;
    ctx.type = reply.contentType;
    ctx.body = reply.body;
  }

  return (ctx, next) => {
    const match = route.exec(ctx.path);
    return match === null ? next() : received(ctx, match);
  };
}
