// The shape of an operator function's implementation: the checked input of its catalog entry, run for
// one call, answering the catalog's answer type. The compiler insists on one per catalog entry.

import type { OperatorAnswer, OperatorFunctionName, OperatorInput } from '../catalog/index.js';
import type { OperatorCall } from '../operator-context.js';

export type Implementation<N extends OperatorFunctionName> = (
  call: OperatorCall,
  input: OperatorInput<N>,
) => Promise<OperatorAnswer<N>>;

export type Implementations<N extends OperatorFunctionName> = { readonly [K in N]: Implementation<K> };
