// `ptas serve`'s browser console: registerConsole(app, services) adds, in an
// encapsulated plugin (its hooks touch none of the API's routes):
//   GET  /assets/app.<hash>.js|css      the bundled browser app (assets.ts)
//   GET  /login, POST /login             sign in with a token: the answer hands the
//                                        browser the session's secret (session.ts)
//   GET  /console/api/session            who is signed in; DELETE: sign out
//   GET  /, /console/implementations/new|:id, /console/runs/:id, /console/audit,
//        /console/rejudge                   the app shell (pages.ts)
//   GET  /console/runs/:id/report|bundle     a run's report, framed, and its archive,
//                                            each with a one-use ticket (run-files.ts, app/serve/tickets.ts)
// Everything the pages read or do besides goes through the API for CI
// (/api/*), which a session may call with its two halves: registerConsole
// adds that way in (app.ptasApiAuth, access.ts sessionAuthenticator).
// Access control (access.ts): the session's cookie for the shell; the cookie
// and the session's secret as the bearer for every call; the cookie and a
// ticket for the report and the bundle; the console's own origin for every
// state-changing request.
// Every page carries a strict Content-Security-Policy (security-headers.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redactor } from '../../../src/http/redact.ts';
import { consoleAssets, type ConsoleAssets } from './assets.ts';
import { installAccessControl, requireSession, sessionAuthenticator, sessionOf, type Gate } from './access.ts';
import { auditHook, type AuditLog } from '../audit.ts';
import { isImplementationId, isRunId, safeNext } from './ids.ts';
import type { ConsoleContext } from './context.ts';
import { loginPage, sendErrorPage, shellPage, signedInPage } from './pages.ts';
import { registerRunFiles } from './run-files.ts';
import { consolePolicy, newNonce } from './security-headers.ts';
import { cookieValue, SESSION_COOKIE, SessionStore, sessionCookie, type Session, type SessionOptions } from './session.ts';
import { sessionToken, sessionTokenIsLive } from './session-token.ts';
import type { ServeServices } from '../services.ts';
import { DEFAULT_ROLE } from '../roles.ts';

export interface ConsoleOptions {
  sessions?: SessionOptions;
  /** The server's log (`ptas serve`'s: its Fastify has no logger), for what fails inside a console route; redacted first. */
  log?: (line: string) => void;
  /** The lab's audit log: sign-ins, and every change a session makes (app/serve/audit.ts). */
  audit?: AuditLog;
}

/** Who a session acts as, for the audit log. */
const actorOfSession = (session: Session) => ({ name: session.token.label ?? session.token.id, role: session.token.role ?? DEFAULT_ROLE });

const HTML = 'text/html; charset=utf-8';

/** application/x-www-form-urlencoded bodies (the login form), as a flat object. */
function parseForm(_request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void): void {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) fields[key] = value;
  done(null, fields);
}

function registerSignIn(app: FastifyInstance, ctx: ConsoleContext): void {
  const { assets, sessions, services } = ctx;
  // The form, even to a browser that has a session cookie: the cookie may be
  // all it has (a new browser profile, storage cleared), and the shell would
  // send it straight back here.
  app.get('/login', { config: { consoleAccess: 'public' } }, async (request, reply) => {
    const next = safeNext((request.query as { next?: unknown }).next);
    return reply.type(HTML).header('cache-control', 'no-store').send(loginPage(assets, { next }));
  });

  app.post('/login', { config: { consoleAccess: 'public' }, bodyLimit: 16 * 1024 }, async (request, reply) => {
    const body = (request.body ?? {}) as { token?: unknown; next?: unknown };
    const next = safeNext(body.next);
    const token = typeof body.token === 'string' ? body.token.trim() : '';
    const record = token ? sessionToken(services.tokens, token) : undefined;
    if (!record) {
      return reply.code(401).type(HTML).header('cache-control', 'no-store').send(loginPage(assets, { next, error: 'That token is not valid.' }));
    }
    const previous = cookieValue(request.headers.cookie, SESSION_COOKIE);
    if (previous) sessions.destroy(previous);
    const session = sessions.create(record);
    ctx.audit?.record({ actor: actorOfSession(session).name, role: actorOfSession(session).role, via: 'console', action: 'sign in' });
    reply.header('set-cookie', sessionCookie(session.id, { secure: request.protocol === 'https' }));
    // Not a redirect: a page whose script keeps the secret in this origin's storage, then goes on to `next`.
    return reply.type(HTML).header('cache-control', 'no-store').send(signedInPage(assets, { secret: session.secret, next }));
  });

  const api = { config: { consoleAccess: 'api' as const } };
  app.get('/console/api/session', api, async (request, reply) => {
    const { token } = requireSession(request);
    return reply.header('cache-control', 'no-store').send({ signedInAs: token.label ?? token.id, role: token.role ?? DEFAULT_ROLE });
  });

  // Sign-out wants the bearer like every endpoint: a request that only carries the cookie (another port of this host) cannot end the session.
  app.delete('/console/api/session', { config: { consoleAccess: 'api', consoleRole: 'viewer' } }, async (request, reply) => {
    sessions.destroy(requireSession(request).id);
    return reply.code(204).header('set-cookie', sessionCookie('', { secure: request.protocol === 'https', maxAgeSeconds: 0 })).send();
  });
}

function registerPages(app: FastifyInstance, ctx: ConsoleContext): void {
  const shell = async (request: FastifyRequest, reply: FastifyReply) => {
    requireSession(request);
    const styleNonce = newNonce();
    return reply
      .type(HTML)
      .header('cache-control', 'no-store')
      .header('content-security-policy', consolePolicy(styleNonce))
      .send(shellPage(ctx.assets, { styleNonce }));
  };
  const page = { config: { consoleAccess: 'page' as const } };
  app.get('/', page, shell);
  app.get('/console/implementations/new', page, shell);
  app.get('/console/audit', page, shell);
  app.get('/console/rejudge', page, shell);
  app.get('/console/implementations/:id', page, async (request, reply) =>
    isImplementationId((request.params as { id: string }).id) ? shell(request, reply) : sendErrorPage(reply, ctx.assets, 404, 'No such implementation.'),
  );
  app.get('/console/runs/:id', page, async (request, reply) =>
    isRunId((request.params as { id: string }).id) ? shell(request, reply) : sendErrorPage(reply, ctx.assets, 404, 'No such run.'),
  );
}

function registerAssets(app: FastifyInstance, assets: ConsoleAssets): void {
  const byName = new Map([assets.script, assets.style].map((a) => [a.name, a]));
  const unhashed = new Map([
    ['app.js', assets.script],
    ['app.css', assets.style],
  ]);
  app.get('/assets/:name', { config: { consoleAccess: 'public' } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    const immutable = byName.get(name);
    const asset = immutable ?? unhashed.get(name);
    if (!asset) return sendErrorPage(reply, assets, 404, 'No such file.');
    reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache').header('vary', 'accept-encoding');
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.type(asset.contentType).header('content-encoding', 'gzip').send(asset.gzip);
    return reply.type(asset.contentType).send(asset.body);
  });
}

/** Anything else under /console/: 404, as JSON under /console/api/. */
function registerNotFound(app: FastifyInstance, assets: ConsoleAssets): void {
  app.all('/console/*', { config: { consoleAccess: 'public' } }, async (request, reply) => {
    if (request.url.startsWith('/console/api/')) return reply.code(404).send({ error: 'no such console endpoint' });
    return sendErrorPage(reply, assets, 404, 'No such page.');
  });
}

/**
 * Adds the console to `ptas serve`'s server (before it listens; its
 * registerExtra): the pages call its API for CI with their session. The
 * browser app is bundled on the first call in the process.
 */
export async function registerConsole(app: FastifyInstance, services: ServeServices, options: ConsoleOptions = {}): Promise<void> {
  const assets = await consoleAssets();
  const sessions = new SessionStore(options.sessions);
  sessions.onEnd((id) => services.tickets.endSession(id));
  const ctx: ConsoleContext = { services, assets, sessions, ...(options.audit ? { audit: options.audit } : {}) };
  const gate: Gate = { sessions, tickets: services.tickets, isLive: (token) => sessionTokenIsLive(services.tokens, token) };
  app.ptasApiAuth.add(sessionAuthenticator(gate));
  const redactor = new Redactor();
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, parseForm);
    installAccessControl(scope, gate, assets);
    if (options.audit) {
      scope.addHook('onResponse', auditHook(options.audit, 'console', (request) => {
        const session = sessionOf(request);
        return session && actorOfSession(session);
      }));
    }
    scope.setErrorHandler(async (error: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
      const status = error.validation ? 400 : error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500 && options.log) options.log(`internal error in the console on ${request.method} ${request.routeOptions.url ?? 'an unknown route'}: ${redactor.redactString(error.stack ?? error.message)}`);
      else if (status === 500) request.log.error({ err: error }, 'console route failed');
      const message = status === 500 ? 'the console failed on this request (see the server log)' : error.message;
      if (request.url.startsWith('/console/api/')) return reply.code(status).send({ error: message });
      return sendErrorPage(reply, assets, status, message);
    });
    registerAssets(scope, assets);
    registerSignIn(scope, ctx);
    registerPages(scope, ctx);
    registerRunFiles(scope, ctx);
    registerNotFound(scope, assets);
  });
}
