// Every way a function can fail, as the OpenAPI document lists it: each code with the HTTP status it is
// sent with, when, and the headers that come with it, in the order of the middleware chain (app.ts).

import { failureMessage, statusCodes } from '@topup/envelope';
import type { CancellableOperation, FailureCode } from '@topup/envelope';
import { keyedOperations, operationCatalog } from '@topup/validation';
import type { ApiFunctionName, OperationEntry } from '@topup/validation';
import { listed } from './name-list.js';

export type AnswerHeader =
  'Allow' | 'Idempotency-Replayed' | 'Retry-After' | 'WWW-Authenticate' | 'X-Request-Id';

/** One way a function can fail: its code, the HTTP status it is sent with, and when. */
export interface Failure {
  readonly code: FailureCode;
  readonly httpStatus: number;
  readonly when: string;
  readonly headers?: readonly AnswerHeader[];
}

const channelNames = { float: 'Agent Float', airtime: 'Airtime' } as const;

/**
 * Operations that make one transaction per recipient. A recipient refused at once is a `Cancelled` entry
 * of the success, never an `8000`, and the whole request fails with `9000` only when every recipient's
 * provider was unavailable.
 */
const perRecipient: ReadonlySet<ApiFunctionName> = new Set(['send_airtime']);

/** Every failure a function can answer, in pipeline order (see app.ts). */
export function failuresOf(name: ApiFunctionName, hasParameters: boolean): Failure[] {
  const entry: OperationEntry = operationCatalog[name];
  const money = entry.kind === 'money';
  const recipients = perRecipient.has(name);
  return [
    {
      code: '1000',
      httpStatus: 400,
      when: money
        ? 'the body cannot be read: unsupported Content-Type, bad syntax, over the size limit, or a malformed Idempotency-Key header'
        : `the body cannot be read: unsupported Content-Type, bad syntax, over the size limit; or an Idempotency-Key header, which only ${listed(keyedOperations)} honour`,
    },
    { code: '2000', httpStatus: 405, when: 'any method but POST', headers: ['Allow'] },
    {
      code: '4000',
      httpStatus: 401,
      when: 'the bearer token is missing, malformed, unknown or revoked',
      headers: ['WWW-Authenticate'],
    },
    { code: '6000', httpStatus: 403, when: 'the account is suspended or closed' },
    ...(hasParameters
      ? [
          {
            code: '3000',
            httpStatus: 422,
            when: recipients
              ? "parameters are missing or invalid, one error per problem, a recipient's fields named by its position from 0 ('recipients[3].mobile is invalid')"
              : 'parameters are missing or invalid, one error per problem',
          } as const,
        ]
      : []),
    {
      code: '5000',
      httpStatus: 403,
      when: money
        ? "the token's mode (test or live) is not the service's, or no provider is configured for a network of the request"
        : "the token's mode (test or live) is not the service's",
    },
    {
      code: '5000',
      httpStatus: 429,
      when: 'the token is over its rate limit, or the bearer token failed from an address past its failed-authentication limit',
      headers: ['Retry-After'],
    },
    ...(money
      ? ([
          {
            code: '5000',
            httpStatus: 409,
            when: 'the Idempotency-Key was used with another request, or its first request is still running (with Retry-After)',
            headers: ['Retry-After'],
          },
        ] as const)
      : []),
    ...(entry.paidFromBalance === true
      ? [
          {
            code: '7000',
            httpStatus: 402,
            when: `the ${channelNames[entry.channel ?? 'float']} channel cannot cover the ${recipients ? 'total of the recipients' : 'amount'}`,
          } as const,
        ]
      : []),
    ...(money && !recipients
      ? [
          {
            code: '8000',
            httpStatus: 409,
            when: 'the provider refused the transaction at once',
            headers: ['Idempotency-Replayed'],
          } as const,
        ]
      : []),
    {
      code: '9000',
      httpStatus: 502,
      when: !money
        ? 'an internal error'
        : recipients
          ? "every recipient's provider is unavailable or did not answer in time, or an internal error"
          : 'the provider is unavailable or did not answer in time, or an internal error',
      // A keyed request replays its first answer, a refusal or a provider failure included.
      ...(money ? { headers: ['Idempotency-Replayed'] as const } : {}),
    },
    {
      code: '9000',
      httpStatus: 503,
      when: 'the database or the rate-limit store (Redis) is unavailable',
      headers: ['Retry-After'],
    },
  ];
}

/** The `status.message` a failure is answered with: `8000` reads after the operation it cancelled. */
export function failureText(name: ApiFunctionName, code: FailureCode): string {
  return code === '8000' && isCancellable(name) ? failureMessage('8000', name) : statusCodes[code].message;
}

function isCancellable(name: ApiFunctionName): name is CancellableOperation {
  return operationCatalog[name].kind === 'money';
}
