// The frame of every signed-in screen: the header with who is signed in, the time zone every time is shown
// in, and a way out; the left navigation; and the screen itself.

import type { ReactNode } from 'react';
import { useSession, useSessionControl } from '../auth/session-context';
import { TimeZoneProvider } from '../format/instant';
import { SideNav } from './side-nav';

export function AppShell({ children }: { children: ReactNode }) {
  const { user, time_zone: zone } = useSession();
  const { end } = useSessionControl();
  return (
    <div className="shell">
      <header className="top-bar">
        <span className="brand">Topup console</span>
        <div className="signed-in">
          <span className="muted" data-testid="time-zone" title="Every time in the console is in this zone">
            Times in {zone}
          </span>
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
      <main className="content">
        <TimeZoneProvider zone={zone}>{children}</TimeZoneProvider>
      </main>
    </div>
  );
}
