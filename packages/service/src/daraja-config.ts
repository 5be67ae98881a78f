// The variables live mode needs for providers that call back (PUBLIC_BASE_URL) and for M-Pesa through
// Daraja (DARAJA_*: the app; the collection short code, its STK push and the initiator of its reversals;
// and the disbursement short code and initiator that pay agent float by B2B, DARAJA_B2B_*, which fall back
// to the collection ones, as a merchant with one short code has). They are read with the rest of the configuration, so one start lists every problem;
// each is required only when PROVIDERS names a provider that uses it. The initiator's certificate is read
// at start, so a wrong path or a file that is no certificate stops the start rather than the first float.

import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { pemFileAt } from './pem-file.js';
import { sourceList } from './source-ranges.js';

const loopbackHosts: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `https`, or `http` on a loopback host only, so the service can run against the fakes on one machine. */
const publicBaseUrl = z
  .url({ protocol: /^https?$/, error: 'expected an https:// URL' })
  .refine(
    (text) => {
      const url = new URL(text);
      return url.protocol === 'https:' || loopbackHosts.has(url.hostname);
    },
    { error: 'expected https:// (http:// only for a loopback address such as http://127.0.0.1:8080)' },
  )
  .refine((text) => new URL(text).search === '' && new URL(text).hash === '', {
    error: 'expected no query and no fragment: provider paths are added to it',
  })
  .transform((text) => text.replace(/\/+$/, ''));

const b2bCommands = ['BusinessBuyGoods', 'BusinessPayBill', 'BusinessPayToBulk'] as const;
const stkTransactionTypes = ['CustomerPayBillOnline', 'CustomerBuyGoodsOnline'] as const;
const shortCode = z.string().regex(/^\d{5,7}$/, 'expected a short code of 5 to 7 digits');

/**
 * The addresses Safaricom says its callbacks come from (its getting-started page, as the SDKs cite it).
 * Daraja signs nothing, so where a call comes from is the check it allows besides the secret path.
 */
const safaricomSources =
  '196.201.214.200,196.201.214.206,196.201.214.207,196.201.214.208,196.201.213.114,196.201.213.44,' +
  '196.201.212.127,196.201.212.129,196.201.212.136,196.201.212.138,196.201.212.74,196.201.212.69';

/** `any` switches the list off (Daraja's routes then take PROVIDER_WEBHOOK_SOURCES, if set). */
const allowedSources = z.union([z.literal('any').transform((): string[] => []), sourceList]);

/** The variables, as the configuration's schema takes them. */
export const darajaEnvironment = {
  PUBLIC_BASE_URL: publicBaseUrl.optional(),
  DARAJA_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' })
    .default('https://api.safaricom.co.ke'),
  DARAJA_CONSUMER_KEY: z.string().min(1).optional(),
  DARAJA_CONSUMER_SECRET: z.string().min(1).optional(),
  DARAJA_SHORTCODE: shortCode.optional(),
  DARAJA_PASSKEY: z.string().min(1).optional(),
  DARAJA_TRANSACTION_TYPE: z
    .enum(stkTransactionTypes, { error: `expected one of ${stkTransactionTypes.join(', ')}` })
    .default('CustomerPayBillOnline'),
  DARAJA_PARTY_B: shortCode.optional(),
  DARAJA_INITIATOR_NAME: z.string().min(1).optional(),
  DARAJA_INITIATOR_PASSWORD: z.string().min(1).optional(),
  DARAJA_B2B_SHORTCODE: shortCode.optional(),
  DARAJA_B2B_INITIATOR_NAME: z.string().min(1).optional(),
  DARAJA_B2B_INITIATOR_PASSWORD: z.string().min(1).optional(),
  DARAJA_CERTIFICATE: z.string().min(1).optional(),
  DARAJA_ALLOWED_SOURCES: allowedSources.default(allowedSources.parse(safaricomSources)),
  DARAJA_B2B_COMMAND_ID: z
    .enum(b2bCommands, { error: `expected one of ${b2bCommands.join(', ')}` })
    .default('BusinessBuyGoods'),
};

type DarajaEnvironment = z.infer<z.ZodObject<typeof darajaEnvironment>>;

/** What the Daraja provider is configured with. */
export interface DarajaConfig {
  readonly baseUrl: string;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  /** The collection short code: STK push is sent as it, and its payments are reversed by its initiator. */
  readonly shortCode: string;
  readonly initiatorName: string;
  readonly initiatorPassword: string;
  /**
   * The disbursement short code and initiator that pay agent float, when DARAJA_B2B_* name one; undefined
   * when float is paid from the collection short code by its initiator.
   */
  readonly b2b:
    | { readonly shortCode: string; readonly initiatorName: string; readonly initiatorPassword: string }
    | undefined;
  /** The certificate's PEM text, read from DARAJA_CERTIFICATE at start. */
  readonly certificatePem: string;
  readonly b2bCommandId: (typeof b2bCommands)[number];
  /**
   * How M-Pesa collects a purchase's payment by STK push: set when PROVIDERS names daraja and a carrier, so
   * that purchases can be made.
   */
  readonly stk:
    | {
        readonly passkey: string;
        readonly transactionType: (typeof stkTransactionTypes)[number];
        /** The paybill or till paid: DARAJA_PARTY_B, or the short code. */
        readonly partyB: string;
      }
    | undefined;
  /** Who may call Daraja's webhook routes; empty: the routes take PROVIDER_WEBHOOK_SOURCES. */
  readonly allowedSources: readonly string[];
}

const required = [
  'DARAJA_CONSUMER_KEY',
  'DARAJA_CONSUMER_SECRET',
  'DARAJA_SHORTCODE',
  'DARAJA_INITIATOR_NAME',
  'DARAJA_INITIATOR_PASSWORD',
  'DARAJA_CERTIFICATE',
] as const;

/** Purchases can be made: a carrier is served beside Daraja, which then collects their payments. */
function takesPurchases(providers: ReadonlyMap<string, string>): boolean {
  return [...providers.keys()].some((network) => network.startsWith('Carrier'));
}

/** The certificate's text, or the problem with the file. */
function certificateAt(path: string): { pem: string } | { problem: string } {
  const read = pemFileAt(path);
  if ('problem' in read) return read;
  const pem = read.text;
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'rsa') return { problem: 'expected an RSA certificate' };
  } catch {
    return { problem: 'expected a PEM certificate, the file holds none' };
  }
  return { pem };
}

/**
 * Adds a problem for each variable a provider named in PROVIDERS needs and lacks, and for a network Daraja
 * cannot carry (it moves money; airtime is a carrier's).
 */
export function checkProviderVariables(
  env: Partial<DarajaEnvironment> & { PROVIDER_WEBHOOK_TOKEN?: string | undefined },
  providers: ReadonlyMap<string, string>,
  ctx: z.core.$RefinementCtx,
): void {
  if (providers.size === 0) return;
  const missing = (variable: string, why: string) => {
    ctx.addIssue({ code: 'custom', path: [variable], message: `expected a value: ${why}` });
  };
  // Every live provider calls back: Daraja to each call's ResultURL, Africa's Talking to its dashboard URL.
  if (env.PUBLIC_BASE_URL === undefined) missing('PUBLIC_BASE_URL', 'the address providers call back to');
  if (env.PROVIDER_WEBHOOK_TOKEN === undefined) {
    missing('PROVIDER_WEBHOOK_TOKEN', 'the secret path segment of the URLs providers call back to');
  }
  const darajaNetworks = [...providers]
    .filter(([, provider]) => provider === 'daraja')
    .map(([network]) => network);
  if (darajaNetworks.length === 0) return;
  for (const network of darajaNetworks.filter((token) => !token.startsWith('MoneyNet'))) {
    ctx.addIssue({
      code: 'custom',
      path: ['PROVIDERS'],
      message: `expected daraja on money networks only (it moves money, a carrier delivers airtime), received ${network}=daraja`,
    });
  }
  for (const variable of required.filter((name) => env[name] === undefined)) {
    missing(variable, 'PROVIDERS names daraja');
  }
  if (takesPurchases(providers) && env.DARAJA_PASSKEY === undefined) {
    missing(
      'DARAJA_PASSKEY',
      'PROVIDERS names daraja and a carrier, so M-Pesa collects purchases by STK push',
    );
  }
  checkB2bInitiator(env, ctx);
  if (env.DARAJA_CERTIFICATE === undefined) return;
  const certificate = certificateAt(env.DARAJA_CERTIFICATE);
  if ('problem' in certificate) {
    ctx.addIssue({ code: 'custom', path: ['DARAJA_CERTIFICATE'], message: certificate.problem });
  }
}

/**
 * The B2B initiator comes whole: a name without its password, or the reverse, is a mistake, never half of
 * a fallback. (A disbursement short code without an initiator of its own falls back to the collection
 * initiator, which works only where Safaricom gave it the B2B role on that short code.)
 */
function checkB2bInitiator(env: Partial<DarajaEnvironment>, ctx: z.core.$RefinementCtx): void {
  const problem = (variable: string, message: string) => {
    ctx.addIssue({ code: 'custom', path: [variable], message });
  };
  const named = env.DARAJA_B2B_INITIATOR_NAME !== undefined;
  const withPassword = env.DARAJA_B2B_INITIATOR_PASSWORD !== undefined;
  if (named && !withPassword) {
    problem('DARAJA_B2B_INITIATOR_PASSWORD', 'expected a value: DARAJA_B2B_INITIATOR_NAME is set');
  }
  if (withPassword && !named) {
    problem('DARAJA_B2B_INITIATOR_NAME', 'expected a value: DARAJA_B2B_INITIATOR_PASSWORD is set');
  }
}

/** The disbursement short code and initiator, when any DARAJA_B2B_* names one. */
function b2bOf(env: DarajaEnvironment): DarajaConfig['b2b'] {
  const { DARAJA_B2B_SHORTCODE, DARAJA_B2B_INITIATOR_NAME, DARAJA_B2B_INITIATOR_PASSWORD } = env;
  if (
    DARAJA_B2B_SHORTCODE === undefined &&
    DARAJA_B2B_INITIATOR_NAME === undefined &&
    DARAJA_B2B_INITIATOR_PASSWORD === undefined
  ) {
    return undefined;
  }
  return {
    shortCode: DARAJA_B2B_SHORTCODE ?? env.DARAJA_SHORTCODE ?? '',
    initiatorName: DARAJA_B2B_INITIATOR_NAME ?? env.DARAJA_INITIATOR_NAME ?? '',
    initiatorPassword: DARAJA_B2B_INITIATOR_PASSWORD ?? env.DARAJA_INITIATOR_PASSWORD ?? '',
  };
}

/** Daraja's configuration, when PROVIDERS names daraja; call once the variables have been checked. */
export function darajaConfigOf(
  env: DarajaEnvironment,
  providers: ReadonlyMap<string, string>,
): DarajaConfig | undefined {
  if (![...providers.values()].includes('daraja') || env.DARAJA_CERTIFICATE === undefined) return undefined;
  const certificate = certificateAt(env.DARAJA_CERTIFICATE);
  if ('problem' in certificate) throw new Error(`DARAJA_CERTIFICATE: ${certificate.problem}`);
  return {
    baseUrl: env.DARAJA_BASE_URL,
    consumerKey: env.DARAJA_CONSUMER_KEY ?? '',
    consumerSecret: env.DARAJA_CONSUMER_SECRET ?? '',
    shortCode: env.DARAJA_SHORTCODE ?? '',
    initiatorName: env.DARAJA_INITIATOR_NAME ?? '',
    initiatorPassword: env.DARAJA_INITIATOR_PASSWORD ?? '',
    b2b: b2bOf(env),
    certificatePem: certificate.pem,
    b2bCommandId: env.DARAJA_B2B_COMMAND_ID,
    stk:
      env.DARAJA_PASSKEY === undefined || !takesPurchases(providers)
        ? undefined
        : {
            passkey: env.DARAJA_PASSKEY,
            transactionType: env.DARAJA_TRANSACTION_TYPE,
            partyB: env.DARAJA_PARTY_B ?? env.DARAJA_SHORTCODE ?? '',
          },
    allowedSources: env.DARAJA_ALLOWED_SOURCES,
  };
}
