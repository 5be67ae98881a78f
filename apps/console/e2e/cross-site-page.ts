// Another site for the CSRF scenario: a tiny HTTP server on 127.0.0.1 (another port, so another origin)
// whose page, as soon as it loads, sends a cross-site fetch and then auto-submits a form, both to a
// console URL, the way a malicious page would try to make a signed-in operator's browser change
// something.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CrossSitePage {
  /** The page that attacks `target`. */
  readonly url: string;
  close(): Promise<void>;
}

function escapeAttribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** `target` is the console URL posted to; `name` the account name the attack tries to create. */
export async function startCrossSitePage(target: string, name: string): Promise<CrossSitePage> {
  // A text/plain form whose one field makes the body read as JSON: {"name":"…","x":"="}.
  const fieldName = `{"name":"${name}","x":"`;
  const page = `<!doctype html>
<html><head><title>Win a prize</title></head>
<body>
<form id="attack" method="POST" enctype="text/plain" action="${escapeAttribute(target)}">
  <input type="hidden" name="${escapeAttribute(fieldName)}" value='"}'>
</form>
<p id="state">sending</p>
<script>
  fetch(${JSON.stringify(target)}, {
    method: 'POST',
    mode: 'no-cors',
    credentials: 'include',
    headers: { 'Content-Type': 'text/plain' },
    body: JSON.stringify({ name: ${JSON.stringify(name)} }),
  }).catch(() => undefined).finally(() => {
    document.getElementById('state').textContent = 'fetched';
    document.getElementById('attack').submit();
  });
</script>
</body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/prize.html`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
