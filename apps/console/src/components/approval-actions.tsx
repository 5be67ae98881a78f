// What an admin can do with a request that waits for a second admin (funding, a new admin, an admin's
// link): approve it, unless they asked for it themselves (the server refuses that too; the button says
// so before anyone tries), or reject it after saying what it was.

import type { ApprovalState } from '@topup/operators/catalog';
import { useSession } from '../auth/session-context';
import { ChangeButton } from './change-button';
import { ConfirmButton } from './confirm-button';

interface ApprovalActionsProps {
  request: { state: ApprovalState; requested_by: string };
  /** What rejecting it does, as the confirmation asks: "Reject funding of KES 250,000.00 to acct_…?" */
  rejectQuestion: string;
  busy: boolean;
  onApprove: () => void;
  onReject: () => void;
}

export function ApprovalActions({
  request,
  rejectQuestion,
  busy,
  onApprove,
  onReject,
}: ApprovalActionsProps) {
  const { user } = useSession();
  if (request.state !== 'awaiting_approval') return null;
  const own = request.requested_by === user.email;
  return (
    <>
      <ChangeButton
        className="small"
        disabled={own || busy}
        title={own ? 'You asked for this: another admin approves it' : undefined}
        onClick={onApprove}
      >
        Approve
      </ChangeButton>
      <ConfirmButton className="small danger" disabled={busy} question={rejectQuestion} onConfirm={onReject}>
        Reject
      </ConfirmButton>
    </>
  );
}
