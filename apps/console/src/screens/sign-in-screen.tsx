// Signing in with email and password. It replaces whatever screen was asked for, so after signing in the
// user is where they meant to go.

import { useState } from 'react';
import { signIn } from '../api/session-api';
import { useConsoleHttp, useSessionControl } from '../auth/session-context';
import { ErrorNotice } from '../components/error-notice';
import { formFields } from '../components/form-fields';

export function SignInScreen({ notice }: { notice: string }) {
  const http = useConsoleHttp();
  const { begin } = useSessionControl();
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (form: HTMLFormElement) => {
    const field = formFields(form);
    setBusy(true);
    setFailure(undefined);
    try {
      begin(await signIn(http, field('email'), field('password')));
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>Topup console</h1>
      {notice !== '' && (
        <p className="notice notice-warning" role="status" data-testid="sign-in-notice">
          {notice}
        </p>
      )}
      <form
        className="stacked"
        aria-label="Sign in"
        onSubmit={(event) => {
          event.preventDefault();
          void submit(event.currentTarget);
        }}
      >
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <ErrorNotice error={failure} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
