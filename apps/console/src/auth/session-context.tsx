// The signed-in session and the HTTP client bound to it. The session is read once at start and replaced
// on sign-in, link use and sign-out; when any call finds it ended, the app falls back to the sign-in
// screen with a notice, and every cached answer is dropped so nothing of the old session stays on screen.

import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ConsoleApiError } from '../api/console-api-error';
import { createConsoleHttp, type ConsoleHttp } from '../api/console-http';
import { fetchSession, signOut, type Session } from '../api/session-api';

const sessionEndedNotice = 'Your session has ended; sign in again';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; notice: string }
  | { status: 'signed-in'; session: Session };

interface SessionControl {
  http: ConsoleHttp;
  /** Starts using a session the server just opened (sign-in, one-time link). */
  begin: (session: Session) => void;
  end: () => Promise<void>;
}

type SessionContextValue = SessionControl & { state: SessionState };

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  // The HTTP client lives as long as the app and reads the CSRF token of whichever session is current.
  const csrf = useRef('');

  const control = useMemo<SessionControl>(() => {
    const enter = (next: SessionState) => {
      csrf.current = next.status === 'signed-in' ? next.session.csrf : '';
      setState(next);
    };
    const http = createConsoleHttp({
      csrfToken: () => csrf.current,
      onSessionEnded: () => {
        // Only a session the app was using can end; a 401 before sign-in is the sign-in screen's.
        if (csrf.current === '') return;
        queryClient.clear();
        enter({ status: 'signed-out', notice: sessionEndedNotice });
      },
    });
    return {
      http,
      begin: (session) => {
        queryClient.clear();
        enter({ status: 'signed-in', session });
      },
      end: async () => {
        try {
          await signOut(http);
        } finally {
          queryClient.clear();
          enter({ status: 'signed-out', notice: '' });
        }
      },
    };
  }, [queryClient]);

  useEffect(() => {
    fetchSession(control.http).then(
      (session) => {
        if (session === undefined) setState({ status: 'signed-out', notice: '' });
        else control.begin(session);
      },
      (error: unknown) => {
        setState({
          status: 'signed-out',
          notice: error instanceof ConsoleApiError ? error.message : 'The console could not start.',
        });
      },
    );
  }, [control]);

  const value = useMemo(() => ({ ...control, state }), [control, state]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

function useSessionContext(): SessionContextValue {
  const context = useContext(SessionContext);
  if (context === undefined) throw new Error('useSessionContext needs a SessionProvider above it');
  return context;
}

export function useSessionState(): SessionState {
  return useSessionContext().state;
}

export function useConsoleHttp(): ConsoleHttp {
  return useSessionContext().http;
}

export function useSessionControl(): Pick<SessionControl, 'begin' | 'end'> {
  const { begin, end } = useSessionContext();
  return { begin, end };
}

/** The signed-in session; only screens behind the sign-in gate call it. */
export function useSession(): Session {
  const { state } = useSessionContext();
  if (state.status !== 'signed-in') throw new Error('useSession is only for signed-in screens');
  return state.session;
}
