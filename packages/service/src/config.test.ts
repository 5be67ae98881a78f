import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
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

/** What every live mode needs besides PROVIDERS: where providers call back. */
const callsBack = {
  PUBLIC_BASE_URL: 'https://topup.example',
  PROVIDER_WEBHOOK_TOKEN: 'wh_0123456789abcdef0123456789abcdef',
};

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

  it('reads the client address from the socket unless TRUST_PROXY names proxies in front', () => {
    expect(loadConfig({}).trustedProxies).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustedProxies).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustedProxies).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustedProxies).toBe(2);
    expect(problemsOf({ TRUST_PROXY: 'yes' })).toEqual([
      'TRUST_PROXY: expected false, true (one proxy) or the number of proxies in front of the server, 0 to 10 (received "yes")',
    ]);
  });

  it('refuses a retry schedule whose first delay is not 0, since the first attempt is always immediate', () => {
    expect(loadConfig({ CALLBACK_RETRY_SCHEDULE: '0,10,60' }).callbackRetryScheduleSeconds).toEqual([
      0, 10, 60,
    ]);
    expect(problemsOf({ CALLBACK_RETRY_SCHEDULE: '5,300' })).toEqual([
      'CALLBACK_RETRY_SCHEDULE: expected 0 first: the first attempt is always immediate, and each later ' +
        'value is the delay before the next retry, e.g. 0,5,300 (received "5,300")',
    ]);
  });

  it('reads the certificates CALLBACK_CA_FILE names, and refuses a file that holds none', () => {
    const bundle = fileURLToPath(
      new URL('../../providers/src/fakes/fixtures/fake-daraja-certificate.pem', import.meta.url),
    );
    const trusted = loadConfig({ CALLBACK_CA_FILE: bundle }).callbackTrustedCertificates;
    expect(trusted).toHaveLength(1);
    expect(trusted[0]).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(loadConfig({}).callbackTrustedCertificates).toEqual([]);
    const notACertificate = fileURLToPath(new URL('./config.ts', import.meta.url));
    expect(problemsOf({ CALLBACK_CA_FILE: notACertificate })).toEqual([
      `CALLBACK_CA_FILE: expected one or more PEM certificates, the file holds none (received ${JSON.stringify(notACertificate)})`,
    ]);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(8080);
  });

  it('refuses live mode with no PROVIDERS, saying what to write', () => {
    expect(problemsOf({ TOPUP_MODE: 'live' })).toEqual([
      'PROVIDERS: expected network=provider pairs such as MoneyNetA=daraja,CarrierA=africastalking: live ' +
        'mode moves money only through the providers named there (or run TOPUP_MODE=sandbox) (received nothing)',
    ]);
  });

  it('refuses a provider this build does not have, naming the ones it has', () => {
    expect(problemsOf({ TOPUP_MODE: 'live', PROVIDERS: 'MoneyNetA=mpesa', ...callsBack })).toEqual([
      'PROVIDERS: expected a live provider this build has (daraja, africastalking) for MoneyNetA, received "mpesa" (received "MoneyNetA=mpesa")',
    ]);
    const problems = (() => {
      try {
        loadConfig(
          { TOPUP_MODE: 'live', PROVIDERS: 'MoneyNetA=mpesa,CarrierA=bank', ...callsBack },
          { liveProviders: ['mpesa'] },
        );
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
      }
      return [];
    })();
    expect(problems).toEqual([
      'PROVIDERS: expected a live provider this build has (mpesa) for CarrierA, received "bank" (received "MoneyNetA=mpesa,CarrierA=bank")',
    ]);
  });

  it('reads PROVIDERS into each network’s provider in live mode', () => {
    const config = loadConfig(
      {
        TOPUP_MODE: 'live',
        PROVIDERS: ' MoneyNetA=mpesa, CarrierA=airtime-hub,CarrierB=airtime-hub',
        ...callsBack,
      },
      { liveProviders: ['mpesa', 'airtime-hub'] },
    );
    expect([...config.providers]).toEqual([
      ['MoneyNetA', 'mpesa'],
      ['CarrierA', 'airtime-hub'],
      ['CarrierB', 'airtime-hub'],
    ]);
    expect(loadConfig({}).providers.size).toBe(0);
  });

  it('refuses PROVIDERS that do not read, each problem named', () => {
    expect(
      problemsOf({ TOPUP_MODE: 'live', PROVIDERS: 'MoneyNetA=mpesa,MoneyNetA=mpesa,NetZ=x,CarrierA' }),
    ).toEqual([
      'PROVIDERS: expected each network once, received MoneyNetA twice (received "MoneyNetA=mpesa,MoneyNetA=mpesa,NetZ=x,CarrierA")',
      'PROVIDERS: expected a network token (MoneyNetA, MoneyNetB, MoneyNetC, MoneyNetD, CarrierA, CarrierB, CarrierC), received "NetZ" (received "MoneyNetA=mpesa,MoneyNetA=mpesa,NetZ=x,CarrierA")',
      'PROVIDERS: expected network=provider pairs such as MoneyNetA=daraja, received "CarrierA" (received "MoneyNetA=mpesa,MoneyNetA=mpesa,NetZ=x,CarrierA")',
    ]);
  });

  it('refuses PROVIDERS in sandbox mode, where the simulator plays every network', () => {
    expect(problemsOf({ PROVIDERS: 'MoneyNetA=daraja' })).toEqual([
      'PROVIDERS: expected nothing in sandbox mode, which routes every network to the simulator; set ' +
        'TOPUP_MODE=live to use it (received "MoneyNetA=daraja")',
    ]);
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
      'AIRTIME_MIN_AMOUNT: must not exceed AIRTIME_MAX_AMOUNT, which is 100 (received "500")',
    ]);
  });

  it('refuses a transaction timeout that could act while a request is still submitting its transaction', () => {
    expect(
      problemsOf({ TRANSACTION_TIMEOUT: '20', PROVIDER_TIMEOUT_MS: '8000', STORE_DEADLINE_MS: '4000' }),
    ).toEqual([
      'TRANSACTION_TIMEOUT: expected at least 24 seconds, twice the longest a request can take ' +
        '(PROVIDER_TIMEOUT_MS 8000 + STORE_DEADLINE_MS 4000) (received "20")',
    ]);
    expect(
      loadConfig({ TRANSACTION_TIMEOUT: '24', PROVIDER_TIMEOUT_MS: '8000', STORE_DEADLINE_MS: '4000' })
        .transactionTimeoutSeconds,
    ).toBe(24);
  });

  it('reports problems between variables in the same pass as problems with single variables', () => {
    expect(
      problemsOf({
        PORT: 'eighty',
        WORKER_PORT: '99999',
        AIRTIME_MIN_AMOUNT: '500',
        AIRTIME_MAX_AMOUNT: '100',
        HEADERS_TIMEOUT_MS: '60000',
        TOPUP_MODE: 'live',
      }),
    ).toEqual([
      'PORT: expected a whole number from 0 to 65535 (received "eighty")',
      'WORKER_PORT: expected a whole number from 0 to 65535 (received "99999")',
      'AIRTIME_MIN_AMOUNT: must not exceed AIRTIME_MAX_AMOUNT, which is 100 (received "500")',
      'HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS, which is 30000 (received "60000")',
      expect.stringMatching(/^PROVIDERS: expected network=provider pairs/),
    ]);
  });

  it('leaves a comparison out when one of its variables is itself bad, since that is reported already', () => {
    expect(problemsOf({ FLOAT_MIN_AMOUNT: 'lots', FLOAT_MAX_AMOUNT: '5' })).toEqual([
      'FLOAT_MIN_AMOUNT: expected a whole number from 1 to 1000000000 (received "lots")',
    ]);
  });

  it('says which URL schemes the store and Redis take, never printing a password', () => {
    expect(
      problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db.internal/topup', REDIS_URL: 'http://x' }),
    ).toEqual([
      'DATABASE_URL: expected a postgres:// or postgresql:// URL (received "mysql://root:***@db.internal/topup")',
      'REDIS_URL: expected a redis:// or rediss:// URL (received "http://x")',
    ]);
    expect(problemsOf({ REDIS_URL: 'redis//:s3cret@cache' })[0]).not.toContain('s3cret');
  });

  it('documents every variable it reads in the README’s configuration list, and no other', async () => {
    const block = async (file: string, opening: string, closing: string) => {
      const source = await readFile(new URL(file, import.meta.url), 'utf8');
      const start = source.indexOf(opening);
      return source.slice(start, source.indexOf(closing, start));
    };
    const schema =
      (await block('config.ts', 'const environmentSchema', '\n});')) +
      (await block('daraja-config.ts', 'export const darajaEnvironment', '\n};')) +
      (await block('africastalking-config.ts', 'export const africasTalkingEnvironment', '\n};'));
    // INIT_CWD is set by pnpm, not by an operator.
    const read = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)]
      .map((match) => match[1])
      .filter((name) => name !== 'INIT_CWD');
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Configuration'));
    const documented = [...section.matchAll(/^- `([A-Z][A-Z0-9_]+)` \(default /gm)].map((match) => match[1]);
    expect(read.length).toBeGreaterThan(30);
    expect([...documented].sort()).toEqual([...read].sort());
  });
});

describe('the configuration of live providers', () => {
  const certificate = fileURLToPath(
    new URL('../../providers/src/fakes/fixtures/fake-daraja-certificate.pem', import.meta.url),
  );
  const daraja = {
    TOPUP_MODE: 'live',
    PROVIDERS: 'MoneyNetA=daraja',
    ...callsBack,
    DARAJA_BASE_URL: 'http://127.0.0.1:9100',
    DARAJA_CONSUMER_KEY: 'key',
    DARAJA_CONSUMER_SECRET: 'consumer-secret-value',
    DARAJA_SHORTCODE: '600992',
    DARAJA_INITIATOR_NAME: 'topupapi',
    DARAJA_INITIATOR_PASSWORD: 'initiator-password-value',
    DARAJA_CERTIFICATE: certificate,
  };

  it('reads Daraja’s variables and its certificate when PROVIDERS names daraja', () => {
    const config = loadConfig(daraja);
    expect(config.publicBaseUrl).toBe('https://topup.example');
    expect(config.daraja).toMatchObject({
      baseUrl: 'http://127.0.0.1:9100',
      shortCode: '600992',
      initiatorName: 'topupapi',
      b2bCommandId: 'BusinessBuyGoods',
    });
    expect(config.daraja?.certificatePem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(config.daraja?.allowedSources).toHaveLength(12);
    expect(config.providerSources.get('daraja')).toContain('196.201.214.200');
    expect(loadConfig({ ...daraja, DARAJA_ALLOWED_SOURCES: 'any' }).providerSources.size).toBe(0);
    expect(
      loadConfig({ ...daraja, DARAJA_ALLOWED_SOURCES: '127.0.0.1, 10.0.0.0/8' }).daraja?.allowedSources,
    ).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(problemsOf({ ...daraja, DARAJA_ALLOWED_SOURCES: 'safaricom' })[0]).toMatch(
      /^DARAJA_ALLOWED_SOURCES: /,
    );
    expect(loadConfig({ ...daraja, DARAJA_B2B_COMMAND_ID: 'BusinessPayBill' }).daraja?.b2bCommandId).toBe(
      'BusinessPayBill',
    );
  });

  it('pays float from a separate disbursement short code and initiator, falling back to the collection ones', () => {
    expect(loadConfig(daraja).daraja?.b2b).toBeUndefined();
    expect(
      loadConfig({
        ...daraja,
        DARAJA_B2B_SHORTCODE: '700700',
        DARAJA_B2B_INITIATOR_NAME: 'floatapi',
        DARAJA_B2B_INITIATOR_PASSWORD: 'float-password-value',
      }).daraja?.b2b,
    ).toEqual({ shortCode: '700700', initiatorName: 'floatapi', initiatorPassword: 'float-password-value' });
    expect(loadConfig({ ...daraja, DARAJA_B2B_SHORTCODE: '700700' }).daraja?.b2b).toEqual({
      shortCode: '700700',
      initiatorName: 'topupapi',
      initiatorPassword: 'initiator-password-value',
    });
  });

  it('lists every problem with the disbursement short code and initiator, never printing the password', () => {
    const problems = problemsOf({
      ...daraja,
      DARAJA_B2B_SHORTCODE: '70',
      DARAJA_B2B_INITIATOR_PASSWORD: 'float-password-value',
    });
    expect(problems).toEqual([
      'DARAJA_B2B_SHORTCODE: expected a short code of 5 to 7 digits (received "70")',
      'DARAJA_B2B_INITIATOR_NAME: expected a value: DARAJA_B2B_INITIATOR_PASSWORD is set (received nothing)',
    ]);
    expect(problemsOf({ ...daraja, DARAJA_B2B_INITIATOR_NAME: 'floatapi' })).toEqual([
      'DARAJA_B2B_INITIATOR_PASSWORD: expected a value: DARAJA_B2B_INITIATOR_NAME is set (received nothing)',
    ]);
    expect(problems.join('\n')).not.toContain('float-password-value');
  });

  it('lists every variable daraja lacks in one pass, with where providers call back', () => {
    expect(problemsOf({ TOPUP_MODE: 'live', PROVIDERS: 'MoneyNetA=daraja' })).toEqual([
      'PUBLIC_BASE_URL: expected a value: the address providers call back to (received nothing)',
      'PROVIDER_WEBHOOK_TOKEN: expected a value: the secret path segment of the URLs providers call back to (received nothing)',
      'DARAJA_CONSUMER_KEY: expected a value: PROVIDERS names daraja (received nothing)',
      'DARAJA_CONSUMER_SECRET: expected a value: PROVIDERS names daraja (received nothing)',
      'DARAJA_SHORTCODE: expected a value: PROVIDERS names daraja (received nothing)',
      'DARAJA_INITIATOR_NAME: expected a value: PROVIDERS names daraja (received nothing)',
      'DARAJA_INITIATOR_PASSWORD: expected a value: PROVIDERS names daraja (received nothing)',
      'DARAJA_CERTIFICATE: expected a value: PROVIDERS names daraja (received nothing)',
    ]);
  });

  it('refuses a certificate path that holds no certificate, and daraja on a carrier', () => {
    expect(
      problemsOf({
        ...daraja,
        PROVIDERS: 'MoneyNetA=daraja,CarrierA=daraja',
        DARAJA_CERTIFICATE: '/nonexistent.pem',
      }),
    ).toEqual([
      'PROVIDERS: expected daraja on money networks only (it moves money, a carrier delivers airtime), received CarrierA=daraja (received "MoneyNetA=daraja,CarrierA=daraja")',
      'DARAJA_PASSKEY: expected a value: PROVIDERS names daraja and a carrier, so M-Pesa collects purchases by STK push (received nothing)',
      expect.stringMatching(/^DARAJA_CERTIFICATE: expected a readable PEM file \(ENOENT/),
    ]);
  });

  it('reads the STK push settings when purchases can be made, the paybill defaulting to the short code', () => {
    expect(loadConfig(daraja).daraja?.stk).toBeUndefined();
    const purchases = loadConfig({
      ...daraja,
      PROVIDERS: 'MoneyNetA=daraja,CarrierA=africastalking',
      DARAJA_PASSKEY: 'passkey-value',
      AT_USERNAME: 'topup',
      AT_API_KEY: 'at-key-value',
    });
    expect(purchases.daraja?.stk).toEqual({
      passkey: 'passkey-value',
      transactionType: 'CustomerPayBillOnline',
      partyB: '600992',
    });
    expect(purchases.africasTalking).toEqual({
      baseUrl: 'https://api.africastalking.com',
      username: 'topup',
      apiKey: 'at-key-value',
    });
  });

  it('asks for Africa’s Talking’s credentials when PROVIDERS names it, on carriers only, never printing the key', () => {
    const problems = problemsOf({
      ...daraja,
      PROVIDERS: 'MoneyNetA=daraja,MoneyNetB=africastalking,CarrierA=africastalking',
      DARAJA_PASSKEY: 'passkey-value',
      AT_API_KEY: 'at-key-value',
      DARAJA_TRANSACTION_TYPE: 'CustomerPayOnline',
    });
    expect(problems).toEqual([
      'DARAJA_TRANSACTION_TYPE: expected one of CustomerPayBillOnline, CustomerBuyGoodsOnline (received "CustomerPayOnline")',
      'PROVIDERS: expected africastalking on carriers only (it delivers airtime, a money network moves money), received MoneyNetB=africastalking (received "MoneyNetA=daraja,MoneyNetB=africastalking,CarrierA=africastalking")',
      'AT_USERNAME: expected a value: PROVIDERS names africastalking (received nothing)',
    ]);
    expect(problems.join('\n')).not.toContain('at-key-value');
  });

  it('takes PUBLIC_BASE_URL as https, or http on loopback only, and never prints a secret', () => {
    expect(loadConfig({ ...daraja, PUBLIC_BASE_URL: 'http://127.0.0.1:8080/' }).publicBaseUrl).toBe(
      'http://127.0.0.1:8080',
    );
    expect(problemsOf({ ...daraja, PUBLIC_BASE_URL: 'http://topup.example' })).toEqual([
      'PUBLIC_BASE_URL: expected https:// (http:// only for a loopback address such as http://127.0.0.1:8080) (received "http://topup.example")',
    ]);
    const problems = problemsOf({ ...daraja, PROVIDER_WEBHOOK_TOKEN: 'short-secret' });
    expect(problems).toEqual([
      'PROVIDER_WEBHOOK_TOKEN: expected 32 to 256 letters, digits, _ or - (received a value not shown)',
    ]);
    expect(problems.join('\n')).not.toContain('short-secret');
  });
});
