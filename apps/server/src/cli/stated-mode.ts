// Settling a purchase's payment leg depends on the mode: in live mode the payment is recorded and the
// airtime is delivered next; in sandbox mode the simulator carried the purchase whole, and the settlement
// completes it. TOPUP_MODE defaults to sandbox, so a CLI run with the store's address alone would settle a
// live purchase's payment as the whole purchase and complete it with no airtime sent. The CLI that opens
// the store itself therefore settles a payment leg only when the mode is stated; a running service that
// takes the command (control-socket.ts) settles it under its own configuration.

import { parseLegId } from '@topup/ledger';
import { OperatorError } from '@topup/operators';

/** Throws `mode_required` when `command` settles a payment leg and `environment` does not say the mode. */
export function requireStatedModeFor(
  command: string,
  options: Readonly<Record<string, unknown>>,
  environment: Readonly<Record<string, string | undefined>>,
): void {
  const leg = typeof options['leg'] === 'string' ? options['leg'] : '';
  if (command !== 'legs resolve' || parseLegId(leg)?.kind !== 'payment') return;
  // Empty counts as unset, as loadConfig reads it.
  if ((environment['TOPUP_MODE'] ?? '') !== '') return;
  throw new OperatorError(
    'invalid',
    `Expected TOPUP_MODE to settle the payment leg ${leg}, found it unset: in live mode the payment ` +
      'is recorded and the airtime is delivered next, in sandbox mode the settlement completes the purchase. ' +
      "Run it with the service's configuration (TOPUP_MODE=live and the rest), or TOPUP_MODE=sandbox.",
    [],
    'mode_required',
  );
}
