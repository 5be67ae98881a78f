// Service configuration from environment variables, validated once at start. Each bad value is reported
// with the variable's name, what was expected and what was received.

import { isAbsolute, resolve } from 'node:path';
import type { OpenStoreOptions } from '@topup/ledger';
import { z } from 'zod';
import { liveProviders } from './live-providers.js';
import {
  checkProviderVariables,
  darajaConfigOf,
  darajaEnvironment,
  type DarajaConfig,
} from './daraja-config.js';
import {
  africasTalkingConfigOf,
  africasTalkingEnvironment,
  checkAfricasTalkingVariables,
  type AfricasTalkingConfig,
} from './africastalking-config.js';
import { certificatesAt, trustedCertificatesOf } from './callback-ca-file.js';
import { providerMap } from './provider-map.js';
import { sourceList } from './source-ranges.js';

const integer = (min: number, max: number) => {
  const error = `expected a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const timeZone = z.string().refine(
  (zone) => {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'expected an IANA time zone such as Africa/Nairobi' },
);

// One entry per attempt: the first attempt is always immediate, so the first entry must say 0 rather
// than promise a delay that is never made; each later entry is the delay before the next retry.
const retrySchedule = z
  .string()
  .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'expected seconds separated by commas, e.g. 0,5,300')
  .transform((text) => text.split(',').map(Number))
  .refine((schedule) => schedule[0] === 0, {
    error:
      'expected 0 first: the first attempt is always immediate, and each later value is the delay ' +
      'before the next retry, e.g. 0,5,300',
  });

// How many proxies in front of the server append to X-Forwarded-For: `true` is one, `false` none.
const trustedProxies = z
  .string()
  .regex(/^(true|false|10|[0-9])$/, {
    error: 'expected false, true (one proxy) or the number of proxies in front of the server, 0 to 10',
  })
  .transform((text) => (text === 'true' ? 1 : text === 'false' ? 0 : Number(text)));

// A switch: exactly `true` or `false`, so a typo is refused rather than read as one or the other.
const flag = z
  .enum(['true', 'false'], { error: 'expected true or false' })
  .transform((text) => text === 'true');

const environmentSchema = z.object({
  PORT: integer(0, 65_535).default(8080),
  WORKER_PORT: integer(0, 65_535).default(8081),
  HOST: z.string().min(1).default('127.0.0.1'),
  TRUST_PROXY: trustedProxies.default(0),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'expected a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a schema name of lower-case letters, digits and underscores')
    .optional(),
  TOPUP_DATA_DIR: z.string().min(1).default('./.topup'),
  // Set by pnpm to the folder it was started in; package scripts themselves run in the package's folder.
  INIT_CWD: z.string().optional(),
  TOPUP_MODE: z.enum(['sandbox', 'live']).default('sandbox'),
  TZ: timeZone.default('Africa/Nairobi'),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'expected a redis:// or rediss:// URL' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: integer(1_024, 10_485_760).default(1_048_576),
  RATE_LIMIT_PER_SECOND: integer(1, 1_000_000).default(200),
  RATE_LIMIT_BURST: integer(1, 1_000_000).default(400),
  AIRTIME_MIN_AMOUNT: integer(1, 1_000_000_000).default(10),
  AIRTIME_MAX_AMOUNT: integer(1, 1_000_000_000).default(10_000),
  FLOAT_MIN_AMOUNT: integer(1, 1_000_000_000).default(100),
  FLOAT_MAX_AMOUNT: integer(1, 1_000_000_000).default(1_000_000),
  PROVIDER_TIMEOUT_MS: integer(1, 120_000).default(10_000),
  SIMULATOR_DELAY_MS: integer(0, 3_600_000).default(1_500),
  TRANSACTION_TIMEOUT: integer(1, 86_400 * 7).default(600),
  PROVIDER_WEBHOOK_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32,256}$/, 'expected 32 to 256 letters, digits, _ or -')
    .optional(),
  PROVIDER_WEBHOOK_SOURCES: sourceList.optional(),
  // A provider calls from a handful of addresses, two or three calls per purchase, and Daraja does not call
  // again after a refusal (the worker must then ask): a limit a busy merchant's real traffic can reach
  // turns pushed results into queries. `pnpm bench`'s live case refused a third of them at 100.
  PROVIDER_WEBHOOK_RATE_LIMIT: integer(1, 1_000_000).default(1_000),
  PROVIDER_INBOX_LIMIT: integer(1, 100_000_000).default(100_000),
  PROVIDERS: providerMap.optional(),
  ...darajaEnvironment,
  ...africasTalkingEnvironment,
  PROVIDER_QUERY_AFTER_SECONDS: integer(1, 86_400).default(60),
  RECONCILIATION_WINDOW_SECONDS: integer(1, 86_400 * 30).default(86_400),
  CALLBACK_RETRY_SCHEDULE: retrySchedule.default([0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000]),
  CALLBACK_SLOW_DOWN_FLOOR_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
  CALLBACK_SECRET_GRACE_SECONDS: integer(0, 86_400 * 30).default(86_400),
  CALLBACK_ALLOW_PRIVATE_NETWORKS: flag.default(false),
  CALLBACK_CA_FILE: z.string().min(1).optional(),
  CALLBACK_MAX_ENDPOINTS: integer(1, 1_000).default(10),
  IDEMPOTENCY_WAIT_MS: integer(0, 60_000).default(10_000),
  IDEMPOTENCY_PURGE_INTERVAL_SECONDS: integer(1, 86_400).default(300),
  AUTH_CACHE_MS: integer(0, 60_000).default(2_000),
  HEADERS_TIMEOUT_MS: integer(100, 600_000).default(10_000),
  REQUEST_TIMEOUT_MS: integer(100, 3_600_000).default(30_000),
  STORE_CONNECT_TIMEOUT_MS: integer(100, 60_000).default(2_000),
  STORE_QUERY_TIMEOUT_MS: integer(100, 600_000).default(3_000),
  STORE_DEADLINE_MS: integer(100, 600_000).default(4_000),
  AUTH_FAILURE_LIMIT: integer(1, 1_000_000).default(20),
  AUTH_FAILURE_WINDOW_SECONDS: integer(1, 86_400).default(60),
  FUNDING_APPROVAL_THRESHOLD: integer(0, 1_000_000_000_000).default(1_000_000),
  CONSOLE_URL: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }).optional(),
  CONSOLE_SESSION_IDLE_MINUTES: integer(1, 1_440).default(30),
  CONSOLE_SESSION_MAX_HOURS: integer(1, 168).default(12),
});

/** Pairs of variables where the first must not exceed the second. */
const ordered = [
  ['AIRTIME_MIN_AMOUNT', 'AIRTIME_MAX_AMOUNT'],
  ['FLOAT_MIN_AMOUNT', 'FLOAT_MAX_AMOUNT'],
  ['HEADERS_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS'],
] as const;

// Checks that span variables run even when some variable is bad (`when`), so one start reports every
// problem; a check whose own variables did not parse says nothing, since those are reported already.
const checkedEnvironmentSchema = (liveProviders: readonly string[]) =>
  environmentSchema.superRefine(
    (parsed, ctx) => {
      const env: Readonly<Record<string, unknown>> = parsed;
      for (const [low, high] of ordered) {
        const [lowValue, highValue] = [env[low], env[high]];
        if (typeof lowValue === 'number' && typeof highValue === 'number' && lowValue > highValue) {
          ctx.addIssue({
            code: 'custom',
            path: [low],
            message: `must not exceed ${high}, which is ${highValue}`,
          });
        }
      }
      // The timeout must not act on a transaction whose request may still be submitting it: the provider
      // would not know it yet. A request lasts at most its store deadline plus the provider timeout; twice
      // that leaves room for the worker's polling and clocks.
      const { TRANSACTION_TIMEOUT: timeout, PROVIDER_TIMEOUT_MS: provider, STORE_DEADLINE_MS: store } = env;
      if (typeof timeout === 'number' && typeof provider === 'number' && typeof store === 'number') {
        const shortestMs = 2 * (provider + store);
        if (timeout * 1000 < shortestMs) {
          ctx.addIssue({
            code: 'custom',
            path: ['TRANSACTION_TIMEOUT'],
            message:
              `expected at least ${String(Math.ceil(shortestMs / 1000))} seconds, twice the longest a request ` +
              `can take (PROVIDER_TIMEOUT_MS ${String(provider)} + STORE_DEADLINE_MS ${String(store)})`,
          });
        }
      }
      if (parsed.CALLBACK_CA_FILE !== undefined) {
        const read = certificatesAt(parsed.CALLBACK_CA_FILE);
        if ('problem' in read)
          ctx.addIssue({ code: 'custom', path: ['CALLBACK_CA_FILE'], message: read.problem });
      }
      checkProviders(parsed, liveProviders, ctx);
      if (parsed.TOPUP_MODE === 'live' && parsed.PROVIDERS instanceof Map) {
        checkProviderVariables(parsed, parsed.PROVIDERS, ctx);
        checkAfricasTalkingVariables(parsed, parsed.PROVIDERS, ctx);
      }
    },
    { when: () => true },
  );

/**
 * Live mode moves money only through providers named in PROVIDERS, each one this build has; sandbox mode
 * routes every network to the simulator, so a PROVIDERS there would be silently ignored and is refused.
 */
function checkProviders(
  // PROVIDERS is still the text written when it did not read (checks across variables run regardless).
  env: { TOPUP_MODE?: string | undefined; PROVIDERS?: ReadonlyMap<string, string> | string | undefined },
  liveProviders: readonly string[],
  ctx: z.core.$RefinementCtx,
): void {
  const path = ['PROVIDERS'];
  if (env.TOPUP_MODE === 'sandbox' && env.PROVIDERS !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path,
      message:
        'expected nothing in sandbox mode, which routes every network to the simulator; set TOPUP_MODE=live to use it',
    });
  }
  if (env.TOPUP_MODE !== 'live') return;
  if (env.PROVIDERS === undefined) {
    ctx.addIssue({
      code: 'custom',
      path,
      message:
        'expected network=provider pairs such as MoneyNetA=daraja,CarrierA=africastalking: live mode ' +
        'moves money only through the providers named there (or run TOPUP_MODE=sandbox)',
    });
    return;
  }
  // What did not read is reported already.
  if (typeof env.PROVIDERS === 'string') return;
  const available = liveProviders.length === 0 ? 'none' : liveProviders.join(', ');
  for (const [network, provider] of env.PROVIDERS) {
    if (liveProviders.includes(provider)) continue;
    ctx.addIssue({
      code: 'custom',
      path,
      message: `expected a live provider this build has (${available}) for ${network}, received ${JSON.stringify(provider)}`,
    });
  }
}

export type Environment = z.infer<typeof environmentSchema>;

export interface AmountBounds {
  readonly min: number;
  readonly max: number;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  /**
   * Proxies in front of the server (0: none, the socket's address is the client's). With one or more, the
   * client's address is read from X-Forwarded-For, as the outermost of them saw it.
   */
  readonly trustedProxies: number;
  /** `pnpm start:worker`'s listener for /healthz and /metrics, on `host` (0: any free port). */
  readonly workerPort: number;
  readonly databaseUrl: string | undefined;
  /** PostgreSQL schema to work in (created when missing); unset, the server's search_path. */
  readonly databaseSchema: string | undefined;
  readonly dataDir: string;
  readonly mode: 'sandbox' | 'live';
  readonly timeZone: string;
  readonly redisUrl: string | undefined;
  readonly logLevel: Environment['LOG_LEVEL'];
  readonly bodyLimitBytes: number;
  readonly rateLimit: { readonly perSecond: number; readonly burst: number };
  readonly amounts: { readonly airtime: AmountBounds; readonly float: AmountBounds };
  readonly providerTimeoutMs: number;
  readonly simulatorDelayMs: number;
  readonly transactionTimeoutSeconds: number;
  /** The secret path segment of the provider webhook routes; unset, they answer 404. */
  readonly providerWebhookToken: string | undefined;
  /** Who may call the provider webhook routes (addresses or CIDR ranges); empty, anyone with the token. */
  readonly providerWebhookSources: readonly string[];
  /** Calls per second each source address may make to the provider webhook routes, in bursts of twice that. */
  readonly providerWebhookRateLimit: { readonly perSecond: number; readonly burst: number };
  /** Calls a provider may have stored and not yet applied; past it, its calls are answered 429. */
  readonly providerInboxLimit: number;
  /** Live mode's network token to provider id (PROVIDERS); empty in sandbox mode. */
  readonly providers: ReadonlyMap<string, string>;
  /** Where providers call back to (PUBLIC_BASE_URL, no trailing slash); set whenever PROVIDERS is. */
  readonly publicBaseUrl: string | undefined;
  /** M-Pesa through Daraja, when PROVIDERS names daraja. */
  readonly daraja: DarajaConfig | undefined;
  /** Africa's Talking airtime, when PROVIDERS names africastalking. */
  readonly africasTalking: AfricasTalkingConfig | undefined;
  /**
   * A provider's own list of who may call its webhook routes (DARAJA_ALLOWED_SOURCES), used for its routes
   * instead of `providerWebhookSources`.
   */
  readonly providerSources: ReadonlyMap<string, readonly string[]>;
  /** A transaction with no result this long after it was made is asked about, then again with backoff. */
  readonly providerQueryAfterSeconds: number;
  /** How long past the transaction timeout a leg may stay unsettled before it waits for an operator. */
  readonly reconciliationWindowSeconds: number;
  readonly callbackRetryScheduleSeconds: readonly number[];
  /** The least wait before retrying a callback after a 429 or a timeout, whatever the schedule. */
  readonly callbackSlowDownFloorSeconds: number;
  readonly callbackSecretGraceSeconds: number;
  /** Callbacks may reach private networks and loopback (CALLBACK_ALLOW_PRIVATE_NETWORKS). */
  readonly callbackAllowPrivateNetworks: boolean;
  /** PEM certificates trusted for https callbacks besides Node's own list, read from CALLBACK_CA_FILE. */
  readonly callbackTrustedCertificates: readonly string[];
  /** Callback endpoints an account may have (removed ones do not count). */
  readonly callbackMaxEndpoints: number;
  readonly idempotencyWaitMs: number;
  /** How often the worker deletes idempotency keys past their 24-hour window. */
  readonly idempotencyPurgeIntervalSeconds: number;
  /** How long a valid token's authentication is reused: another process's revocation or suspension applies within it. */
  readonly authCacheMs: number;
  /** Slow clients are cut off: headers must arrive within `headersMs`, the whole request within `requestMs`. */
  readonly httpTimeouts: { readonly headersMs: number; readonly requestMs: number };
  /**
   * How long the server and worker wait on PostgreSQL: for a connection (`connectMs`), for one statement
   * (`queryMs`: cancelled by the database then, given up by the client a second later), and, in all, for
   * one API request (`requestDeadlineMs`), after which the request is answered 9000/503. The operator's
   * CLI and migrations keep the store's longer defaults.
   */
  readonly storeTimeouts: {
    readonly connectMs: number;
    readonly queryMs: number;
    readonly requestDeadlineMs: number;
  };
  /** Failed authentications allowed per client address and window before it is refused with 429. */
  readonly authFailureLimit: { readonly failures: number; readonly windowSeconds: number };
  /** The console: where its sign-in links point, when funding needs a second admin, session lifetimes. */
  readonly console: {
    /** The server's address as users reach it (CONSOLE_URL, else PUBLIC_BASE_URL, else HOST and PORT). */
    readonly baseUrl: string;
    /** Funding above this many shillings waits for a second admin's approval. */
    readonly fundingApprovalThreshold: number;
    readonly sessionIdleMs: number;
    readonly sessionMaxMs: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A value as a problem may show it: a password in a URL (`//user:password@`) is never printed. */
function shown(value: string | undefined): string {
  return value === undefined ? 'nothing' : JSON.stringify(value.replace(/(\/\/[^/@:]*:)[^/@]*@/, '$1***@'));
}

/** Variables whose values are credentials: a problem with one never prints it. */
const secretVariable = /(SECRET|PASSWORD|_KEY|TOKEN|PASSKEY)$/;

function describe(environment: Record<string, string | undefined>, issue: z.core.$ZodIssue): string {
  const name = issue.path.join('.');
  const value = environment[name];
  const received = secretVariable.test(name) && value !== undefined ? 'a value not shown' : shown(value);
  return `${name}: ${issue.message} (received ${received})`;
}

export interface LoadConfigOptions {
  /** The ids PROVIDERS may name: the live providers this build has (tests add providers of their own). */
  readonly liveProviders?: readonly string[];
}

/** Reads and validates the configuration; throws a ConfigError listing every bad variable. */
export function loadConfig(
  environment: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): Config {
  // Empty variables count as unset, as a shell's `VAR=` usually means.
  const present = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== ''));
  const parsed = checkedEnvironmentSchema([...(options.liveProviders ?? liveProviders.keys())]).safeParse(
    present,
  );
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => describe(present, issue)));
  const env = parsed.data;
  const daraja = env.TOPUP_MODE === 'live' ? darajaConfigOf(env, env.PROVIDERS ?? new Map()) : undefined;
  return {
    port: env.PORT,
    host: env.HOST,
    trustedProxies: env.TRUST_PROXY,
    workerPort: env.WORKER_PORT,
    databaseUrl: env.DATABASE_URL,
    databaseSchema: env.DATABASE_SCHEMA,
    dataDir: dataDirOf(env.TOPUP_DATA_DIR, env.INIT_CWD),
    mode: env.TOPUP_MODE,
    timeZone: env.TZ,
    redisUrl: env.REDIS_URL,
    logLevel: env.LOG_LEVEL,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    rateLimit: { perSecond: env.RATE_LIMIT_PER_SECOND, burst: env.RATE_LIMIT_BURST },
    amounts: {
      airtime: { min: env.AIRTIME_MIN_AMOUNT, max: env.AIRTIME_MAX_AMOUNT },
      float: { min: env.FLOAT_MIN_AMOUNT, max: env.FLOAT_MAX_AMOUNT },
    },
    providerTimeoutMs: env.PROVIDER_TIMEOUT_MS,
    simulatorDelayMs: env.SIMULATOR_DELAY_MS,
    transactionTimeoutSeconds: env.TRANSACTION_TIMEOUT,
    providerWebhookToken: env.PROVIDER_WEBHOOK_TOKEN,
    providerWebhookSources: env.PROVIDER_WEBHOOK_SOURCES ?? [],
    providerWebhookRateLimit: {
      perSecond: env.PROVIDER_WEBHOOK_RATE_LIMIT,
      burst: 2 * env.PROVIDER_WEBHOOK_RATE_LIMIT,
    },
    providerInboxLimit: env.PROVIDER_INBOX_LIMIT,
    providers: env.PROVIDERS ?? new Map(),
    publicBaseUrl: env.PUBLIC_BASE_URL,
    daraja,
    africasTalking:
      env.TOPUP_MODE === 'live' ? africasTalkingConfigOf(env, env.PROVIDERS ?? new Map()) : undefined,
    providerSources: new Map(
      daraja === undefined || daraja.allowedSources.length === 0 ? [] : [['daraja', daraja.allowedSources]],
    ),
    providerQueryAfterSeconds: env.PROVIDER_QUERY_AFTER_SECONDS,
    reconciliationWindowSeconds: env.RECONCILIATION_WINDOW_SECONDS,
    callbackRetryScheduleSeconds: env.CALLBACK_RETRY_SCHEDULE,
    callbackSlowDownFloorSeconds: env.CALLBACK_SLOW_DOWN_FLOOR_SECONDS,
    callbackSecretGraceSeconds: env.CALLBACK_SECRET_GRACE_SECONDS,
    callbackAllowPrivateNetworks: env.CALLBACK_ALLOW_PRIVATE_NETWORKS,
    callbackTrustedCertificates: trustedCertificatesOf(env.CALLBACK_CA_FILE),
    callbackMaxEndpoints: env.CALLBACK_MAX_ENDPOINTS,
    idempotencyWaitMs: env.IDEMPOTENCY_WAIT_MS,
    idempotencyPurgeIntervalSeconds: env.IDEMPOTENCY_PURGE_INTERVAL_SECONDS,
    authCacheMs: env.AUTH_CACHE_MS,
    httpTimeouts: { headersMs: env.HEADERS_TIMEOUT_MS, requestMs: env.REQUEST_TIMEOUT_MS },
    storeTimeouts: {
      connectMs: env.STORE_CONNECT_TIMEOUT_MS,
      queryMs: env.STORE_QUERY_TIMEOUT_MS,
      requestDeadlineMs: env.STORE_DEADLINE_MS,
    },
    authFailureLimit: { failures: env.AUTH_FAILURE_LIMIT, windowSeconds: env.AUTH_FAILURE_WINDOW_SECONDS },
    console: {
      baseUrl: (
        env.CONSOLE_URL ??
        env.PUBLIC_BASE_URL ??
        `http://${hostForUrl(env.HOST)}:${env.PORT}`
      ).replace(/\/+$/, ''),
      fundingApprovalThreshold: env.FUNDING_APPROVAL_THRESHOLD,
      sessionIdleMs: env.CONSOLE_SESSION_IDLE_MINUTES * 60_000,
      sessionMaxMs: env.CONSOLE_SESSION_MAX_HOURS * 3_600_000,
    },
  };
}

/** A listening address as a URL host: IPv6 in brackets, and "any address" as loopback. */
function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * A relative data folder is taken relative to where the operator ran pnpm (INIT_CWD), not to the package
 * folder pnpm runs the script in: `pnpm start` at the root keeps its data in the root's `.topup`, and the
 * CLI run the same way finds it there. Without pnpm, the working directory decides as usual.
 */
function dataDirOf(dataDir: string, initCwd: string | undefined): string {
  if (initCwd === undefined || isAbsolute(dataDir) || dataDir.includes('://')) return dataDir;
  return resolve(initCwd, dataDir);
}

/**
 * Where the configuration says the store is: PostgreSQL (in DATABASE_SCHEMA, if set) or embedded PGlite,
 * with the store's own time limits, long enough for the operator's commands and migrations.
 */
export function storeOptionsOf(config: Config): OpenStoreOptions {
  if (config.databaseUrl === undefined) return { dataDir: config.dataDir };
  return {
    databaseUrl: config.databaseUrl,
    ...(config.databaseSchema === undefined ? {} : { schema: config.databaseSchema }),
  };
}

/** The same store with the service's short time limits, so a silent database fails requests quickly. */
export function serviceStoreOptionsOf(config: Config): OpenStoreOptions {
  const options = storeOptionsOf(config);
  if (options.databaseUrl === undefined) return options;
  return {
    ...options,
    connectionTimeoutMs: config.storeTimeouts.connectMs,
    queryTimeoutMs: config.storeTimeouts.queryMs,
  };
}
