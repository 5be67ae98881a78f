// The password dialog shown when a change needs the password entered again, and the hook that runs a
// change through it (withReauthentication). One dialog serves the whole app; a change waiting on it
// resumes when the password is accepted, or fails with the server's refusal when the user cancels.

import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { reauthenticate } from '../api/session-api';
import { ErrorNotice } from '../components/error-notice';
import { Modal } from '../components/modal';
import { withReauthentication } from './reauthentication';
import { useConsoleHttp } from './session-context';

type AskForPassword = () => Promise<boolean>;

const ReauthenticationContext = createContext<AskForPassword | undefined>(undefined);

export function ReauthenticationProvider({ children }: { children: ReactNode }) {
  const http = useConsoleHttp();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const settle = useRef<(accepted: boolean) => void>(undefined);

  const askForPassword = useCallback<AskForPassword>(
    () =>
      new Promise<boolean>((resolve) => {
        // A second change asking while the dialog is open shares the answer of the first.
        const previous = settle.current;
        settle.current = (accepted) => {
          previous?.(accepted);
          resolve(accepted);
        };
        setFailure(undefined);
        setOpen(true);
      }),
    [],
  );

  const close = (accepted: boolean) => {
    setOpen(false);
    settle.current?.(accepted);
    settle.current = undefined;
  };

  const submit = async (password: string) => {
    setBusy(true);
    try {
      await reauthenticate(http, password);
      close(true);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <ReauthenticationContext value={askForPassword}>
      {children}
      {open && (
        <Modal
          title="Enter your password again"
          testId="reauthenticate-dialog"
          onClose={() => {
            close(false);
          }}
        >
          <p>This change needs your password, entered within the last 5 minutes.</p>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const password = new FormData(event.currentTarget).get('password');
              void submit(typeof password === 'string' ? password : '');
            }}
          >
            <label>
              Password
              <input name="password" type="password" autoComplete="current-password" required autoFocus />
            </label>
            <ErrorNotice error={failure} />
            <div className="actions">
              <button type="submit" disabled={busy}>
                Confirm password
              </button>
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  close(false);
                }}
              >
                Cancel
              </button>
            </div>
          </form>
        </Modal>
      )}
    </ReauthenticationContext>
  );
}

/** Runs `action`, asking for the password and trying once more if the server wants it entered again. */
export function useReauthenticated(): <T>(action: () => Promise<T>) => Promise<T> {
  const askForPassword = useContext(ReauthenticationContext);
  if (askForPassword === undefined) throw new Error('useReauthenticated needs a ReauthenticationProvider');
  return useCallback((action) => withReauthentication(action, askForPassword), [askForPassword]);
}
