// Running an operator function for an actor, under the catalog's rules, so the console and the CLI cannot
// differ on one: support only reads; what only a signed-in admin may do (approvals) is refused to the CLI;
// fields only the CLI may set are refused to the console; a function that reveals a secret or moves
// money needs the password typed again lately; the input must satisfy the function's schema; and every
// change writes its audit record in the transaction of the change it records.

import type { z } from 'zod';
import { recordAudit } from './audit-log.js';
import { isOperatorFunction, operatorCatalog, type OperatorFunctionName } from './catalog/index.js';
import type { OperatorFunctionSpec } from './catalog/operator-function.js';
import { implementations } from './functions/index.js';
import type { Implementation } from './functions/implementation.js';
import { OperatorError } from './operator-error.js';
import type { OperatorCall, OperatorContext } from './operator-context.js';

type AnySpec = OperatorFunctionSpec<z.ZodObject, unknown>;

/** The problems of a refused input, one line each, naming the field. */
function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
}

/** Checks a body against a function's schema and the caller's rights to its fields. */
function checkedInput(
  context: OperatorContext,
  name: string,
  spec: AnySpec,
  body: unknown,
): Record<string, unknown> {
  const given = body ?? {};
  if (context.actor.kind === 'console' && typeof given === 'object') {
    const refused = (spec.cliOnly ?? []).filter((field) => Object.hasOwn(given, field));
    if (refused.length > 0) {
      const problems = refused.map((field) => `${field}: only the CLI may set it`);
      throw new OperatorError('invalid', problems.join('; '), problems);
    }
  }
  const parsed = spec.input.safeParse(given);
  if (!parsed.success) {
    const problems = problemsOf(parsed.error);
    throw new OperatorError('invalid', `${name}: ${problems.join('; ')}`, problems);
  }
  return parsed.data;
}

/**
 * Runs the operator function `name` for the context's actor: refused as the catalog's rules say, its
 * input checked, and a change audited with its own transaction.
 */
export async function callOperatorFunction(
  context: OperatorContext,
  name: string,
  body: unknown,
  options: { readonly reauthenticated: boolean },
): Promise<unknown> {
  if (!isOperatorFunction(name)) throw new OperatorError('not_found', `No operator function ${name}.`);
  const spec = operatorCatalog[name] as AnySpec;
  const { actor } = context;
  if (actor.kind === 'cli' && spec.cli.length === 0)
    throw new OperatorError('forbidden', `${name} is for a signed-in admin in the console, never the CLI.`);
  if (spec.access === 'change' && actor.kind === 'console' && actor.role !== 'admin')
    throw new OperatorError('forbidden', `${name} changes something; role ${actor.role} is read-only.`);
  const input = checkedInput(context, name, spec, body);
  const reauthenticate =
    typeof spec.reauthenticate === 'function' ? spec.reauthenticate(input) : spec.reauthenticate;
  if (reauthenticate && !options.reauthenticated)
    throw new OperatorError('reauthentication_required', `${name} needs your password again.`);
  const call: OperatorCall = {
    ...context,
    record: (tx, { action, ...details }) =>
      recordAudit(tx, { actor: actor.name, action: action ?? name, ...details }, context.now()),
    audited: (details) => ({ alongside: (tx, result) => call.record(tx, details(result)) }),
  };
  // The input was checked against this very function's schema above.
  const implementation: Implementation<OperatorFunctionName> = implementations[name];
  return implementation(call, input);
}
