// The console's built files (apps/console/dist) under /console. A file that exists is served as is (the
// hashed assets are cached for a year); any other path under /console is the application's page, whose
// router draws the screen. The page and its files carry the strict content security policy.

import { readFile, realpath } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { Context } from 'koa';
import { consoleBuildDir } from './console-build-dir.js';

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every console answer carries, pages and API alike. */
export function setConsoleHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', contentSecurityPolicy);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
}

async function fileUnder(root: string, relative: string): Promise<string | undefined> {
  try {
    const path = await realpath(join(root, relative));
    // `..` or a link out of the build folder serves nothing.
    return path.startsWith(`${await realpath(root)}${sep}`) ? path : undefined;
  } catch {
    return undefined;
  }
}

export function serveConsoleFiles(root: string = consoleBuildDir) {
  return async (ctx: Context): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(ctx.path.replace(/^\/console\/?/, ''));
    } catch {
      // Not a file name at all (a broken %-escape): the application's page answers, as for any path.
      relative = '';
    }
    const asset = relative === '' || relative.includes('\0') ? undefined : await fileUnder(root, relative);
    const path = asset ?? (await fileUnder(root, 'index.html'));
    if (path === undefined) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The console is not built: run `pnpm build` (or `pnpm start`, which builds it).\n';
      return;
    }
    const body = await readFile(path).catch(() => undefined);
    if (body === undefined) {
      ctx.status = 404;
      return;
    }
    ctx.set('Content-Type', contentTypes[extname(path)] ?? 'application/octet-stream');
    ctx.set(
      'Cache-Control',
      asset !== undefined && path.includes(`${sep}assets${sep}`)
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
    );
    ctx.body = body;
  };
}
