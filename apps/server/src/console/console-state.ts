// What the console's middleware learns about a request: the session, once one is found.

import type { Session } from '@topup/operators';
import type { ApiState } from '../api-state.js';

export interface ConsoleState extends ApiState {
  /** The signed-in user's live session; set by `sessionRequired`. */
  session?: Session;
  /** The session id from the cookie, kept to derive the CSRF token. */
  sessionId?: string;
}

export interface SessionState extends ConsoleState {
  session: Session;
  sessionId: string;
}
