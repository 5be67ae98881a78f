// An account's API tokens: which exist and in which mode, issuing one (shown once) and revoking one.

import { useState } from 'react';
import type { TokenMode } from '@topup/operators/catalog';
import { useOperatorChange, useOperatorRead } from '../api/use-operator-function';
import { useScopedAccount } from '../auth/account-scope';
import { ChangeButton } from '../components/change-button';
import { ConfirmButton } from '../components/confirm-button';
import { ErrorNotice } from '../components/error-notice';
import { formFields } from '../components/form-fields';
import { QueryResult } from '../components/query-result';
import { ShownOnceDialog } from '../components/shown-once-dialog';
import { Instant } from '../format/instant';

export function TokensScreen() {
  const account = useScopedAccount() ?? '';
  const tokens = useOperatorRead('list_tokens', { account });
  const issue = useOperatorChange('issue_token');
  const revoke = useOperatorChange('revoke_token');
  const [issued, setIssued] = useState<string | undefined>(undefined);

  return (
    <>
      <h1>Tokens</h1>
      <p className="muted">Account {account}</p>
      <ErrorNotice error={revoke.error} />
      <QueryResult query={tokens}>
        {({ tokens: list }) =>
          list.length === 0 ? (
            <p className="empty">No tokens.</p>
          ) : (
            <table data-testid="tokens-table">
              <thead>
                <tr>
                  <th scope="col">Token</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Created</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.map((token) => (
                  <tr key={token.id} data-testid="token-row">
                    <td className="code">{token.id}</td>
                    <td className="code">{token.prefix}…</td>
                    <td>{token.mode}</td>
                    <td className="nowrap">
                      <Instant iso={token.created} />
                    </td>
                    <td>
                      {token.revoked === '' ? (
                        <span className="badge badge-active">active</span>
                      ) : (
                        <span className="badge badge-closed">
                          revoked <Instant iso={token.revoked} />
                        </span>
                      )}
                    </td>
                    <td>
                      {token.revoked === '' && (
                        <ConfirmButton
                          className="small danger"
                          disabled={revoke.isPending}
                          question={`Revoke token ${token.prefix}…? Calls with it will be refused at once.`}
                          onConfirm={() => {
                            revoke.mutate({ token_id: token.id });
                          }}
                        >
                          Revoke
                        </ConfirmButton>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryResult>
      <section aria-labelledby="issue-token-heading">
        <h2 id="issue-token-heading">Issue a token</h2>
        <form
          className="filters"
          aria-label="Issue token"
          onSubmit={(event) => {
            event.preventDefault();
            const mode: TokenMode = formFields(event.currentTarget)('mode') === 'live' ? 'live' : 'test';
            issue.mutate(
              { account, mode },
              {
                onSuccess: ({ token }) => {
                  setIssued(token);
                },
              },
            );
          }}
        >
          <label>
            Mode
            <select name="mode" defaultValue="test">
              <option value="test">test</option>
              <option value="live">live</option>
            </select>
          </label>
          <div className="actions">
            <ChangeButton type="submit" disabled={issue.isPending}>
              Issue token
            </ChangeButton>
          </div>
          <ErrorNotice error={issue.error} />
        </form>
      </section>
      {issued !== undefined && (
        <ShownOnceDialog
          title="API token"
          value={issued}
          explanation={`Give this token to account ${account}'s system; it sends it as "Authorization: Bearer <token>".`}
          onClose={() => {
            setIssued(undefined);
          }}
        />
      )}
    </>
  );
}
