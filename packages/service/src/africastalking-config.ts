// The variables live mode needs for Africa's Talking, which delivers airtime on the carriers PROVIDERS
// gives it: AT_BASE_URL, AT_USERNAME and AT_API_KEY. Read with the rest of the configuration, so one start
// lists every problem; required only when PROVIDERS names africastalking.

import { z } from 'zod';

/** The variables, as the configuration's schema takes them. */
export const africasTalkingEnvironment = {
  AT_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' })
    .default('https://api.africastalking.com')
    .transform((text) => text.replace(/\/+$/, '')),
  AT_USERNAME: z.string().min(1).optional(),
  AT_API_KEY: z.string().min(1).optional(),
};

type AfricasTalkingEnvironment = z.infer<z.ZodObject<typeof africasTalkingEnvironment>>;

/** What the Africa's Talking provider is configured with. */
export interface AfricasTalkingConfig {
  readonly baseUrl: string;
  readonly username: string;
  readonly apiKey: string;
}

const named = (providers: ReadonlyMap<string, string>) =>
  [...providers].filter(([, provider]) => provider === 'africastalking').map(([network]) => network);

/**
 * Adds a problem for each variable Africa's Talking lacks when PROVIDERS names it, and for a network it
 * cannot serve (it delivers airtime; money is a money network's).
 */
export function checkAfricasTalkingVariables(
  env: Partial<AfricasTalkingEnvironment>,
  providers: ReadonlyMap<string, string>,
  ctx: z.core.$RefinementCtx,
): void {
  const networks = named(providers);
  if (networks.length === 0) return;
  for (const network of networks.filter((token) => !token.startsWith('Carrier'))) {
    ctx.addIssue({
      code: 'custom',
      path: ['PROVIDERS'],
      message: `expected africastalking on carriers only (it delivers airtime, a money network moves money), received ${network}=africastalking`,
    });
  }
  for (const variable of ['AT_USERNAME', 'AT_API_KEY'] as const) {
    if (env[variable] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [variable],
        message: 'expected a value: PROVIDERS names africastalking',
      });
    }
  }
}

/** Africa's Talking's configuration, when PROVIDERS names it; call once the variables have been checked. */
export function africasTalkingConfigOf(
  env: AfricasTalkingEnvironment,
  providers: ReadonlyMap<string, string>,
): AfricasTalkingConfig | undefined {
  if (named(providers).length === 0) return undefined;
  return { baseUrl: env.AT_BASE_URL, username: env.AT_USERNAME ?? '', apiKey: env.AT_API_KEY ?? '' };
}
