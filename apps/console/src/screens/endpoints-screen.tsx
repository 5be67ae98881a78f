// An account's callback endpoints: register one, send it a test callback, rotate its signing secret or
// remove it. A signing secret is shown once, when the endpoint is added or its secret rotated.

import type { CallbackEndpointView } from '@topup/envelope';
import { useState } from 'react';
import { useCallerChange, useCallerRead } from '../api/use-caller-function';
import { ChangeButton } from '../components/change-button';
import { ConfirmButton } from '../components/confirm-button';
import { ErrorNotice } from '../components/error-notice';
import { formFields } from '../components/form-fields';
import { QueryResult } from '../components/query-result';
import { ShownOnceDialog } from '../components/shown-once-dialog';
import { Instant } from '../format/instant';
import { formatDuration } from '../format/time';

interface Revealed {
  title: string;
  value: string;
  explanation: string;
}

function AddEndpointForm({ onAdded }: { onAdded: (revealed: Revealed) => void }) {
  const add = useCallerChange('add_callback_endpoint');
  return (
    <form
      className="filters"
      aria-label="Add endpoint"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const field = formFields(form);
        const description = field('description').trim();
        add.mutate(
          {
            url: field('url').trim(),
            format: field('format') === 'xml' ? 'xml' : 'json',
            ...(description === '' ? {} : { description }),
          },
          {
            onSuccess: ({ data }) => {
              form.reset();
              onAdded({
                title: 'Signing secret',
                value: data.endpoint.secret,
                explanation: `Callbacks to ${data.endpoint.url} are signed with this secret. Verify each callback's signature with it.`,
              });
            },
          },
        );
      }}
    >
      <label className="wide">
        URL
        <input name="url" type="url" required placeholder="https://example.com/topup/callbacks" />
      </label>
      <label>
        Format
        <select name="format" defaultValue="json">
          <option value="json">JSON</option>
          <option value="xml">XML</option>
        </select>
      </label>
      <label className="wide">
        Description
        <input name="description" />
      </label>
      <div className="actions">
        <ChangeButton type="submit" disabled={add.isPending}>
          Add endpoint
        </ChangeButton>
      </div>
      <ErrorNotice error={add.error} />
    </form>
  );
}

function EndpointsTable({
  endpoints,
  onRevealed,
}: {
  endpoints: readonly CallbackEndpointView[];
  onRevealed: (revealed: Revealed) => void;
}) {
  const remove = useCallerChange('remove_callback_endpoint');
  const rotate = useCallerChange('rotate_callback_secret');
  const test = useCallerChange('send_test_callback');
  const tested = test.data?.data.test;

  return (
    <>
      <ErrorNotice error={remove.error ?? rotate.error ?? test.error} />
      {tested !== undefined && (
        <p className="notice notice-info" role="status" data-testid="test-callback-result">
          Test callback to <span className="code">{tested.endpoint_id}</span>:{' '}
          <strong>{tested.outcome}</strong>
          {tested.http_status !== '' && `, HTTP ${tested.http_status}`}
          {tested.duration_ms !== '' && ` in ${formatDuration(tested.duration_ms)}`}
          {tested.error !== '' && `: ${tested.error}`}
        </p>
      )}
      {endpoints.length === 0 ? (
        <p className="empty">No endpoints: callbacks go nowhere until one is added.</p>
      ) : (
        <div className="table-scroll">
          <table data-testid="endpoints-table">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Format</th>
                <th scope="col">Description</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id} data-testid="endpoint-row">
                  <td className="url">
                    <span className="code">{endpoint.url}</span>
                    <div className="muted code">{endpoint.id}</div>
                  </td>
                  <td>{endpoint.format.toUpperCase()}</td>
                  <td>{endpoint.description}</td>
                  <td>
                    {endpoint.enabled === 'true' ? (
                      <span className="badge badge-delivered">enabled</span>
                    ) : (
                      <>
                        <span className="badge badge-failed">disabled</span>
                        <div className="muted">{endpoint.disabled_reason}</div>
                      </>
                    )}
                  </td>
                  <td className="nowrap">
                    <Instant iso={endpoint.created} />
                  </td>
                  <td className="row-actions">
                    <ChangeButton
                      className="small"
                      disabled={test.isPending}
                      onClick={() => {
                        test.mutate({ endpoint_id: endpoint.id });
                      }}
                    >
                      Send test callback
                    </ChangeButton>
                    <ChangeButton
                      className="small"
                      disabled={rotate.isPending}
                      onClick={() => {
                        rotate.mutate(
                          { endpoint_id: endpoint.id },
                          {
                            onSuccess: ({ data }) => {
                              onRevealed({
                                title: 'New signing secret',
                                value: data.endpoint.secret,
                                explanation: `Callbacks to ${endpoint.url} are now signed with this secret. The previous one stays valid for ${data.endpoint.previous_secret_valid_for} seconds, so update your receiver before then.`,
                              });
                            },
                          },
                        );
                      }}
                    >
                      Rotate secret
                    </ChangeButton>
                    <ConfirmButton
                      className="small danger"
                      question={`Remove endpoint ${endpoint.url}?`}
                      onConfirm={() => {
                        remove.mutate({ endpoint_id: endpoint.id });
                      }}
                    >
                      Remove
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export function EndpointsScreen() {
  const endpoints = useCallerRead('list_callback_endpoints', {});
  const [revealed, setRevealed] = useState<Revealed | undefined>(undefined);

  return (
    <>
      <h1>Endpoints</h1>
      <QueryResult query={endpoints}>
        {({ data }) => <EndpointsTable endpoints={data.endpoints} onRevealed={setRevealed} />}
      </QueryResult>
      <section aria-labelledby="add-endpoint-heading">
        <h2 id="add-endpoint-heading">Add an endpoint</h2>
        <AddEndpointForm onAdded={setRevealed} />
      </section>
      {revealed !== undefined && (
        <ShownOnceDialog
          {...revealed}
          onClose={() => {
            setRevealed(undefined);
          }}
        />
      )}
    </>
  );
}
