// The browser: Debian's Chromium driven by playwright-core (never a downloaded browser), headless, on a
// fresh temporary profile that Playwright creates for this launch and deletes on close. Each user gets a
// context of its own (its own cookies), with pages of 1280×800, and every uncaught page error is kept
// so a test can require that there were none.

import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const viewport = { width: 1280, height: 800 } as const;

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(executablePath: string): Promise<Browser> {
  // launch() (not launchPersistentContext) gives a brand-new --user-data-dir under the temp folder.
  return chromium.launch({ executablePath, args: chromiumArgs, headless: true, timeout: 60_000 });
}

export interface UserBrowser {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught errors thrown in any page of the context, as "message (url)". */
  readonly pageErrors: readonly string[];
  close(): Promise<void>;
}

/** A new context (no cookies) with one page, actions limited to 20 s and navigations to 30 s. */
export async function newUserBrowser(browser: Browser): Promise<UserBrowser> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Africa/Nairobi' });
  context.setDefaultTimeout(20_000);
  context.setDefaultNavigationTimeout(30_000);
  const pageErrors: string[] = [];
  context.on('page', (page) => {
    page.on('pageerror', (error) => pageErrors.push(`${error.message} (${page.url()})`));
  });
  const page = await context.newPage();
  return {
    context,
    page,
    pageErrors,
    close: () => context.close(),
  };
}
