// Tools accept the document the running server serves. Redocly's recommended rules find no error and no
// warning in it. Two generators a team would reach for build clients from it that compile under strict
// TypeScript and send a float to the service: openapi-typescript's types with openapi-fetch, and
// @hey-api/openapi-ts's fetch client and SDK. The clients are generated, compiled with tsc and run here,
// in a scratch folder under node_modules/.cache (so openapi-fetch resolves from it), removed afterwards.

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createClient as generateHeyApiClient } from '@hey-api/openapi-ts';
import type { Store } from '@topup/ledger';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const serverRoot = fileURLToPath(new URL('../', import.meta.url));
const [stores] = openTestStores();

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly {
    readonly ruleId: string;
    readonly message: string;
    readonly location: readonly { readonly pointer: string }[];
  }[];
}

/** What each caller answers: the float's HTTP status and envelope status, and its state when read back. */
interface FloatSent {
  readonly httpStatus: number;
  readonly status: { readonly type: string; readonly code: string; readonly message: string };
  readonly reference: string;
  readonly state: string;
}

// Code a team writes against each generated client: send a float with an Idempotency-Key, read the
// transaction back by its reference. Both compile against the generated types or not at all.
const openapiFetchCaller = `import createClient from 'openapi-fetch';
import type { paths } from './openapi-typescript/schema.js';

export async function sendFloat(baseUrl: string, token: string) {
  const topup = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${token}\` } });
  const sent = await topup.POST('/api/send_agent_float', {
    params: { header: { 'Idempotency-Key': 'openapi-fetch-float-1' } },
    body: { mobile: '254722000123', amount: 500, agent_number: '123456', store_number: '654321' },
  });
  if (sent.error !== undefined) throw new Error(\`\${sent.error.status.code} \${sent.error.status.message}\`);
  const { reference } = sent.data.data.transaction;
  const found = await topup.POST('/api/get_transaction', { body: { reference } });
  if (found.error !== undefined) throw new Error(found.error.status.message);
  const state: 'requested' | 'completed' | 'cancelled' = found.data.data.transaction.state;
  return { httpStatus: sent.response.status, status: sent.data.status, reference, state };
}
`;

const heyApiCaller = `import { createClient } from './hey-api/client/index.js';
import { getTransaction, sendAgentFloat } from './hey-api/sdk.gen.js';

export async function sendFloat(baseUrl: string, token: string) {
  const client = createClient({ baseUrl, auth: token });
  const sent = await sendAgentFloat({
    client,
    headers: { 'Idempotency-Key': 'hey-api-float-1' },
    body: { mobile: '254722000124', amount: '500', agent_number: '123456', store_number: '654321' },
  });
  if (sent.error !== undefined) throw new Error(\`\${sent.error.status.code} \${sent.error.status.message}\`);
  const { reference } = sent.data.data.transaction;
  const found = await getTransaction({ client, body: { reference } });
  if (found.error !== undefined) throw new Error(found.error.status.message);
  const state: 'requested' | 'completed' | 'cancelled' = found.data.data.transaction.state;
  return { httpStatus: sent.response.status, status: sent.data.status, reference, state };
}
`;

// Strict, as a team's project would be. Not exactOptionalPropertyTypes: @hey-api's bundled client code
// itself does not compile under it, whatever the document says.
const tsconfig = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    types: [],
    outDir: 'dist',
  },
  include: ['*.ts', 'openapi-typescript', 'hey-api'],
};

describe('tools given the served OpenAPI document', () => {
  let store: Store;
  let service: TestService;
  let workDir: string;
  let documentPath: string;

  beforeAll(async () => {
    if (stores === undefined) throw new Error('Expected a test store.');
    store = await stores.open();
    service = await startTestService(store);
    const cache = join(serverRoot, 'node_modules', '.cache');
    await mkdir(cache, { recursive: true });
    workDir = await mkdtemp(join(cache, 'openapi-clients-'));
    documentPath = join(workDir, 'openapi.json');
    await writeFile(documentPath, await (await fetch(`${service.url}/openapi.json`)).text());
  });

  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
    await service.stop();
    if (stores !== undefined) await stores.close(store);
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        require.resolve('@redocly/cli/bin/cli.js'),
        'lint',
        '--extends',
        'recommended',
        '--format',
        'json',
        documentPath,
      ],
      // Redocly sends telemetry and checks for updates unless told not to; this machine has no internet.
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        timeout: 60_000,
      },
    ).catch((error: unknown) => error as { stdout: string });
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map(
      (problem) => `${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer ?? ''})`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('generates clients with openapi-typescript and @hey-api/openapi-ts that compile and send a float', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n });
    await mkdir(join(workDir, 'openapi-typescript'));
    await writeFile(
      join(workDir, 'openapi-typescript', 'schema.ts'),
      astToString(await openapiTS(pathToFileURL(documentPath))),
    );
    await generateHeyApiClient({
      input: documentPath,
      output: { path: join(workDir, 'hey-api'), module: { extension: '.js' } },
      plugins: ['@hey-api/client-fetch', '@hey-api/sdk', '@hey-api/typescript'],
      logs: { level: 'silent' },
    });
    await writeFile(join(workDir, 'openapi-fetch-caller.ts'), openapiFetchCaller);
    await writeFile(join(workDir, 'hey-api-caller.ts'), heyApiCaller);
    await writeFile(join(workDir, 'tsconfig.json'), JSON.stringify(tsconfig));
    await writeFile(join(workDir, 'package.json'), JSON.stringify({ type: 'module' }));

    const compiled = await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', workDir], {
      timeout: 120_000,
    }).catch((error: unknown) => error as { stdout: string; code: number });
    expect(compiled.stdout).toBe('');

    for (const caller of ['openapi-fetch-caller', 'hey-api-caller']) {
      const { sendFloat } = (await import(pathToFileURL(join(workDir, 'dist', `${caller}.js`)).href)) as {
        sendFloat: (baseUrl: string, token: string) => Promise<FloatSent>;
      };
      const sent = await sendFloat(service.url, token);
      expect(sent, caller).toMatchObject({
        httpStatus: 200,
        status: { type: 'SUCCESS', code: '0000', message: 'Agent float requested' },
        state: 'requested',
      });
      expect(sent.reference, caller).toMatch(/^TX/);
    }
  });
});
