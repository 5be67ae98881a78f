// The OpenAPI 3.1 document, generated from zod schemas: the validation package's request schemas (so the
// documented request bodies are exactly the validated ones) and the success data schemas of
// response-schemas.ts. Each function lists every HTTP status it can answer, the codes behind each, and
// the headers that come with them. Served at /openapi.json.

import { failureMessage, statusCodes } from '@topup/envelope';
import type { CancellableOperation, FailureCode } from '@topup/envelope';
import { keyedOperations, operationCatalog, requestJsonSchema } from '@topup/validation';
import type { ApiFunctionName, OperationEntry } from '@topup/validation';
import { z } from 'zod';
import { successDataSchemas } from './response-schemas.js';
import { listed } from './name-list.js';

type Header = 'Allow' | 'Idempotency-Replayed' | 'Retry-After' | 'WWW-Authenticate' | 'X-Request-Id';

/** One way a function can fail: its code, the HTTP status it is sent with, and when. */
interface Failure {
  readonly code: FailureCode;
  readonly httpStatus: number;
  readonly when: string;
  readonly headers?: readonly Header[];
}

const moneyOperations: ReadonlySet<ApiFunctionName> = new Set(keyedOperations);

const channelNames = { float: 'Agent Float', airtime: 'Airtime' } as const;

/**
 * Operations that make one transaction per recipient. A recipient refused at once is a `Cancelled` entry
 * of the success, never an `8000`, and the whole request fails with `9000` only when every recipient's
 * provider was unavailable.
 */
const perRecipient: ReadonlySet<ApiFunctionName> = new Set(['send_airtime']);

function isCancellable(name: ApiFunctionName): name is CancellableOperation {
  return moneyOperations.has(name);
}

/** Every failure a function can answer, in pipeline order (see app.ts). */
function failuresOf(name: ApiFunctionName, hasParameters: boolean): Failure[] {
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

const headerDefinitions: Readonly<Record<Header, Record<string, unknown>>> = {
  Allow: { description: 'The one allowed method.', schema: { type: 'string', const: 'POST' } },
  'Idempotency-Replayed': {
    description: 'Present on an answer replayed for a repeated Idempotency-Key.',
    schema: { type: 'string', const: 'true' },
  },
  'Retry-After': {
    description: 'Whole seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 1 },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme.',
    schema: { type: 'string', const: 'Bearer' },
  },
  'X-Request-Id': {
    description: "The request's id: the caller's own X-Request-Id when sane, else a new one.",
    schema: { type: 'string' },
  },
};

function headers(names: readonly Header[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

const responseMediaTypes = ['application/json', 'text/xml', 'application/xml'] as const;

function content(schema: Record<string, unknown>): Record<string, { schema: Record<string, unknown> }> {
  return Object.fromEntries(
    responseMediaTypes.map((type) => [
      type,
      { schema: type === 'application/json' ? schema : { ...schema, xml: { name: 'xml' } } },
    ]),
  );
}

function statusSchema(type: 'SUCCESS' | 'FAIL', codes: readonly string[], messages: readonly string[]) {
  return {
    type: 'object',
    required: ['type', 'code', 'message'],
    properties: {
      type: { type: 'string', const: type },
      code: { type: 'string', enum: [...new Set(codes)] },
      message: { type: 'string', enum: [...new Set(messages)] },
    },
  };
}

function failureResponses(name: ApiFunctionName, failures: readonly Failure[]) {
  const byStatus = new Map<number, Failure[]>();
  for (const failure of failures)
    byStatus.set(failure.httpStatus, [...(byStatus.get(failure.httpStatus) ?? []), failure]);
  return Object.fromEntries(
    [...byStatus].map(([httpStatus, group]) => {
      const names = new Set<Header>(['X-Request-Id', ...group.flatMap((failure) => failure.headers ?? [])]);
      const messages = group.map((failure) =>
        failure.code === '8000' && isCancellable(name)
          ? failureMessage('8000', name)
          : statusCodes[failure.code].message,
      );
      return [
        String(httpStatus),
        {
          description: group.map((failure) => `${failure.code}: ${failure.when}.`).join(' '),
          headers: headers([...names]),
          content: content({
            type: 'object',
            required: ['status', 'data'],
            properties: {
              status: statusSchema(
                'FAIL',
                group.map((failure) => failure.code),
                messages,
              ),
              data: { $ref: '#/components/schemas/FailureData' },
            },
          }),
        },
      ];
    }),
  );
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
  return rest;
}

function operation(name: ApiFunctionName) {
  const { $schema: _dialect, ...request } = requestJsonSchema(name) as Record<string, unknown>;
  const properties = (request.properties ?? {}) as Record<string, unknown>;
  const money = moneyOperations.has(name);
  const failures = failuresOf(name, Object.keys(properties).length > 0);
  return {
    post: {
      operationId: name,
      security: [{ bearer: [] }],
      parameters: [
        {
          name: 'Accept',
          in: 'header',
          description: 'The answer format; JSON unless XML is preferred.',
          schema: { type: 'string', enum: [...responseMediaTypes] },
        },
        { $ref: '#/components/parameters/X-Request-Id' },
        ...(money ? [{ $ref: '#/components/parameters/Idempotency-Key' }] : []),
      ],
      requestBody: {
        required: false,
        content: {
          'application/json': { schema: request },
          'text/xml': { schema: { ...request, xml: { name: 'xml' } } },
          'application/xml': { schema: { ...request, xml: { name: 'xml' } } },
        },
      },
      responses: {
        '200': {
          description: '0000: success.',
          headers: headers(money ? ['X-Request-Id', 'Idempotency-Replayed'] : ['X-Request-Id']),
          content: content({
            type: 'object',
            required: ['status', 'data'],
            properties: {
              status: statusSchema('SUCCESS', ['0000'], [operationCatalog[name].successMessage]),
              data: jsonSchemaOf(successDataSchemas[name]),
            },
          }),
        },
        ...failureResponses(name, failures),
      },
    },
  };
}

/** Any path under /api/ that is not a function: what it answers. */
const unknownFunction = {
  parameters: [{ name: 'function_name', in: 'path', required: true, schema: { type: 'string' } }],
  post: {
    operationId: 'unknown_function',
    description: 'Any name that is not one of the functions above.',
    responses: {
      '404': {
        description: '1000: unknown function.',
        headers: headers(['X-Request-Id']),
        content: content({
          type: 'object',
          required: ['status', 'data'],
          properties: {
            status: statusSchema('FAIL', ['1000'], [statusCodes['1000'].message]),
            data: { $ref: '#/components/schemas/FailureData' },
          },
        }),
      },
    },
  },
};

export function openApiDocument(): Record<string, unknown> {
  const names = Object.keys(operationCatalog) as ApiFunctionName[];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Topup',
      version: '0.1.0',
      description: 'Mobile-money top-up service: agent float, airtime and signed callbacks.',
    },
    paths: {
      ...Object.fromEntries(names.map((name) => [`/api/${name}`, operation(name)])),
      '/api/{function_name}': unknownFunction,
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        FailureData: {
          type: 'object',
          required: ['errors'],
          properties: { errors: { type: 'array', items: { type: 'string' } } },
        },
      },
      headers: headerDefinitions,
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          description: 'Makes a retry safe: the same key and request within 24 h replays the first answer.',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
        },
        'X-Request-Id': {
          name: 'X-Request-Id',
          in: 'header',
          description: 'Your id for the request, echoed back and written to the service logs.',
          schema: { type: 'string', pattern: '^[\\w.:-]{1,128}$' },
        },
      },
    },
  };
}
