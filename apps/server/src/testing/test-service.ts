// An in-process service for tests: the real app, assembled exactly as `openCore` assembles it, on a real
// loopback port over a given store, optionally with the worker, plus helpers to make a funded caller.
// Used by the server's, the client's and the reliability tests, on PGlite and on PostgreSQL alike.

import type { Account, AccountProfile, Ledger, Store } from '@topup/ledger';
import { startWorker } from '@topup/worker';
import type { Provider } from '@topup/providers';
import type { WorkerSettings } from '@topup/worker';
import { pino } from 'pino';
import type { Logger } from 'pino';
import {
  assembleCore,
  loadConfig,
  migrateService,
  withWorkerMetrics,
  workerSettingsOf,
} from '@topup/service';
import type { Config, LiveProviderFactory } from '@topup/service';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { startHttpServer } from '../runtime.js';
import type { RunningServer } from '../runtime.js';

export interface TestServiceOptions {
  /** Environment overrides, as the service would read them (e.g. `{ SIMULATOR_DELAY_MS: '0' }`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Also run the worker in this process. */
  readonly worker?: boolean;
  /** Worker settings the configuration does not reach (e.g. a short `deliveryTimeoutMs`). */
  readonly workerSettings?: Partial<WorkerSettings>;
  /** Replace the sandbox simulator (e.g. with a provider that fails). */
  readonly provider?: (store: Store) => Provider;
  /** Live providers PROVIDERS may name, by id (with `TOPUP_MODE: 'live'` in `env`). */
  readonly liveProviders?: ReadonlyMap<string, LiveProviderFactory>;
  readonly logger?: Logger;
  /** Replace the configured rate limiter (e.g. with one whose clock stands still). */
  readonly rateLimiter?: RateLimiter;
  /** The console's clock (sessions, links, audit), when not the real one. */
  readonly clock?: () => Date;
  /** The console's built files, when not the repository's apps/console/dist. */
  readonly consoleBuildDir?: string;
}

export interface TestService {
  readonly url: string;
  readonly config: Config;
  readonly ledger: Ledger;
  readonly store: Store;
  readonly http: RunningServer;
  /** Creates an active account with a fresh test token, optionally funded (minor units). */
  createCaller(
    funding?: { float?: bigint; airtime?: bigint },
    profile?: AccountProfile,
  ): Promise<{ account: Account; token: string }>;
  /** POSTs a body to an API function. */
  call(
    name: string,
    options?: {
      token?: string;
      body?: string;
      json?: unknown;
      headers?: Record<string, string>;
      method?: string;
    },
  ): Promise<Response>;
  stop(): Promise<void>;
}

const testEnvironment = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  SIMULATOR_DELAY_MS: '50',
  PROVIDER_TIMEOUT_MS: '2000',
  CALLBACK_RETRY_SCHEDULE: '0,0.2,0.5,1',
  // Lowered from 60 s along with the schedule, so a test receiver that times out is retried in seconds.
  CALLBACK_SLOW_DOWN_FLOOR_SECONDS: '1',
  IDEMPOTENCY_WAIT_MS: '5000',
};

export async function startTestService(store: Store, options: TestServiceOptions = {}): Promise<TestService> {
  const config = loadConfig(
    { ...testEnvironment, ...options.env },
    options.liveProviders === undefined ? {} : { liveProviders: [...options.liveProviders.keys()] },
  );
  const logger = options.logger ?? pino({ level: 'silent' });
  // As openCore does: the providers' tables too, which a store opened by the ledger alone lacks.
  await migrateService(store);
  const core = assembleCore(config, store, {
    logger,
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.liveProviders === undefined ? {} : { liveProviders: options.liveProviders }),
  });
  const { ledger } = core;
  const worker =
    options.worker === true
      ? startWorker({
          ...core,
          settings: { ...workerSettingsOf(config, { apiInProcess: true }), ...options.workerSettings },
        })
      : undefined;
  // As `pnpm start` does: with the worker in the process, /metrics shows its metrics too.
  const http = await startHttpServer(core, {
    ...(worker === undefined ? {} : { metricsRegistry: withWorkerMetrics(core.metrics, worker.metrics) }),
    ...(options.rateLimiter === undefined ? {} : { rateLimiter: options.rateLimiter }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.consoleBuildDir === undefined ? {} : { consoleBuildDir: options.consoleBuildDir }),
  });
  let callers = 0;
  return {
    url: http.url,
    config,
    ledger,
    store,
    http,
    async createCaller(funding = {}, profile) {
      callers += 1;
      const account = await ledger.createAccount(
        profile ?? {
          name: `Caller ${callers}`,
          mobile: '254700000100',
          email: `caller${callers}@example.com`,
          agent_name: `Agent ${callers}`,
          agent_number: '100100',
          store_number: '200200',
        },
      );
      if (funding.float !== undefined) await ledger.fund(account.id, 'float', funding.float);
      if (funding.airtime !== undefined) await ledger.fund(account.id, 'airtime', funding.airtime);
      const { token } = await ledger.issueToken(account.id, config.mode === 'live' ? 'live' : 'test');
      return { account, token };
    },
    call(name, request = {}) {
      const headers: Record<string, string> = { ...request.headers };
      if (request.token !== undefined) headers.Authorization = `Bearer ${request.token}`;
      let body = request.body;
      if (request.json !== undefined) {
        body = JSON.stringify(request.json);
        headers['Content-Type'] ??= 'application/json';
      }
      return fetch(`${http.url}/api/${name}`, {
        method: request.method ?? 'POST',
        headers,
        ...(body === undefined ? {} : { body }),
      });
    },
    async stop() {
      await http.close();
      await worker?.stop();
      // The store is the test's own (it may still inspect it); only the ledger is this service's.
      await ledger.close();
    },
  };
}
