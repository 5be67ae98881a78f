// The frame of every signed-in screen: the header with who is signed in and a way out, the left
// navigation, and the screen itself.

import type { ReactNode } from 'react';
import { useSession, useSessionControl } from '../auth/session-context';
import { SideNav } from './side-nav';

export function AppShell({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const { end } = useSessionControl();
  return (
    <div className="shell">
      <header className="top-bar">
        <span className="brand">Topup console</span>
        <div className="signed-in">
          <span data-testid="user-email">{user.email}</span>
          <span className="badge" data-testid="user-role">
            {user.role}
          </span>
          <button
            type="button"
            className="secondary small"
            onClick={() => {
              void end();
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <SideNav role={user.role} />
      <main className="content">{children}</main>
    </div>
  );
}
