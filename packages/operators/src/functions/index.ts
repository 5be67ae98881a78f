// Every operator function's implementation, one per catalog entry: the compiler refuses a catalog entry
// without one.

import type { OperatorFunctionName } from '../catalog/index.js';
import { accountImplementations } from './accounts.js';
import { callbackImplementations } from './callbacks.js';
import { fundingImplementations } from './funding.js';
import type { Implementations } from './implementation.js';
import { ledgerHealthImplementations } from './ledger-health.js';
import { userImplementations } from './users.js';

export const implementations: Implementations<OperatorFunctionName> = {
  ...accountImplementations,
  ...fundingImplementations,
  ...ledgerHealthImplementations,
  ...callbackImplementations,
  ...userImplementations,
};
