// Where the suite saves its screenshots of the console (PNG, 1280×800 viewport): the folder named by
// CONSOLE_SCREENSHOTS_DIR (relative to the working directory; `pnpm --filter @topup/console screenshots`
// points it at docs/console), otherwise a new temporary folder.

import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';

export function screenshotsDir(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.CONSOLE_SCREENSHOTS_DIR;
  if (named !== undefined && named !== '') {
    const dir = resolve(process.cwd(), named);
    mkdirSync(dir, { recursive: true });
    return dir;
  }
  return mkdtempSync(join(tmpdir(), 'topup-console-screenshots-'));
}

/** Saves what the page's viewport shows as `<dir>/<name>.png` and returns the path. */
export async function saveScreenshot(page: Page, dir: string, name: string): Promise<string> {
  const path = join(dir, `${name}.png`);
  // Settle first: no focus ring on a clicked button, no caret blinking in a field.
  await page.evaluate(() => {
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  });
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  return path;
}
