import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineRequest,
  fieldsAsRequest,
  parseRequest,
  requestSchema,
  resolveRequest,
} from './request-parser.js';
import { parseSendAgentFloat } from './send-agent-float.js';

const floatFields = [
  'country',
  'network',
  'name',
  'mobile',
  'email',
  'agent_name',
  'agent_number',
  'store_number',
  'currency',
  'amount',
  'note',
];

// The field named in a `3000` string, e.g. "'amount is invalid'" gives "amount".
function fieldOf(error: string): string {
  return /^'([a-z_]+) is (?:invalid'|required\.')$/.exec(error)?.[1] ?? `unexpected error string: ${error}`;
}

describe('parseRequest', () => {
  const definition = defineRequest(
    z.object({
      code: z.string().regex(/^[A-Z]+$/),
      size: z.int().optional(),
      kind: z.enum(['a', 'b']).default('a'),
    }),
    fieldsAsRequest,
  );

  it('fills defaults and leaves absent optional fields out', () => {
    expect(parseRequest(definition, { code: 'AB' })).toEqual({ ok: true, value: { code: 'AB', kind: 'a' } });
  });

  it('reads own fields only, not inherited ones', () => {
    const inherited = Object.create({ code: 'AB' }) as object;
    expect(parseRequest(definition, inherited)).toEqual({ ok: false, errors: ["'code is required.'"] });
  });

  it('treats a blank string as absent, a padded value as present', () => {
    expect(parseRequest(definition, { code: ' \t ' })).toEqual({
      ok: false,
      errors: ["'code is required.'"],
    });
    expect(parseRequest(definition, { code: ' AB ' })).toEqual({ ok: false, errors: ["'code is invalid'"] });
  });

  it('gives the problems themselves through resolveRequest, in field order', () => {
    expect(resolveRequest(definition, { kind: 'c', size: 'x' })).toEqual({
      ok: false,
      problems: [
        { field: 'code', kind: 'required' },
        { field: 'size', kind: 'invalid' },
        { field: 'kind', kind: 'invalid' },
      ],
    });
    expect(parseRequest(definition, { kind: 'c', size: 'x' })).toEqual({
      ok: false,
      errors: ["'code is required.'", "'size is invalid'", "'kind is invalid'"],
    });
  });

  it('gives the schema built from a definition the same fields', () => {
    expect(requestSchema(definition).parse({ code: 'XY', size: 3, other: true })).toEqual({
      code: 'XY',
      size: 3,
      kind: 'a',
    });
  });
});

describe('parseSendAgentFloat on arbitrary input', () => {
  const fieldValue = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('0712345678', '254760123456', 'MoneyNetA', 'KE', 'kes', '1500', 'a@b.co'),
  );
  const body = fc.dictionary(fc.constantFrom(...floatFields, 'extra'), fieldValue);

  it('never throws, and reports each field at most once, in the order of the spec', () => {
    fc.assert(
      fc.property(fc.oneof(body, fc.anything()), (input) => {
        const result = parseSendAgentFloat(input);
        if (result.ok) return;
        const fields = result.errors.map(fieldOf);
        const positions = fields.map((field) => floatFields.indexOf(field));
        expect(positions.every((position) => position >= 0)).toBe(true);
        expect(positions).toEqual([...new Set(positions)].sort((a, b) => a - b));
        expect(result.errors.length).toBeGreaterThan(0);
      }),
    );
  });
});
