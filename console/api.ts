// The console's calls to the API for CI (/api/*, whose refusals carry a code
// and a message), and to its own session endpoint (/console/api/session).
// Each carries the session's secret as its bearer (session.ts) besides the
// cookie the browser sends; a 401 (the session ended, or this browser never
// had the secret) forgets the secret and goes back to the login page.
import { authorization, signInAgain } from './session.ts';
import { refusalMessage } from './refusals.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function signedOut(): never {
  signInAgain();
  throw new ApiError(401, 'signed out');
}

async function answer<T>(response: Response): Promise<T> {
  if (response.status === 401) signedOut();
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) throw new ApiError(response.status, refusalMessage(response.status, response.statusText, body));
  return body as T;
}

export async function getJson<T>(path: string): Promise<T> {
  return answer<T>(await fetch(path, { headers: { accept: 'application/json', ...authorization() }, credentials: 'same-origin' }));
}

export async function send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authorization() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return answer<T>(await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) }));
}

/** The message of an error for the page. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
