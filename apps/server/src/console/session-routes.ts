// The console's session functions: who is signed in, signing in (with a password or a one-time link),
// re-authenticating, signing out; and `sessionRequired`, which every other console call passes through.
// Signing in, failing to, and signing out are audited with the client's address (@topup/operators).

import Router from '@koa/router';
import {
  csrfToken,
  currentSession,
  linkUser,
  noteReauthentication,
  passwordMatches,
  reauthenticationMs,
  signIn,
  signInWithLink,
  signOut,
  type Session,
} from '@topup/operators';
import type { Middleware } from 'koa';
import { failureCountKey } from '../rate-limit/failure-count-key.js';
import { ConsoleFailure } from './console-failure.js';
import { lifetimesOf, type ConsoleDependencies } from './console-context.js';
import type { ConsoleState, SessionState } from './console-state.js';
import { jsonBody, textField } from './json-body.js';
import { checkCsrfToken, checkSameOrigin } from './request-origin.js';
import { clearSessionCookie, sessionIdOf, setSessionCookie } from './session-cookie.js';

/** The session as the console reads it, with the service's time zone, in which it shows every time. */
function sessionAnswer(
  session: Pick<Session, 'userId' | 'email' | 'role' | 'accountId'>,
  sessionId: string,
  reauthenticatedUntil: Date | undefined,
  timeZone: string,
) {
  return {
    user: { id: session.userId, email: session.email, role: session.role, account: session.accountId ?? '' },
    csrf: csrfToken(sessionId),
    reauthenticated_until: reauthenticatedUntil?.toISOString() ?? '',
    time_zone: timeZone,
  };
}

/** Finds the live session or answers 401; a POST must also pass the origin and CSRF checks. */
export function sessionRequired(deps: ConsoleDependencies): Middleware<ConsoleState> {
  return async (ctx, next) => {
    const sessionId = sessionIdOf(ctx);
    const session =
      sessionId === undefined
        ? undefined
        : await currentSession(deps.store, sessionId, lifetimesOf(deps.config), deps.now());
    if (session === undefined || sessionId === undefined) {
      if (sessionId !== undefined) clearSessionCookie(ctx);
      throw new ConsoleFailure(401, 'unauthenticated', 'Your session has ended; sign in again.');
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      checkSameOrigin(ctx);
      checkCsrfToken(ctx, sessionId);
    }
    ctx.state.session = session;
    ctx.state.sessionId = sessionId;
    await next();
  };
}

export function sessionRoutes(deps: ConsoleDependencies): Router<ConsoleState> {
  const router = new Router<ConsoleState>();
  const lifetimes = lifetimesOf(deps.config);

  // Counted like failed API tokens, per client address, so passwords and links cannot be guessed at speed.
  // Only a guess counts: a wrong password, or a link token the service never made. A used or expired link
  // presented again (the link screen asks once more after the password is set) is no guess.
  const limited = async <T>(
    ip: string,
    attempt: () => Promise<{ readonly result: T; readonly guessed: boolean }>,
  ): Promise<T> => {
    const key = failureCountKey(ip);
    const decision = await deps.authenticationFailures.reserve(key);
    if (!decision.allowed)
      throw new ConsoleFailure(
        429,
        'rate_limited',
        'Too many failed sign-ins from this address; wait and try again.',
      );
    let guessed = false;
    try {
      const outcome = await attempt();
      guessed = outcome.guessed;
      return outcome.result;
    } finally {
      if (!guessed) await deps.authenticationFailures.release(key);
    }
  };
  const unusableLink = () =>
    new ConsoleFailure(404, 'not_found', 'This sign-in link is unknown, used or expired; ask for a new one.');

  router.get('/session', sessionRequired(deps), (ctx) => {
    const { session, sessionId } = ctx.state as SessionState;
    ctx.body = sessionAnswer(session, sessionId, session.reauthenticatedUntil, deps.config.timeZone);
  });

  router.post('/session/link-info', async (ctx) => {
    checkSameOrigin(ctx);
    const token = textField(await jsonBody(ctx), 'token');
    const link = await limited(ctx.ip, async () => {
      const result = await linkUser(deps.store, token, deps.now());
      return { result, guessed: result.kind === 'unknown' };
    });
    if (link.kind !== 'valid') throw unusableLink();
    ctx.body = { email: link.user.email };
  });

  router.post('/session/link', async (ctx) => {
    checkSameOrigin(ctx);
    const body = await jsonBody(ctx);
    const token = textField(body, 'token');
    const password = textField(body, 'password');
    const signedIn = await limited(ctx.ip, async () => {
      const result = await signInWithLink(deps.store, token, password, lifetimes, deps.now(), {
        address: ctx.ip,
      });
      return { result, guessed: result.kind === 'unknown' };
    });
    if (signedIn.kind !== 'signed_in') throw unusableLink();
    setSessionCookie(ctx, signedIn.sessionId, lifetimes.absoluteMs);
    const { user } = signedIn;
    ctx.body = sessionAnswer(
      { userId: user.id, email: user.email, role: user.role, accountId: user.accountId },
      signedIn.sessionId,
      new Date(deps.now().getTime() + reauthenticationMs),
      deps.config.timeZone,
    );
  });

  router.post('/session/sign-in', async (ctx) => {
    checkSameOrigin(ctx);
    const body = await jsonBody(ctx);
    const email = textField(body, 'email');
    const password = textField(body, 'password');
    const signedIn = await limited(ctx.ip, async () => {
      const result = await signIn(deps.store, email, password, lifetimes, deps.now(), { address: ctx.ip });
      return { result, guessed: result === undefined };
    });
    if (signedIn === undefined)
      throw new ConsoleFailure(401, 'invalid_credentials', 'The email or the password is wrong.');
    setSessionCookie(ctx, signedIn.sessionId, lifetimes.absoluteMs);
    const { user } = signedIn;
    ctx.body = sessionAnswer(
      { userId: user.id, email: user.email, role: user.role, accountId: user.accountId },
      signedIn.sessionId,
      new Date(deps.now().getTime() + reauthenticationMs),
      deps.config.timeZone,
    );
  });

  router.post('/session/reauthenticate', sessionRequired(deps), async (ctx) => {
    const { session } = ctx.state as SessionState;
    const password = textField(await jsonBody(ctx), 'password');
    const matches = await limited(ctx.ip, async () => {
      const result = await passwordMatches(deps.store, session.userId, password);
      return { result, guessed: !result };
    });
    if (!matches) throw new ConsoleFailure(401, 'invalid_credentials', 'The password is wrong.');
    const until = await noteReauthentication(deps.store, session, deps.now());
    ctx.body = { reauthenticated_until: until.toISOString() };
  });

  router.post('/session/sign-out', sessionRequired(deps), async (ctx) => {
    await signOut(deps.store, (ctx.state as SessionState).session, deps.now(), { address: ctx.ip });
    clearSessionCookie(ctx);
    ctx.body = { signed_out: true };
  });

  return router;
}
