// What a CLI command runs with, whether the CLI opened the store itself or the running service runs the
// command for it (control-socket.ts): the operator context of the CLI's one actor, `cli:` and the system
// user of the process that runs the command. Never a name the command line or the environment chose:
// through the socket that is the service's own user, whom only its owner can reach.

import { userInfo } from 'node:os';
import type { Ledger, Store } from '@topup/ledger';
import { cliActor, type OperatorContext } from '@topup/operators';
import type { Config } from '@topup/service';
import { operatorContextOf } from '../operator-context.js';

/** This process's system user, by its user id; the id itself when it has no name. */
export function systemUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${String(process.getuid?.() ?? 'unknown')}`;
  }
}

export function commandContext(config: Config, ledger: Ledger, store: Store): OperatorContext {
  return operatorContextOf(config, ledger, store, cliActor(systemUser()));
}
