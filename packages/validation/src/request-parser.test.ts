import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  boundedText,
  countryCode,
  emailAddress,
  maxTextLength,
  mobileNumber,
  networkIssuedNumber,
  pageLimit,
  wholeAmount,
} from './field-schemas.js';
import {
  defineRequest,
  fieldsAsRequest,
  isAbsent,
  isFieldObject,
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

// The field-by-field parse every request took before the whole-object one was tried first: the model
// the faster path must agree with.
function fieldByField(fields: z.ZodObject, input: unknown) {
  const parsed: Record<string, unknown> = {};
  const problems: { field: string; kind: 'required' | 'invalid' }[] = [];
  for (const [field, schema] of Object.entries(fields.shape)) {
    const raw = isFieldObject(input) && Object.hasOwn(input, field) ? input[field] : undefined;
    const absent = isAbsent(raw);
    const result = z.safeParse(schema, absent ? undefined : raw);
    if (!result.success) problems.push({ field, kind: absent ? 'required' : 'invalid' });
    else if (result.data !== undefined) parsed[field] = result.data;
  }
  return problems.length === 0 ? { ok: true, value: parsed } : { ok: false, problems };
}

describe('resolveRequest against the field-by-field parse', () => {
  const definition = defineRequest(
    z.object({
      country: countryCode.optional(),
      name: boundedText(maxTextLength).optional(),
      mobile: mobileNumber,
      email: emailAddress.optional(),
      agent_number: networkIssuedNumber.optional(),
      amount: wholeAmount,
      limit: pageLimit,
      note: boundedText(maxTextLength).optional(),
    }),
    fieldsAsRequest,
  );
  const values = fc.constantFrom<unknown>(
    undefined,
    null,
    '',
    '  ',
    'KE',
    'ke',
    'XX',
    '0712345678',
    '+254 712 345 678',
    254712345678,
    '100',
    100,
    0,
    -5,
    1.5,
    '1e3',
    ' 42 ',
    'jane@example.com',
    'not an e-mail',
    'Jane Wanjiku',
    ' padded ',
    'x'.repeat(101),
    'bad\u0000text',
    true,
    [],
    {},
  );
  const fields = ['country', 'name', 'mobile', 'email', 'agent_number', 'amount', 'limit', 'note', 'other'];

  it('gives the same value or the same problems for any body', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...fields), values), (body) => {
        const expected = fieldByField(definition.fields, body);
        const resolved = resolveRequest(definition, body);
        expect(resolved).toEqual(expected);
        if (resolved.ok) expect(Object.keys(resolved.value)).toEqual(Object.keys(expected.value ?? {}));
      }),
      { numRuns: 3_000 },
    );
  });
});
