// Console API calls made from inside a signed-in page (page.evaluate + fetch), so they carry the page's
// cookie, origin and Sec-Fetch-Site exactly as the console's own calls do: a test controls only whether
// the CSRF header (read from GET /console/api/session) is sent.

import type { Page } from 'playwright-core';

export interface PageAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** The error code of a console API failure body, or "". */
export function errorCode(answer: PageAnswer): string {
  const body = answer.body as { error?: { code?: unknown } } | null;
  return typeof body?.error?.code === 'string' ? body.error.code : '';
}

/** POSTs `body` to /console/api/<path> from the page, with the session's CSRF token unless `csrf` is false. */
export function postFromPage(
  page: Page,
  path: string,
  body: unknown,
  { csrf = true, account }: { readonly csrf?: boolean; readonly account?: string } = {},
): Promise<PageAnswer> {
  return page.evaluate(
    async ({ path, body, csrf, account }) => {
      const session = (await (
        await fetch('/console/api/session', { credentials: 'same-origin' })
      ).json()) as {
        csrf?: string;
      };
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        Accept: 'application/json',
      };
      if (csrf) headers['X-Topup-CSRF'] = session.csrf ?? '';
      if (account !== '') headers['X-Topup-Account'] = account;
      const answer = await fetch(`/console/api/${path}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers,
        body: JSON.stringify(body),
      });
      const text = await answer.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        // not JSON: kept as text
      }
      return { status: answer.status, body: parsed };
    },
    { path, body, csrf, account: account ?? '' },
  );
}

/** The accounts `list_accounts` finds for `query`, read as the page's user. */
export async function accountsMatching(page: Page, query: string): Promise<{ id: string; name: string }[]> {
  const answer = await postFromPage(page, 'operator/list_accounts', { query });
  if (answer.status !== 200)
    throw new Error(`list_accounts answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (answer.body as { data: { accounts: { id: string; name: string }[] } }).data.accounts;
}
