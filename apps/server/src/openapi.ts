// The OpenAPI 3.1 document, generated from the validation package's zod schemas so that the documented
// request bodies are exactly the validated ones. Served at /openapi.json.

import { statusCodes } from '@topup/envelope';
import { apiFunctions, requestJsonSchema } from '@topup/validation';
import type { ApiFunctionName } from '@topup/validation';

const envelopeSchema = {
  type: 'object',
  required: ['status', 'data'],
  properties: {
    status: {
      type: 'object',
      required: ['type', 'code', 'message'],
      properties: {
        type: { type: 'string', enum: ['SUCCESS', 'FAIL'] },
        code: { type: 'string', pattern: '^\\d{4}$' },
        message: { type: 'string' },
      },
    },
    data: {
      type: 'object',
      required: ['errors'],
      properties: { errors: { type: 'array', items: { type: 'string' } } },
      additionalProperties: true,
    },
  },
} as const;

const failureResponses = Object.fromEntries(
  Object.values(statusCodes).map((entry) => [
    String(entry.httpStatus),
    {
      description: `${entry.code} ${entry.message} (and other codes sharing this HTTP status)`,
      content: body(),
    },
  ]),
);

function body() {
  return {
    'application/json': { schema: { $ref: '#/components/schemas/Envelope' } },
    'text/xml': { schema: { $ref: '#/components/schemas/Envelope' } },
  };
}

function operation(name: ApiFunctionName) {
  const { $schema: _dialect, ...schema } = requestJsonSchema(name) as Record<string, unknown>;
  return {
    post: {
      operationId: name,
      security: [{ bearer: [] }],
      parameters: [
        { name: 'Accept', in: 'header', schema: { type: 'string', enum: ['application/json', 'text/xml'] } },
        { name: 'Idempotency-Key', in: 'header', schema: { type: 'string', maxLength: 255 } },
      ],
      requestBody: {
        required: false,
        content: {
          'application/json': { schema },
          'text/xml': { schema: { ...schema, xml: { name: 'xml' } } },
        },
      },
      responses: { '200': { description: '0000 success', content: body() }, ...failureResponses },
    },
  };
}

export function openApiDocument(): Record<string, unknown> {
  const names = Object.keys(apiFunctions) as ApiFunctionName[];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Topup',
      version: '0.1.0',
      description: 'Mobile-money top-up service: agent float, airtime and signed callbacks.',
    },
    paths: Object.fromEntries(names.map((name) => [`/api/${name}`, operation(name)])),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Envelope: envelopeSchema },
    },
  };
}
