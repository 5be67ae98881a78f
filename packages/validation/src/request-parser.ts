// The validation engine shared by every API function. A request is defined by a zod object of its
// fields (the key order is the field order of the spec's tables) and by a resolver for the rules that
// span several fields or depend on the server's options. Fields are validated one by one so that every
// problem is reported, once per field, as the spec's `3000` strings, in field order.

import { z } from 'zod';
import { invalid, required } from './error-messages.js';

/**
 * What every parser returns: the valid request, or the spec's `3000` error strings in field order.
 *
 * @example
 * ```ts
 * import { parseGetTransaction, type GetTransactionRequest, type ValidationResult } from '@topup/validation';
 *
 * const result: ValidationResult<GetTransactionRequest> = parseGetTransaction({});
 * if (!result.ok) {
 *   result.errors; // ["'reference is required.'"]
 * }
 * ```
 */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/**
 * Settings the server passes to every parse function.
 *
 * @example
 * ```ts
 * import { parseSendAgentFloat, type ParseOptions } from '@topup/validation';
 *
 * const options: ParseOptions = { amount: { min: 10, max: 70_000 } };
 * parseSendAgentFloat({ mobile: '0733000000', amount: 5 }, options); // { ok: false, errors: ["'amount is invalid'"] }
 * ```
 */
export interface ParseOptions {
  /** Inclusive amount bounds in whole currency units; outside them `amount` is invalid. */
  readonly amount?: { readonly min: number; readonly max: number } | undefined;
}

export interface FieldProblem<Field extends string = string> {
  readonly field: Field;
  readonly kind: 'required' | 'invalid';
}

export type Resolution<Value, Field extends string> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly problems: readonly FieldProblem<Field>[] };

export interface ResolutionContext<Fields> {
  /** Fields that failed their own schema, a required one being absent included. */
  readonly failed: ReadonlySet<string>;
  /** Every field, when each passed its own schema; undefined otherwise. */
  readonly complete: Fields | undefined;
  readonly options: ParseOptions;
}

export interface RequestDefinition<Shape extends z.core.$ZodShape, Value> {
  readonly fields: z.ZodObject<Shape>;
  /**
   * Applies the rules between fields. Called with every field that passed, even when others failed,
   * so that all problems are found at once; its problems on fields that already failed are dropped.
   */
  readonly resolve: (
    fields: Partial<z.output<z.ZodObject<Shape>>>,
    context: ResolutionContext<z.output<z.ZodObject<Shape>>>,
  ) => Resolution<Value, keyof Shape & string>;
}

/** Pairs a fields schema with its resolver, inferring the request type from the resolver. */
export function defineRequest<Shape extends z.core.$ZodShape, Value>(
  fields: z.ZodObject<Shape>,
  resolve: RequestDefinition<Shape, Value>['resolve'],
): RequestDefinition<Shape, Value> {
  return { fields, resolve };
}

/** A resolver for requests without rules between fields: the parsed fields are the request. */
export function fieldsAsRequest<Fields>(
  _fields: Partial<Fields>,
  context: ResolutionContext<Fields>,
): Resolution<Fields, never> {
  return context.complete === undefined ? { ok: false, problems: [] } : { ok: true, value: context.complete };
}

/** Whether a value is what JSON and XML senders use for "not given": no key, null, an empty element. */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Whether a decoded value is an object of fields; a list is not, though JavaScript says it is. */
export function isFieldObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value a body gives `field`: own keys only, and none when the body is not an object. */
export function bodyField(input: unknown, field: string): unknown {
  return isFieldObject(input) && Object.hasOwn(input, field) ? input[field] : undefined;
}

/** The spec's string for a problem. */
export function problemMessage(problem: FieldProblem): string {
  return problem.kind === 'required' ? required(problem.field) : invalid(problem.field);
}

function orderedProblems(fieldOrder: readonly string[], problems: readonly FieldProblem[]): FieldProblem[] {
  const firstByField = new Map<string, FieldProblem>();
  for (const problem of problems) {
    if (!firstByField.has(problem.field)) firstByField.set(problem.field, problem);
  }
  return fieldOrder.flatMap((field) => {
    const problem = firstByField.get(field);
    return problem === undefined ? [] : [problem];
  });
}

interface Layout {
  readonly fieldOrder: readonly string[];
  readonly entries: readonly (readonly [string, z.core.$ZodType])[];
}

const layouts = new WeakMap<z.ZodObject, Layout>();

/** The fields in order with their schemas, read from the object's shape once. */
function layoutOf(fields: z.ZodObject): Layout {
  let layout = layouts.get(fields);
  if (layout === undefined) {
    const entries = Object.entries(fields.shape);
    layout = { fieldOrder: entries.map(([field]) => field), entries };
    layouts.set(fields, layout);
  }
  return layout;
}

/**
 * Validates a decoded request body against a definition, as `parseRequest` does, but gives the
 * problems rather than their strings, so that a caller can name the fields of a request nested in a
 * list by their position.
 */
export function resolveRequest<Shape extends z.core.$ZodShape, Value>(
  definition: RequestDefinition<Shape, Value>,
  input: unknown,
  options: ParseOptions = {},
): Resolution<Value, string> {
  type Fields = z.output<z.ZodObject<Shape>>;
  const { fieldOrder, entries } = layoutOf(definition.fields);
  const given: Record<string, unknown> = {};
  for (const [field] of entries) {
    const raw = bodyField(input, field);
    if (!isAbsent(raw)) given[field] = raw;
  }
  // Most requests are valid: one parse of the given fields as a whole (which zod compiles once per
  // schema) gives what the field-by-field parse would, at a fraction of its cost. Only a request that
  // fails it is parsed field by field, to find and word every problem.
  const whole = definition.fields.safeParse(given);
  const parsed: Record<string, unknown> = whole.success ? whole.data : {};
  const problems: FieldProblem[] = [];
  if (!whole.success) {
    for (const [field, schema] of entries) {
      const absent = !Object.hasOwn(given, field);
      const result = z.safeParse(schema, given[field]);
      if (!result.success) problems.push({ field, kind: absent ? 'required' : 'invalid' });
      else if (result.data !== undefined) parsed[field] = result.data;
    }
  }
  // Each value came out of its own field schema, so `parsed` holds the object schema's output for
  // every field that passed; when none failed it is the whole output.
  const fields = parsed as Partial<Fields>;
  const resolution = definition.resolve(fields, {
    failed: new Set(problems.map((problem) => problem.field)),
    complete: problems.length === 0 ? (parsed as Fields) : undefined,
    options,
  });
  if (problems.length === 0 && resolution.ok) return { ok: true, value: resolution.value };
  const resolverProblems = resolution.ok ? [] : resolution.problems;
  return { ok: false, problems: orderedProblems(fieldOrder, [...problems, ...resolverProblems]) };
}

/**
 * Validates a decoded request body against a definition. Absent fields (missing, null or blank) are
 * `required` when the schema needs them; present ones that fail their schema are `invalid`; unknown
 * fields are ignored, and a body that is not an object counts as one with no fields.
 */
export function parseRequest<Shape extends z.core.$ZodShape, Value>(
  definition: RequestDefinition<Shape, Value>,
  input: unknown,
  options: ParseOptions = {},
): ValidationResult<Value> {
  const resolution = resolveRequest(definition, input, options);
  return resolution.ok ? resolution : { ok: false, errors: resolution.problems.map(problemMessage) };
}

/**
 * The zod schema of a request: its fields followed by the resolver, so that `z.output` is the request
 * type and `z.input` what a caller may send. Convert it with `z.toJSONSchema(schema, { io: 'input' })`.
 * Parsing with it directly is strict (no blank-as-absent, no amount bounds, zod's issues instead of the
 * spec's strings); request handlers use the parse functions.
 */
export function requestSchema<Shape extends z.core.$ZodShape, Value>(
  definition: RequestDefinition<Shape, Value>,
) {
  return definition.fields.transform((fields, context) => {
    const resolution = definition.resolve(fields, { failed: new Set(), complete: fields, options: {} });
    if (resolution.ok) return resolution.value;
    for (const problem of resolution.problems) {
      context.issues.push({
        code: 'custom',
        path: [problem.field],
        message: problemMessage(problem),
        input: fields,
      });
    }
    return z.NEVER;
  });
}
