// `ptas serve`'s browser console: registerConsole(app, services) adds, in an
// encapsulated plugin (its hooks touch none of the API's routes):
//   GET  /assets/app.<hash>.js|css      the bundled browser app (assets.ts)
//   GET  /login, POST /login, POST /logout   sign in with a token (session.ts)
//   GET  /, /console/implementations/new|:id, /console/runs/:id   the app shell (pages.ts)
//   GET  /console/runs/:id/report|bundle     a run's report, framed, and its archive (run-files.ts)
//   /console/api/*                           the console's JSON endpoints (api.ts) and a
//                                            run's live events (events.ts)
// Access control (access.ts): a session for everything but the login page
// and the assets; the session's CSRF token for every state-changing request.
// Every page carries a strict Content-Security-Policy (security-headers.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redactor } from '../../../src/http/redact.ts';
import { consoleAssets, type ConsoleAssets } from './assets.ts';
import { installAccessControl, requireSession, sessionOf } from './access.ts';
import { registerApi } from './api.ts';
import { registerEvents } from './events.ts';
import { isImplementationId, isRunId, safeNext } from './ids.ts';
import type { ConsoleContext } from './context.ts';
import { loginPage, sendErrorPage, shellPage } from './pages.ts';
import { registerRunFiles } from './run-files.ts';
import { consolePolicy, newNonce } from './security-headers.ts';
import { SessionStore, sessionCookie, type SessionOptions } from './session.ts';
import type { ServeServices } from './services-port.ts';

export interface ConsoleOptions {
  sessions?: SessionOptions;
  /** The server's log (`ptas serve`'s: its Fastify has no logger), for what fails inside a console route; redacted first. */
  log?: (line: string) => void;
}

const HTML = 'text/html; charset=utf-8';

/** application/x-www-form-urlencoded bodies (the login and sign-out forms), as a flat object. */
function parseForm(_request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void): void {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) fields[key] = value;
  done(null, fields);
}

function registerSignIn(app: FastifyInstance, ctx: ConsoleContext): void {
  const { assets, sessions, services } = ctx;
  app.get('/login', { config: { consoleAccess: 'public' } }, async (request, reply) => {
    const next = safeNext((request.query as { next?: unknown }).next);
    if (sessionOf(request)) return reply.redirect(next, 303);
    return reply.type(HTML).header('cache-control', 'no-store').send(loginPage(assets, { next }));
  });

  app.post('/login', { config: { consoleAccess: 'public' }, bodyLimit: 16 * 1024 }, async (request, reply) => {
    const body = (request.body ?? {}) as { token?: unknown; next?: unknown };
    const next = safeNext(body.next);
    const token = typeof body.token === 'string' ? body.token.trim() : '';
    const record = token ? await services.tokens.verify(token) : undefined;
    if (!record) {
      return reply.code(401).type(HTML).header('cache-control', 'no-store').send(loginPage(assets, { next, error: 'That token is not valid.' }));
    }
    const previous = sessionOf(request);
    if (previous) sessions.destroy(previous.id);
    const session = sessions.create(record);
    reply.header('set-cookie', sessionCookie(session.id, { secure: request.protocol === 'https' }));
    return reply.header('cache-control', 'no-store').redirect(next, 303);
  });

  app.post('/logout', { config: { consoleAccess: 'page' }, bodyLimit: 16 * 1024 }, async (request, reply) => {
    sessions.destroy(requireSession(request).id);
    reply.header('set-cookie', sessionCookie('', { secure: request.protocol === 'https', maxAgeSeconds: 0 }));
    return reply.header('cache-control', 'no-store').redirect('/login', 303);
  });
}

function registerPages(app: FastifyInstance, ctx: ConsoleContext): void {
  const shell = async (request: FastifyRequest, reply: FastifyReply) => {
    const session = requireSession(request);
    const styleNonce = newNonce();
    return reply
      .type(HTML)
      .header('cache-control', 'no-store')
      .header('content-security-policy', consolePolicy(styleNonce))
      .send(shellPage(ctx.assets, { csrfToken: session.csrfToken, styleNonce, signedInAs: session.token.label ?? session.token.id }));
  };
  const page = { config: { consoleAccess: 'page' as const } };
  app.get('/', page, shell);
  app.get('/console/implementations/new', page, shell);
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

/** Adds the console to `app` (before it listens); the browser app is bundled on the first call in the process. */
export async function registerConsole(app: FastifyInstance, services: ServeServices, options: ConsoleOptions = {}): Promise<void> {
  const assets = await consoleAssets();
  const ctx: ConsoleContext = { services, assets, sessions: new SessionStore(options.sessions) };
  const redactor = new Redactor();
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, parseForm);
    installAccessControl(scope, ctx.sessions, (token) => services.tokens.isLive(token));
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
    registerApi(scope, ctx);
    registerEvents(scope, ctx);
    registerNotFound(scope, assets);
  });
}
