// @topup/operators/catalog: the one catalog of operator functions, and the types the console reads from
// it. Pure (zod and types), so a browser build can import its types without the store.

import type { z } from 'zod';
import { accountFunctions } from './accounts.js';
import { callbackFunctions } from './callbacks.js';
import { fundingFunctions } from './funding.js';
import { ledgerHealthFunctions } from './ledger-health.js';
import type { OperatorFunctionSpec } from './operator-function.js';
import { userFunctions } from './users.js';

export const operatorCatalog = {
  ...accountFunctions,
  ...fundingFunctions,
  ...ledgerHealthFunctions,
  ...callbackFunctions,
  ...userFunctions,
};

export type OperatorCatalog = typeof operatorCatalog;
export type OperatorFunctionName = keyof OperatorCatalog;

/** What a function takes once checked (defaults filled in, text trimmed). */
export type OperatorInput<N extends OperatorFunctionName> = z.output<OperatorCatalog[N]['input']>;

/** What a function answers: the `data` of the console API's answer, and the CLI's `--json` by default. */
export type OperatorAnswer<N extends OperatorFunctionName> =
  OperatorCatalog[N] extends OperatorFunctionSpec<z.ZodObject, infer A> ? A : never;

/** What the console sends each function and what it gets back. */
export type OperatorFunctions = {
  [N in OperatorFunctionName]: {
    request: z.input<OperatorCatalog[N]['input']>;
    answer: OperatorAnswer<N>;
  };
};

export function isOperatorFunction(name: string): name is OperatorFunctionName {
  return Object.hasOwn(operatorCatalog, name);
}

export type { Access, Answer, CliSpelling, OperatorFunctionSpec } from './operator-function.js';
export type * from './views.js';
