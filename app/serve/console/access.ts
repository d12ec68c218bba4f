// Who may reach a console route, decided before its handler runs. Each route
// says what it is (its config.consoleAccess):
// - public: the login page and the assets;
// - page: a page or a file a browser navigates to (the shell, a run's report
//   and bundle): without a session, a redirect to /login that comes back;
// - api: the console's JSON endpoints and its event stream: without a
//   session, 401 JSON;
// and every state-changing request (not GET or HEAD) also needs the
// session's CSRF token (x-csrf-token header, or a form's _csrf field) and, when
// the browser names one, an Origin of the console's own: 403 otherwise.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cookieValue, csrfMatches, SESSION_COOKIE, type Session, type SessionStore } from './session.ts';
import type { TokenRecord } from './services-port.ts';
import { COMMON_HEADERS, consolePolicy } from './security-headers.ts';

export type Access = 'public' | 'page' | 'api';

declare module 'fastify' {
  interface FastifyContextConfig {
    consoleAccess?: Access;
  }
}

const sessions = new WeakMap<FastifyRequest, Session>();

/** The request's session (set for page and api routes; public ones may have one too). */
export function sessionOf(request: FastifyRequest): Session | undefined {
  return sessions.get(request);
}

/** The session of a page or api route, which access control has made sure of. */
export function requireSession(request: FastifyRequest): Session {
  const session = sessions.get(request);
  if (!session) throw new Error('a console route without access control');
  return session;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request a browser sent from another site: its Origin
 * names another host (or is "null": a sandboxed frame, a redirect across
 * origins, a privacy setting). The host alone is compared, not the scheme:
 * behind a proxy that ends TLS the server sees http while the browser names
 * https. The CSRF token is the defence; this is the second lock.
 */
export function crossOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== request.host;
  } catch {
    return true;
  }
}

function refuse(reply: FastifyReply, status: 401 | 403, message: string): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send({ error: message });
}

/**
 * The hooks of the console's routes (registered in its encapsulated plugin, so
 * the API's routes are not touched). `isLive` says whether a session's token
 * still works: a session of a revoked token ends.
 */
export function installAccessControl(app: FastifyInstance, store: SessionStore, isLive: (token: TokenRecord) => Promise<boolean>): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(COMMON_HEADERS);
    reply.header('content-security-policy', consolePolicy());
    reply.header('x-frame-options', 'DENY');
    let session = store.get(cookieValue(request.headers.cookie, SESSION_COOKIE));
    if (session && !(await isLive(session.token))) {
      store.destroy(session.id);
      session = undefined;
    }
    if (session) sessions.set(request, session);
    const access = request.routeOptions.config.consoleAccess ?? 'public';
    if (access === 'public' || session) return;
    if (access === 'api') return refuse(reply, 401, 'sign in to the console first');
    const next = encodeURIComponent(request.url);
    return reply.header('cache-control', 'no-store').redirect(`/login?next=${next}`, 303);
  });

  // After the body is parsed, so a form's _csrf field counts.
  app.addHook('preHandler', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const access = request.routeOptions.config.consoleAccess ?? 'public';
    if (crossOrigin(request)) return refuse(reply, 403, 'a request from another origin');
    if (access === 'public') return;
    const session = sessions.get(request)!;
    const body = request.body as { _csrf?: unknown } | undefined;
    const sent = request.headers['x-csrf-token'] ?? (body && typeof body === 'object' ? body._csrf : undefined);
    if (!csrfMatches(session, sent)) return refuse(reply, 403, 'missing or wrong CSRF token: reload the page');
  });
}
