// The OpenAPI 3.1 document, generated from zod schemas: the validation package's request schemas (so the
// documented request bodies are exactly the validated ones) and the success and callback data schemas of
// response-schemas.ts. Each schema is named once under components and referred to from each media type,
// JSON and both XML types, which the `xml` object describes (openapi-xml.ts). Each function lists every
// HTTP status it can answer, the codes behind each, and the headers that come with them; the callbacks
// are its `webhooks`. Served at /openapi.json.

import { statusCodes } from '@topup/envelope';
import type { FailureCode } from '@topup/envelope';
import { keyedOperations, operationCatalog, requestSchemas } from '@topup/validation';
import type { ApiFunctionName } from '@topup/validation';
import { z } from 'zod';
import { failuresOf, failureText } from './openapi-failures.js';
import type { AnswerHeader, Failure } from './openapi-failures.js';
import { operationTexts, resourceTags } from './openapi-operations.js';
import { callbackSchemas, signatureParameters, webhooks } from './openapi-webhooks.js';
import { describeXml } from './openapi-xml.js';
import type { JsonSchema } from './openapi-xml.js';
import { componentSchemas, successDataSchemas } from './response-schemas.js';

export interface OpenApiOptions {
  /** The service's public address (`PUBLIC_BASE_URL`); without it, paths are relative to the document. */
  readonly serverUrl?: string | undefined;
}

const moneyOperations: ReadonlySet<ApiFunctionName> = new Set(keyedOperations);
const functionNames = Object.keys(operationCatalog) as ApiFunctionName[];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `send_agent_float` → `SendAgentFloat`. */
function pascalCase(name: string): string {
  return name.replace(/(?:^|_)([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

const requestName = (name: ApiFunctionName) => `${pascalCase(name)}Request`;
const answerName = (name: ApiFunctionName) => `${pascalCase(name)}Envelope`;

const headerDefinitions: Readonly<Record<AnswerHeader, JsonSchema>> = {
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

function headers(names: Iterable<AnswerHeader>): Record<string, { $ref: string }> {
  return Object.fromEntries([...names].map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

const mediaTypes = ['application/json', 'text/xml', 'application/xml'] as const;

/** The same named schema for JSON and both XML types: the schema's `xml` object describes the XML. */
function content(schemaName: string): Record<string, { schema: { $ref: string } }> {
  return Object.fromEntries(mediaTypes.map((type) => [type, { schema: ref(schemaName) }]));
}

function dataSchemaName(name: ApiFunctionName): string {
  const id = componentSchemas.get(successDataSchemas[name])?.id;
  if (id === undefined) throw new Error(`Expected the success data of ${name} to be a named schema.`);
  return id;
}

function failureResponses(name: ApiFunctionName, failures: readonly Failure[]) {
  const byStatus = new Map<number, Failure[]>();
  for (const failure of failures)
    byStatus.set(failure.httpStatus, [...(byStatus.get(failure.httpStatus) ?? []), failure]);
  return Object.fromEntries(
    [...byStatus].map(([httpStatus, group]) => [
      String(httpStatus),
      {
        description: group
          .map((failure) => `${failure.code} (${failureText(name, failure.code)}): ${failure.when}.`)
          .join(' '),
        headers: headers(new Set(['X-Request-Id', ...group.flatMap((failure) => failure.headers ?? [])])),
        content: content('Error'),
      },
    ]),
  );
}

function operation(name: ApiFunctionName, request: JsonSchema) {
  const money = moneyOperations.has(name);
  const { summary, description, tag } = operationTexts[name];
  const parameters = Object.keys(request.properties ?? {});
  const required = ((request.required ?? []) as unknown[]).length > 0;
  return {
    post: {
      operationId: name,
      summary,
      description,
      tags: [tag],
      security: [{ bearer: [] }],
      parameters: [
        { $ref: '#/components/parameters/X-Request-Id' },
        ...(money ? [{ $ref: '#/components/parameters/Idempotency-Key' }] : []),
      ],
      requestBody: { required, content: content(requestName(name)) },
      responses: {
        '200': {
          description: `0000: ${operationCatalog[name].successMessage}.`,
          headers: headers(money ? ['X-Request-Id', 'Idempotency-Replayed'] : ['X-Request-Id']),
          content: content(answerName(name)),
        },
        ...failureResponses(name, failuresOf(name, parameters.length > 0)),
      },
    },
  };
}

/** A named schema as zod writes it, without the dialect and id a component has no use for. */
function component(schema: unknown): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
  return rest;
}

function namedSchemas(registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output') {
  const { schemas } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, component(schema)]));
}

/** Each function's request body, named `<Function>Request`. */
function requestComponents(): Record<string, JsonSchema> {
  const requests = z.registry<{ id: string }>();
  for (const name of functionNames) {
    // A copy for each name: two functions may share one (empty) schema.
    requests.add(requestSchemas[name].describe(`The body of \`${name}\`.`), { id: requestName(name) });
  }
  return namedSchemas(requests, 'input');
}

const failureCodes = Object.keys(statusCodes).filter((code) => code !== '0000') as FailureCode[];

const envelopeSchemas: Readonly<Record<string, JsonSchema>> = {
  FailureData: {
    type: 'object',
    required: ['errors'],
    properties: {
      errors: {
        type: 'array',
        items: { type: 'string' },
        description:
          "One entry per problem; for 3000 each in the spec's words, `'<field> is invalid'` or `'<field> is required.'`.",
      },
    },
  },
  FailureStatus: {
    type: 'object',
    required: ['type', 'code', 'message'],
    properties: {
      type: { type: 'string', const: 'FAIL' },
      code: { type: 'string', enum: failureCodes },
      message: {
        type: 'string',
        enum: [
          ...new Set(
            failureCodes.flatMap((code) =>
              code === '8000'
                ? keyedOperations.map((name) => failureText(name, code))
                : [statusCodes[code].message],
            ),
          ),
        ],
      },
    },
  },
  Error: {
    description:
      'A failure envelope: the code and its message in `status`, what went wrong in `data.errors`.',
    type: 'object',
    required: ['status', 'data'],
    properties: { status: ref('FailureStatus'), data: ref('FailureData') },
  },
};

function answerComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(
    functionNames.map((name) => [
      answerName(name),
      {
        description: `The success envelope of \`${name}\`.`,
        type: 'object',
        required: ['status', 'data'],
        properties: {
          status: {
            type: 'object',
            required: ['type', 'code', 'message'],
            properties: {
              type: { type: 'string', const: 'SUCCESS' },
              code: { type: 'string', const: '0000' },
              message: { type: 'string', const: operationCatalog[name].successMessage },
            },
          },
          data: ref(dataSchemaName(name)),
        },
      },
    ]),
  );
}

function schemaComponents(): Record<string, JsonSchema> {
  const answers = answerComponents();
  const requests = requestComponents();
  const schemas = {
    ...namedSchemas(componentSchemas, 'output'),
    ...requests,
    ...answers,
    ...envelopeSchemas,
    ...callbackSchemas,
  };
  describeXml(schemas, [
    ...Object.keys(requests),
    ...Object.keys(answers),
    'Error',
    ...Object.keys(callbackSchemas),
  ]);
  return schemas;
}

const description = `Mobile-money top-up service: agent float, airtime and signed callbacks.

Every function is \`POST /api/<function_name>\` with \`Authorization: Bearer <token>\` (\`tk_test_…\` in sandbox mode, \`tk_live_…\` in live mode). Any other name under \`/api/\` answers \`1000\` with HTTP 404, before the token is read.

Bodies are JSON or XML. \`Content-Type\` names the request body's format: \`application/json\` (the default), \`text/xml\` or \`application/xml\`. \`Accept\` picks the answer's: JSON unless XML is preferred. Every answer is an envelope: \`status\` (\`type\` \`SUCCESS\` or \`FAIL\`, a four-digit \`code\`, \`message\`) and \`data\` (\`errors\`, empty on success, and the function's data).

Values: integer fields are taken as numbers or digit strings and answered as digit strings (\`"amount": "1500"\`); a blank value is an empty string; balances are JSON numbers written with two decimals (\`1500.00\`).

XML: the schemas' \`xml\` objects describe it. The root element is \`xml\`, every field an element of its name holding its value as text, an empty value an empty element, and a list an element holding one child per entry named by the singular (\`<errors><error>…</error></errors>\`, \`<recipients><recipient>…</recipient></recipients>\`). A generator that honours OpenAPI's \`xml\` object reads and writes it. Most TypeScript generators (openapi-typescript with openapi-fetch, @hey-api/openapi-ts) send and read JSON only: use JSON with them, or \`@topup/client\`, which speaks both.

Money operations (\`${keyedOperations.join('`, `')}\`) honour an \`Idempotency-Key\`: the same key and request within 24 hours replays the first answer (\`Idempotency-Replayed: true\`), so a retry never moves money twice. Send one with every money request.

Callbacks: when a transaction completes or is cancelled, the service POSTs a signed callback to each of the account's endpoints (\`add_callback_endpoint\`); the \`webhooks\` describe them.`;

export function openApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const schemas = schemaComponents();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Topup',
      version: '0.1.0',
      description,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      options.serverUrl === undefined
        ? { url: '/', description: 'The service serving this document.' }
        : { url: options.serverUrl, description: 'The service.' },
    ],
    tags: resourceTags,
    paths: Object.fromEntries(
      functionNames.map((name) => [`/api/${name}`, operation(name, schemas[requestName(name)] ?? {})]),
    ),
    webhooks,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token: `tk_test_…` or `tk_live_…`.' },
      },
      schemas,
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
        ...signatureParameters,
      },
    },
  };
}
