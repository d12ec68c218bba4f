// The browser's half of a console session: the secret the login's answer
// handed over (app/serve/console/pages.ts signedInPage), kept in
// localStorage and sent as `Authorization: Bearer …` with every call
// (api.ts, event-stream.ts). Web storage is separated by origin, port
// included: another web service on this host (the implementation under test
// on 127.0.0.1:8080, say), which receives the console's cookie because
// cookies are not separated by port, cannot read it; and the secret is no use
// without the cookie, which no script reads (app/serve/console/session.ts).
// localStorage rather than sessionStorage: a new tab of the console works.
import { dropAllDrafts } from './drafts.ts';

const KEY = 'ptas-console-session';

/** The session's secret, or undefined (never signed in here, signed out, storage off). */
export function sessionSecret(): string | undefined {
  try {
    return localStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function forgetSecret(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Storage off: nothing was kept.
  }
}

/** The headers that prove the session (the cookie goes by itself). */
export function authorization(): Record<string, string> {
  const secret = sessionSecret();
  return secret ? { authorization: `Bearer ${secret}` } : {};
}

/** Back to the login page, which comes back here; the secret (if any) is forgotten first. */
export function signInAgain(): void {
  forgetSecret();
  location.replace(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
}

/** A same-origin path ("/x", not "//host" or "/\host"), else "/". */
function samePath(next: string | undefined): string {
  return next && /^\/(?![/\\])/.test(next) ? next : '/';
}

/**
 * On the login's answer page: keeps the secret it carries and goes on to the
 * page the user asked for (replacing this one in the history). true when
 * this was that page.
 */
export function completeSignIn(): boolean {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="ptas-session-secret"]');
  if (!meta) return false;
  const secret = meta.content;
  meta.remove();
  const main = document.getElementById('signed-in');
  try {
    localStorage.setItem(KEY, secret);
  } catch {
    if (main) main.textContent = 'This browser does not let the console keep its session (web storage is off for this address): allow it, then sign in again.';
    return true;
  }
  location.replace(samePath(main?.dataset.next));
  return true;
}

/**
 * Sign-out: the server ends the session (the bearer proves it is this page
 * asking, not a request that only carries the cookie) and clears the cookie;
 * the browser forgets the secret, whatever the server answered.
 */
export async function signOut(): Promise<void> {
  await fetch('/console/api/session', { method: 'DELETE', headers: authorization(), credentials: 'same-origin' }).catch(() => undefined);
  forgetSecret();
  dropAllDrafts();
  location.replace('/login');
}
