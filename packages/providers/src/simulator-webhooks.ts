// The sandbox simulator's pushed results: `POST /providers/sandbox/<token>/result` with one result as JSON,
// `{"id", "reference", "outcome", "provider_code", "reason"}`, the same fields `readyResults` hands out. A
// push is answered 200 `{"received":true}` once stored, and 400 with the problem when it cannot be read.
// Tests and operators use it to drive the webhook path end to end with no real provider.

import { createHash } from 'node:crypto';
import type { ProviderResult, WebhookCall, WebhookEvent, WebhookReceiver, WebhookReply } from './provider.js';

const outcomes: ReadonlySet<string> = new Set(['completed', 'declined', 'failed_after_payment']);

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function resultOf(body: string): ProviderResult | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return 'expected a JSON object';
  }
  const fields = parsed as Record<string, unknown>;
  const id = text(fields['id']);
  const reference = text(fields['reference']);
  const outcome = text(fields['outcome']);
  if (id === undefined || id === '') return 'expected "id", a non-empty string';
  if (reference === undefined || reference === '') return 'expected "reference", a non-empty string';
  if (outcome === undefined || !outcomes.has(outcome)) {
    return `expected "outcome" to be completed, declined or failed_after_payment, received ${JSON.stringify(fields['outcome'])}`;
  }
  return {
    id,
    reference,
    outcome: outcome as ProviderResult['outcome'],
    providerCode: text(fields['provider_code']) ?? '',
    reason: text(fields['reason']) ?? '',
  };
}

/** Reads and answers the simulator's pushed results. */
export const simulatorWebhooks: WebhookReceiver = {
  parse(call: WebhookCall): WebhookEvent {
    if (call.event !== 'result') {
      const digest = createHash('sha256').update(call.body).digest('hex');
      return { kind: 'ignored', eventId: `${call.event}:${digest}`, why: `no such event: ${call.event}` };
    }
    const result = resultOf(call.body);
    if (typeof result === 'string') return { kind: 'garbled', problem: result };
    return { kind: 'results', eventId: result.id, results: [result] };
  },
  reply(event: WebhookEvent): WebhookReply {
    if (event.kind === 'garbled') {
      return { status: 400, contentType: 'application/json', body: JSON.stringify({ error: event.problem }) };
    }
    return { status: 200, contentType: 'application/json', body: '{"received":true}' };
  },
};
