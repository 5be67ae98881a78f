// The session cookie. Over HTTPS it is a `__Host-` cookie (Secure, host-only, path /), which no subdomain
// or plain-HTTP page can set or overwrite; on plain HTTP (local use on loopback) browsers refuse Secure
// cookies, so it is a plain one. Both are HttpOnly and SameSite=Strict.

import type { Context } from 'koa';

const secureName = '__Host-topup_session';
const plainName = 'topup_session';

function nameFor(ctx: Context): string {
  return ctx.secure ? secureName : plainName;
}

/** The session id a request carries, if any (only the cookie of its own scheme counts). */
export function sessionIdOf(ctx: Context): string | undefined {
  const header = ctx.get('cookie');
  if (header === '') return undefined;
  const name = nameFor(ctx);
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) {
      const id = value.join('=');
      return /^[A-Za-z0-9_-]{43}$/.test(id) ? id : undefined;
    }
  }
  return undefined;
}

function attributes(ctx: Context): string {
  return `Path=/; HttpOnly; SameSite=Strict${ctx.secure ? '; Secure' : ''}`;
}

export function setSessionCookie(ctx: Context, sessionId: string, maxAgeMs: number): void {
  ctx.append(
    'Set-Cookie',
    `${nameFor(ctx)}=${sessionId}; ${attributes(ctx)}; Max-Age=${Math.floor(maxAgeMs / 1000)}`,
  );
}

export function clearSessionCookie(ctx: Context): void {
  ctx.append('Set-Cookie', `${nameFor(ctx)}=; ${attributes(ctx)}; Max-Age=0`);
}
