// Who may reach a console route, decided before its handler runs. Each route
// says what it is (its config.consoleAccess):
// - public: the login page and the assets;
// - page: the app shell, which a browser navigates to: without a session
//   cookie, a redirect to /login that comes back. It holds nothing that
//   authorizes (no secret, no token): another service on this host that
//   received the cookie gets an empty shell and nothing more (session.ts);
// - api: who is signed in, and sign-out: the session's cookie AND its
//   secret as `Authorization: Bearer …` (session.ts says why both); 401 JSON
//   otherwise; and the role of the session's token (app/serve/roles.ts) at
//   least the route's consoleRole (viewer to read, admin to change anything
//   unless the route says otherwise); 403 otherwise. Everything else the
//   pages read or do is the API for CI's (/api/*), which takes the same two
//   halves (sessionAuthenticator) and holds them to the same roles;
// - ticket: a run's report and bundle, reached by navigation (an iframe, a
//   download), which cannot carry the bearer: the session's cookie AND a
//   ticket minted for this session, run and kind (app/serve/tickets.ts); 401
//   otherwise, never a redirect to the login page that would come back to
//   the URL.
// A state-changing request (not GET or HEAD) whose Origin names another
// host, port included, is refused (403) whatever it carries, on the
// console's routes and on the API's through a session: the login form is
// public, and this is what keeps another site, or another port of this host,
// from signing the browser in to a session of its choosing. A bearer needs no
// CSRF token besides: no page of another origin can set that header on a
// request here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerOf, cookieValue, secretMatches, SESSION_COOKIE, type Session, type SessionStore, type TokenRecord } from './session.ts';
import type { TicketKind, TicketStore } from '../tickets.ts';
import type { ApiAuthenticator } from '../api/auth.ts';
import { ServeError } from '../errors.ts';
import type { ConsoleAssets } from './assets.ts';
import { sendErrorPage } from './pages.ts';
import { COMMON_HEADERS, consolePolicy } from './security-headers.ts';
import { allows, DEFAULT_ROLE, type Role } from '../roles.ts';

export type Access = 'public' | 'page' | 'api' | 'ticket';

declare module 'fastify' {
  interface FastifyContextConfig {
    consoleAccess?: Access;
    /** A ticket route's kind: the ticket must have been minted for it. */
    ticketKind?: TicketKind;
    /** The role an api route needs (app/serve/roles.ts); by default viewer to read (GET), admin to change anything. */
    consoleRole?: Role;
  }
}

/** What access control consults: the sessions, the tickets, and whether a session's token still works. */
export interface Gate {
  sessions: SessionStore;
  tickets: TicketStore;
  /** A session of a revoked token ends at its next request. */
  isLive(token: TokenRecord): boolean;
}

const sessions = new WeakMap<FastifyRequest, Session>();

/** The session of a page, api or ticket route, which access control has made sure of. */
export function requireSession(request: FastifyRequest): Session {
  const session = sessions.get(request);
  if (!session) throw new Error('a console route without access control');
  return session;
}

/** The session access control found for the request, if any (a public route has none). */
export function sessionOf(request: FastifyRequest): Session | undefined {
  return sessions.get(request);
}

/** The live session the request's cookie names (not pushed on: the cookie alone does not keep a session alive). */
async function cookieSession(request: FastifyRequest, gate: Gate): Promise<Session | undefined> {
  const session = gate.sessions.get(cookieValue(request.headers.cookie, SESSION_COOKIE));
  if (session && !gate.isLive(session.token)) {
    gate.sessions.destroy(session.id);
    return undefined;
  }
  return session;
}

/** The session a request proves both halves of: its cookie's, with that session's secret as the bearer. */
async function bearerSession(request: FastifyRequest, gate: Gate): Promise<Session | undefined> {
  const session = await cookieSession(request, gate);
  return session && secretMatches(session, bearerOf(request.headers.authorization)) ? session : undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * How a session calls the API for CI (app/serve/api/auth.ts): both halves,
 * each use pushing it on, the token it signed in with and its role; a
 * state-changing call from another origin refused as on the console's own
 * routes.
 */
export function sessionAuthenticator(gate: Gate): ApiAuthenticator {
  return async (request) => {
    const session = await bearerSession(request, gate);
    if (!session) return undefined;
    if (!SAFE_METHODS.has(request.method) && crossOrigin(request)) throw new ServeError('forbidden', 'a request from another origin');
    gate.sessions.touch(session);
    return { name: session.token.label ?? session.token.id, role: session.token.role ?? DEFAULT_ROLE, session: session.id };
  };
}

/**
 * A state-changing request a browser sent from another origin: its Origin
 * names another host or port (or is "null": a sandboxed frame, a redirect
 * across origins, a privacy setting). The host and port are compared, not
 * the scheme: behind a proxy that ends TLS the server sees http while the
 * browser names https.
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
 * the API's routes are not touched).
 */
export function installAccessControl(app: FastifyInstance, gate: Gate, assets: ConsoleAssets): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(COMMON_HEADERS);
    reply.header('content-security-policy', consolePolicy());
    reply.header('x-frame-options', 'DENY');
    if (!SAFE_METHODS.has(request.method) && crossOrigin(request)) return refuse(reply, 403, 'a request from another origin');
    const config = request.routeOptions.config;
    const access = config.consoleAccess ?? 'public';
    if (access === 'public') return;

    const session = await cookieSession(request, gate);
    if (access === 'page') {
      if (session) return void sessions.set(request, session);
      const next = encodeURIComponent(request.url);
      return reply.header('cache-control', 'no-store').redirect(`/login?next=${next}`, 303);
    }
    if (access === 'api') {
      if (session && secretMatches(session, bearerOf(request.headers.authorization))) {
        gate.sessions.touch(session);
        sessions.set(request, session);
        const role = session.token.role ?? DEFAULT_ROLE;
        const needed = config.consoleRole ?? (SAFE_METHODS.has(request.method) ? 'viewer' : 'admin');
        if (!allows(role, needed)) return refuse(reply, 403, `you are signed in with a ${role} token; this needs ${needed}`);
        return;
      }
      return refuse(reply, 401, 'sign in to the console first');
    }
    // A ticket route: the ticket is used up by being presented, whatever else holds.
    const ticket = (request.query as { ticket?: unknown }).ticket;
    const runId = (request.params as { id?: string }).id ?? '';
    const redeemed = gate.tickets.redeem(ticket, session?.id ?? '', runId, config.ticketKind!);
    if (session && redeemed) {
      gate.sessions.touch(session);
      return void sessions.set(request, session);
    }
    reply.header('referrer-policy', 'no-referrer');
    return sendErrorPage(reply, assets, 401, 'This link was for one use within a minute of opening the run’s page: open the run’s page again.');
  });
}
