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
  csrfToken: string;
  /** The nonce of this response's policy, for CodeMirror's style elements. */
  styleNonce: string;
  signedInAs: string;
}

/** The app shell: the header with the sign-out form, and the element the app draws into. */
export function shellPage(assets: ConsoleAssets, values: ShellValues): string {
  const head = `<meta name="ptas-csrf" content="${esc(values.csrfToken)}">
<meta property="csp-nonce" nonce="${esc(values.styleNonce)}">
<script src="/assets/${assets.script.name}" defer></script>
`;
  const body = `<header class="top">
<a class="brand" href="/" data-link>ptas console</a>
<nav><a href="/" data-link>Implementations</a><a href="/console/implementations/new" data-link>New implementation</a></nav>
<form class="signout" method="post" action="/logout"><span class="who">${esc(values.signedInAs)}</span><input type="hidden" name="_csrf" value="${esc(values.csrfToken)}"><button type="submit">Sign out</button></form>
</header>
<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<noscript><p class="notice">The console needs JavaScript; the API for CI (/api/) does not.</p></noscript>`;
  return page('ptas console', assets, head, body);
}

export function loginPage(assets: ConsoleAssets, values: { next: string; error?: string }): string {
  const error = values.error ? `<p class="notice notice-danger" role="alert">${esc(values.error)}</p>\n` : '';
  const body = `<main class="login">
<h1>ptas console</h1>
<p>Sign in with an access token: the one <code>npx ptas serve</code> printed when it started, or another it issued.</p>
${error}<form method="post" action="/login">
<label for="token">Access token</label>
<input id="token" name="token" type="password" autocomplete="off" required autofocus>
<input type="hidden" name="next" value="${esc(values.next)}">
<button type="submit">Sign in</button>
</form>
</main>`;
  return page('Sign in — ptas console', assets, '', body);
}

export function errorPage(assets: ConsoleAssets, status: number, message: string): string {
  const body = `<main class="error-page"><h1>${status}</h1><p>${esc(message)}</p><p><a href="/">Implementations</a></p></main>`;
  return page(`${status} — ptas console`, assets, '', body);
}

/** Sends an HTML error page (the policy is already set by access control). */
export function sendErrorPage(reply: FastifyReply, assets: ConsoleAssets, status: number, message: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(errorPage(assets, status, message));
}
