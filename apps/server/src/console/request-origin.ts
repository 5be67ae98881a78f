// Cross-site request checks for every state-changing console call: the browser's own statement of where
// the request comes from (`Sec-Fetch-Site`, `Origin`) must be this site, and a signed-in session's call
// must carry its CSRF token in a header, which a form or an image on another site cannot send.

import { csrfToken } from '@topup/operators';
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { ConsoleFailure } from './console-failure.js';

/** Refuses a request a browser marks as coming from another site; tools that send neither header pass. */
export function checkSameOrigin(ctx: Context): void {
  const site = ctx.get('sec-fetch-site');
  if (site !== '' && site !== 'same-origin')
    throw new ConsoleFailure(403, 'csrf', `Cross-site request refused (Sec-Fetch-Site: ${site}).`);
  const origin = ctx.get('origin');
  // The console's own origin as the browser addressed it (behind trusted proxies, as they forwarded it).
  if (origin !== '' && origin !== `${ctx.protocol}://${ctx.host}`)
    throw new ConsoleFailure(403, 'csrf', `Cross-site request refused (Origin: ${origin}).`);
}

/** Refuses a state change without the session's CSRF token in `X-Topup-CSRF`. */
export function checkCsrfToken(ctx: Context, sessionId: string): void {
  const sent = Buffer.from(ctx.get('x-topup-csrf'));
  const expected = Buffer.from(csrfToken(sessionId));
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected))
    throw new ConsoleFailure(403, 'csrf', 'The X-Topup-CSRF header is missing or wrong; reload the console.');
}
