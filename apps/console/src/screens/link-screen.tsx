// The page a one-time sign-in link opens (/console/link#token=…): it shows whose link it is, takes a new
// password twice and signs in. The token travels in the fragment, which browsers never send to a server
// or put in a Referer, and it is removed from the address bar as soon as it is read. Once the link is
// used it is never asked about again, and a link that cannot be used points to the sign-in form.

import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { linkInfo, setPasswordWithLink } from '../api/session-api';
import { homePath } from '../auth/access';
import { maxPasswordLength, minPasswordLength, passwordProblem } from '../auth/password-rules';
import { useConsoleHttp, useSessionControl } from '../auth/session-context';
import { ErrorNotice } from '../components/error-notice';
import { formFields } from '../components/form-fields';
import { QueryResult } from '../components/query-result';

function tokenFromFragment(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

export function LinkScreen() {
  const http = useConsoleHttp();
  const { begin } = useSessionControl();
  const navigate = useNavigate();
  const [token] = useState(tokenFromFragment);
  useEffect(() => {
    if (window.location.hash !== '') {
      window.history.replaceState(window.history.state, '', window.location.pathname);
    }
  }, []);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  // Set before the session begins: starting it clears every cached answer, which would otherwise send
  // this page's question about the link, now used up, once more.
  const [used, setUsed] = useState(false);
  const info = useQuery({
    queryKey: ['link-info', token],
    queryFn: () => linkInfo(http, token),
    enabled: token !== '' && !used,
    retry: false,
    staleTime: Infinity,
  });

  const submit = async (form: HTMLFormElement) => {
    const field = formFields(form);
    const problem = passwordProblem(field('password'), field('confirmation'));
    if (problem !== undefined) {
      setFailure(new Error(problem));
      return;
    }
    setBusy(true);
    setFailure(undefined);
    try {
      const session = await setPasswordWithLink(http, token, field('password'));
      setUsed(true);
      begin(session);
      await navigate({ to: homePath(session.user.role), replace: true });
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>Set your password</h1>
      {token === '' ? (
        <p className="notice notice-error" role="alert">
          This link has no token. Open the whole link you were given, or ask an administrator for a new one.
        </p>
      ) : info.isError ? (
        <>
          <ErrorNotice error={info.error} />
          <p>
            Already set your password? <Link to="/">Sign in</Link>.
          </p>
        </>
      ) : (
        <QueryResult query={info}>
          {({ email }) => (
            <form
              className="stacked"
              aria-label="Set password"
              onSubmit={(event) => {
                event.preventDefault();
                void submit(event.currentTarget);
              }}
            >
              <p>
                For <strong data-testid="link-email">{email}</strong>. Choose a password of{' '}
                {minPasswordLength} characters or more.
              </p>
              <label>
                Password
                <input
                  name="password"
                  type="password"
                  autoComplete="new-password"
                  minLength={minPasswordLength}
                  maxLength={maxPasswordLength}
                  required
                />
              </label>
              <label>
                Confirm password
                <input
                  name="confirmation"
                  type="password"
                  autoComplete="new-password"
                  minLength={minPasswordLength}
                  maxLength={maxPasswordLength}
                  required
                />
              </label>
              <ErrorNotice error={failure} />
              <button type="submit" disabled={busy}>
                Set password
              </button>
            </form>
          )}
        </QueryResult>
      )}
    </main>
  );
}
