// Who may open which part of the console. A caller sees only its own account's screens; operators see
// the operator screens and any account's screens under /accounts/<id>/; support may look at everything
// and change nothing. The server enforces all of this again: these rules only keep people away from
// screens that would answer "forbidden".

import type { Role } from '../api/session-api';
import { accountScreens, operatorPaths, publicPaths } from '../routes/paths';

function under(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

export function isOperator(role: Role): boolean {
  return role === 'admin' || role === 'support';
}

/** Whether the role may change anything (support is read-only). */
export function canChange(role: Role): boolean {
  return role !== 'support';
}

/** Whether a path (or a route's id, which is its path) needs no session. */
export function isPublicPath(pathname: string): boolean {
  return publicPaths.some((path) => under(pathname, path));
}

/** Where a user lands after signing in, or on a path that is not theirs. */
export function homePath(role: Role): string {
  return isOperator(role) ? '/accounts' : '/overview';
}

/**
 * Where to send a signed-in user who opened `pathname` (relative to /console), or undefined when they
 * may stay. Unknown paths stay, so the not-found screen can say so.
 */
export function redirectFor(role: Role, pathname: string): string | undefined {
  if (pathname === '/' || pathname === '') return homePath(role);
  const operatorPath = operatorPaths.some((path) => under(pathname, path));
  const callerPath = accountScreens.some((screen) => under(pathname, `/${screen}`));
  if (isOperator(role) ? callerPath : operatorPath) return homePath(role);
  return undefined;
}
