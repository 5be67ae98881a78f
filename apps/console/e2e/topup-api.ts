// The service's API as a caller's own system uses it: plain fetch of `POST /api/<function>` with the
// account's API token as a bearer token, JSON in and out.

export interface ApiEnvelope {
  readonly status: { readonly type: string; readonly code: string; readonly message: string };
  readonly data: Record<string, unknown>;
}

export async function callApi(
  baseUrl: string,
  token: string,
  name: string,
  body: Readonly<Record<string, unknown>> = {},
): Promise<ApiEnvelope> {
  const answer = await fetch(`${baseUrl}/api/${name}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await answer.text();
  try {
    return JSON.parse(text) as ApiEnvelope;
  } catch {
    throw new Error(`POST /api/${name} answered ${answer.status} with no JSON: ${text.slice(0, 500)}`);
  }
}

/** `send_agent_float` to a MoneyNetB agent (no agent or store number needed); it completes in sandbox. */
export async function sendAgentFloat(
  baseUrl: string,
  token: string,
  fields: { readonly mobile: string; readonly amount: number; readonly note: string },
): Promise<string> {
  const envelope = await callApi(baseUrl, token, 'send_agent_float', fields);
  const transaction = envelope.data['transaction'] as { reference?: unknown } | undefined;
  if (envelope.status.code !== '0000' || typeof transaction?.reference !== 'string')
    throw new Error(`send_agent_float was refused: ${JSON.stringify(envelope)}`);
  return transaction.reference;
}

export interface DeliverySummary {
  readonly status: string;
  readonly attempts: readonly { readonly http_status: string; readonly outcome: string }[];
}

/** The transaction's callback deliveries, as `list_callback_deliveries` answers them. */
export async function deliveriesOf(
  baseUrl: string,
  token: string,
  reference: string,
): Promise<DeliverySummary[]> {
  const envelope = await callApi(baseUrl, token, 'list_callback_deliveries', { reference });
  if (envelope.status.code !== '0000')
    throw new Error(`list_callback_deliveries: ${JSON.stringify(envelope.status)}`);
  return envelope.data['deliveries'] as DeliverySummary[];
}
