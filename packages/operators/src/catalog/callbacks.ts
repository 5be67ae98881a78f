// Operator functions on an account's callbacks: its endpoints (under the API's URL policy), resending a
// transaction's callback, its deliveries with every attempt, and the endpoints of every account that are
// falling behind.

import type { CallbackDeliveryView, CallbackEndpointView } from '@topup/envelope';
import { z } from 'zod';
import { id, optionalText, pageLines } from './fields.js';
import { answerOf, operatorFunction } from './operator-function.js';
import type { MonitoredEndpoint } from './views.js';

const endpoint = { endpoint_id: 'endpoint' } as const;

function deliveryLines(delivery: CallbackDeliveryView): string[] {
  return [
    `${delivery.id}  ${delivery.reference}  ${delivery.endpoint_id}  ${delivery.status}` +
      (delivery.next_attempt === '' ? '' : `  next attempt ${delivery.next_attempt}`),
    ...delivery.attempts.map(
      (attempt) =>
        `  ${attempt.attempted}  ${attempt.outcome.padEnd(13)}  ${(attempt.http_status || '-').padEnd(3)}  ` +
        `${attempt.duration_ms} ms` +
        (attempt.error === '' ? '' : `  ${attempt.error}`) +
        (attempt.response_excerpt === '' ? '' : `  ${JSON.stringify(attempt.response_excerpt.slice(0, 80))}`),
    ),
  ];
}

export const callbackFunctions = {
  add_callback_endpoint: operatorFunction({
    summary:
      'Registers a callback endpoint under the API’s URL policy and CALLBACK_MAX_ENDPOINTS; its signing secret is shown this once.',
    input: z.object({
      account: id,
      url: z.string().trim().min(1).max(2048),
      format: z.enum(['json', 'xml']).default('json'),
      description: optionalText,
    }),
    answer: answerOf<{ endpoint: CallbackEndpointView; secret: string }>(),
    access: 'change',
    reauthenticate: true,
    cli: [
      {
        command: 'endpoint add',
        summary: 'registers a callback endpoint under the API’s URL policy (secret shown once)',
        json: ({ endpoint: added, secret }) => ({ endpoint: added.id, secret }),
        human: ({ endpoint: added, secret }) =>
          `Added endpoint ${added.id} → ${added.url}.\nSigning secret (shown only now): ${secret}`,
      },
    ],
  }),
  list_callback_endpoints: operatorFunction({
    summary: 'The account’s endpoints, and why a disabled one was disabled; never secrets.',
    input: z.object({ account: id }),
    answer: answerOf<{ endpoints: CallbackEndpointView[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'endpoint list',
        summary: 'the account’s endpoints, and why a disabled one was disabled',
        json: ({ endpoints }) => endpoints,
        human: ({ endpoints }) =>
          pageLines(
            endpoints.map(
              (e) =>
                `${e.id}  ${e.enabled === 'true' ? 'enabled ' : 'disabled'}  ${e.format}  ${e.url}` +
                (e.enabled === 'true' ? '' : `  (${e.disabled_reason})`),
            ),
            'No endpoints.',
          ),
      },
    ],
  }),
  remove_callback_endpoint: operatorFunction({
    summary: 'Removes an endpoint; its pending deliveries fail.',
    input: z.object({ account: id, endpoint_id: id }),
    answer: answerOf<{ endpoint_id: string; removed: boolean }>(),
    access: 'change',
    reauthenticate: false,
    cli: [
      {
        command: 'endpoint remove',
        summary: 'removes an endpoint',
        options: endpoint,
        json: ({ endpoint_id, removed }) => ({ endpoint: endpoint_id, removed }),
        human: ({ endpoint_id }) => `Removed endpoint ${endpoint_id}.`,
      },
    ],
  }),
  rotate_callback_secret: operatorFunction({
    summary:
      'Gives an endpoint a new signing secret, shown this once; the previous one stays valid for CALLBACK_SECRET_GRACE_SECONDS.',
    input: z.object({ account: id, endpoint_id: id }),
    answer: answerOf<{ endpoint_id: string; secret: string; previous_secret_valid_for: number }>(),
    access: 'change',
    reauthenticate: true,
    cli: [
      {
        command: 'endpoint rotate',
        summary: 'rotates an endpoint’s secret (the old one stays valid for the grace)',
        options: endpoint,
        json: ({ endpoint_id, secret }) => ({ endpoint: endpoint_id, secret }),
        human: ({ secret, previous_secret_valid_for }) =>
          `New signing secret (shown only now): ${secret}\nThe previous one stays valid for ${previous_secret_valid_for} s.`,
      },
    ],
  }),
  resend_callback: operatorFunction({
    summary:
      'Sends a transaction’s callback again, to its enabled endpoints or the one named, with a fresh retry schedule.',
    input: z.object({ account: id, reference: id, endpoint_id: id.optional() }),
    answer: answerOf<{ reference: string; deliveries: number }>(),
    access: 'change',
    reauthenticate: false,
    cli: [
      {
        command: 'callback resend',
        summary: 'sends a transaction’s callback again, with a fresh retry schedule',
        options: endpoint,
        human: ({ reference, deliveries }) => `Queued ${deliveries} callback deliveries for ${reference}.`,
      },
    ],
  }),
  list_callback_deliveries: operatorFunction({
    summary: 'The newest 500 deliveries of the account the filter admits, each with every attempt.',
    input: z.object({
      account: id,
      reference: optionalText,
      status: z.enum(['pending', 'delivered', 'failed']).optional(),
    }),
    answer: answerOf<{ deliveries: CallbackDeliveryView[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'callback deliveries',
        summary: 'deliveries with every attempt',
        json: ({ deliveries }) => deliveries,
        human: ({ deliveries }) => pageLines(deliveries.flatMap(deliveryLines), 'No callback deliveries.'),
      },
    ],
  }),
  delivery_monitor: operatorFunction({
    summary:
      'Endpoints of every account with failed or retrying deliveries in the last 24 hours, or disabled, worst first.',
    input: z.object({}),
    answer: answerOf<{ endpoints: MonitoredEndpoint[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'callback monitor',
        summary: 'endpoints of every account that are failing, retrying or disabled, worst first',
        json: ({ endpoints }) => endpoints,
        human: ({ endpoints }) =>
          pageLines(
            endpoints.map(
              (e) =>
                `${e.endpoint_id}  ${e.account}  ${e.enabled ? 'enabled ' : 'disabled'}  ` +
                `${e.failed_24h}/${e.deliveries_24h} failed (${e.failure_rate} %)  ${e.retrying} retrying  ${e.url}` +
                (e.last_error === '' ? '' : `  ${JSON.stringify(e.last_error)}`),
            ),
            'Every endpoint is keeping up.',
          ),
      },
    ],
  }),
};
