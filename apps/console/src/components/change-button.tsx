// A button that changes something. Support may look at everything and change nothing, so for support it
// is disabled and says why; the server refuses such a change anyway.

import type { ButtonHTMLAttributes } from 'react';
import { canChange } from '../auth/access';
import { useSession } from '../auth/session-context';

const readOnlyReason = 'Support is read-only';

export function ChangeButton({ disabled, title, type, ...props }: ButtonHTMLAttributes<HTMLButtonElement>) {
  const readOnly = !canChange(useSession().user.role);
  return (
    <button
      {...props}
      type={type === 'submit' ? 'submit' : 'button'}
      disabled={readOnly || disabled}
      title={readOnly ? readOnlyReason : title}
    />
  );
}
