// The console's server-rendered HTML: the app shell (one page for every
// console route; the browser app draws the rest), the login page and the
// error page. What the server writes into them (a token's label, an error
// message) is escaped; the browser app renders everything else as text.
import { escapeXml as esc } from '../../../reports/escape.ts';
import type { FastifyReply } from 'fastify';
import type { ConsoleAssets } from './assets.ts';

function page(title: string, assets: ConsoleAssets, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/assets/${assets.style.name}">
${head}</head>
<body>
${body}
</body>
</html>
`;
}

export interface ShellValues {
  /** The nonce of this response's policy, for CodeMirror's style elements. */
  styleNonce: string;
}

/**
 * The app shell: the header with the sign-out button, and the element the
 * app draws into. The same for every session: it carries nothing of the
 * session's (no secret, no token, not even who signed in, which the app asks
 * for with its bearer), since a cookie alone fetches it (access.ts).
 */
export function shellPage(assets: ConsoleAssets, values: ShellValues): string {
  const head = `<meta property="csp-nonce" nonce="${esc(values.styleNonce)}">
<script src="/assets/${assets.script.name}" defer></script>
`;
  const body = `<header class="top">
<a class="brand" href="/" data-link>ptas console</a>
<nav><a href="/" data-link>Implementations</a><a href="/console/implementations/new" data-link>New implementation</a><a href="/console/rejudge" data-link>Re-judge stored runs</a><a href="/console/audit" data-link class="admin-only">Audit log</a></nav>
<div class="signout"><span class="who" id="signed-in-as"></span><button type="button" id="sign-out">Sign out</button></div>
</header>
<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<noscript><p class="notice">The console needs JavaScript; the API for CI (/api/) does not.</p></noscript>`;
  return page('ptas console', assets, head, body);
}

const NEEDS_SCRIPT = '<noscript><p class="notice notice-warn">Signing in needs JavaScript: the console keeps half of its session in this browser’s storage, where no other web service on this host can read it. The API for CI (/api/) needs neither.</p></noscript>';

export function loginPage(assets: ConsoleAssets, values: { next: string; error?: string }): string {
  const error = values.error ? `<p class="notice notice-danger" role="alert">${esc(values.error)}</p>\n` : '';
  const body = `<main class="login">
<h1>ptas console</h1>
<p>Sign in with an access token: the one <code>npx ptas serve</code> printed when it started, or another it issued.</p>
${error}${NEEDS_SCRIPT}
<form method="post" action="/login">
<label for="token">Access token</label>
<input id="token" name="token" type="password" autocomplete="off" required autofocus>
<input type="hidden" name="next" value="${esc(values.next)}">
<button type="submit">Sign in</button>
</form>
</main>`;
  return page('Sign in — ptas console', assets, '', body);
}

/**
 * The answer to a good login: the one page that ever carries the session's
 * secret. The app's script (console/session.ts) puts it into localStorage,
 * which is separated by origin, port included, and goes on to `next`
 * (location.replace: this page stays out of the history). Served no-store,
 * under the same policy as every console page (the script is the app's own
 * file: no inline script).
 */
export function signedInPage(assets: ConsoleAssets, values: { secret: string; next: string }): string {
  const head = `<meta name="ptas-session-secret" content="${esc(values.secret)}">
<script src="/assets/${assets.script.name}" defer></script>
`;
  const body = `<main class="login" id="signed-in" data-next="${esc(values.next)}">
<h1>ptas console</h1>
<p class="muted">Signing in…</p>
${NEEDS_SCRIPT}
</main>`;
  return page('Signing in — ptas console', assets, head, body);
}

export function errorPage(assets: ConsoleAssets, status: number, message: string): string {
  const body = `<main class="error-page"><h1>${status}</h1><p>${esc(message)}</p><p><a href="/">Implementations</a></p></main>`;
  return page(`${status} — ptas console`, assets, '', body);
}

/** Sends an HTML error page (the policy is already set by access control). */
export function sendErrorPage(reply: FastifyReply, assets: ConsoleAssets, status: number, message: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(errorPage(assets, status, message));
}
