import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, serviceStoreOptionsOf, storeOptionsOf } from './config.js';

function problemsOf(environment: Record<string, string>): readonly string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the service configuration', () => {
  it('has working defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      workerPort: 8081,
      databaseUrl: undefined,
      dataDir: './.topup',
      mode: 'sandbox',
      timeZone: 'Africa/Nairobi',
      amounts: { airtime: { min: 10, max: 10_000 }, float: { min: 100, max: 1_000_000 } },
      transactionTimeoutSeconds: 600,
    });
    expect(config.callbackRetryScheduleSeconds).toEqual([0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000]);
    expect(config.callbackSlowDownFloorSeconds).toBe(60);
    expect(config.idempotencyPurgeIntervalSeconds).toBe(300);
  });

  it('keeps the 60 s slow-down floor with a short retry schedule unless it is set too', () => {
    expect(loadConfig({ CALLBACK_RETRY_SCHEDULE: '0,1,2' }).callbackSlowDownFloorSeconds).toBe(60);
    expect(
      loadConfig({ CALLBACK_RETRY_SCHEDULE: '0,1,2', CALLBACK_SLOW_DOWN_FLOOR_SECONDS: '0.5' })
        .callbackSlowDownFloorSeconds,
    ).toBe(0.5);
    expect(problemsOf({ CALLBACK_SLOW_DOWN_FLOOR_SECONDS: '-1' })[0]).toMatch(
      /^CALLBACK_SLOW_DOWN_FLOOR_SECONDS: .*received "-1"/,
    );
  });

  it('names every bad variable with what was received', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      TZ: 'Mars/Olympus',
      DATABASE_URL: 'mysql://x',
      CALLBACK_RETRY_SCHEDULE: '1,,2',
    });
    expect(problems).toHaveLength(4);
    expect(problems.find((p) => p.startsWith('PORT:'))).toContain('received "eighty"');
    expect(problems.find((p) => p.startsWith('TZ:'))).toContain('IANA time zone');
    expect(problems.find((p) => p.startsWith('CALLBACK_RETRY_SCHEDULE:'))).toContain(
      'seconds separated by commas',
    );
    expect(problems.some((p) => p.startsWith('DATABASE_URL:'))).toBe(true);
  });

  it('resolves a relative data folder against the folder pnpm was started in, and leaves others alone', () => {
    expect(loadConfig({ INIT_CWD: '/srv/topup' }).dataDir).toBe('/srv/topup/.topup');
    expect(loadConfig({ INIT_CWD: '/srv/topup', TOPUP_DATA_DIR: 'data/store' }).dataDir).toBe(
      '/srv/topup/data/store',
    );
    expect(loadConfig({ INIT_CWD: '/srv/topup', TOPUP_DATA_DIR: '/var/lib/topup' }).dataDir).toBe(
      '/var/lib/topup',
    );
    expect(loadConfig({ INIT_CWD: '/srv/topup', TOPUP_DATA_DIR: 'memory://' }).dataDir).toBe('memory://');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(8080);
  });

  it('refuses live mode while no real providers are configured, saying why', () => {
    expect(problemsOf({ TOPUP_MODE: 'live' })[0]).toContain(
      'live mode needs real money-network and carrier providers',
    );
  });

  it('gives the service short PostgreSQL limits and leaves the operator’s commands the store’s own', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://topup@db.internal:5432/topup' });
    expect(config.storeTimeouts).toEqual({ connectMs: 2_000, queryMs: 3_000, requestDeadlineMs: 4_000 });
    expect(serviceStoreOptionsOf(config)).toEqual({
      databaseUrl: 'postgres://topup@db.internal:5432/topup',
      connectionTimeoutMs: 2_000,
      queryTimeoutMs: 3_000,
    });
    expect(storeOptionsOf(config)).toEqual({ databaseUrl: 'postgres://topup@db.internal:5432/topup' });
    const tuned = loadConfig({
      STORE_CONNECT_TIMEOUT_MS: '500',
      STORE_QUERY_TIMEOUT_MS: '1500',
      STORE_DEADLINE_MS: '2500',
    });
    expect(tuned.storeTimeouts).toEqual({ connectMs: 500, queryMs: 1_500, requestDeadlineMs: 2_500 });
    expect(serviceStoreOptionsOf(tuned)).toEqual({ dataDir: './.topup' });
    expect(problemsOf({ STORE_DEADLINE_MS: '0' })[0]).toMatch(/^STORE_DEADLINE_MS: .*received "0"/);
  });

  it('refuses amount bounds that cross', () => {
    expect(problemsOf({ AIRTIME_MIN_AMOUNT: '500', AIRTIME_MAX_AMOUNT: '100' })).toEqual([
      'AIRTIME_MIN_AMOUNT: must not exceed AIRTIME_MAX_AMOUNT',
    ]);
  });
});
