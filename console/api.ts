// The console's calls to its own endpoints (/console/api/*). State-changing
// ones carry the session's CSRF token (the shell's ptas-csrf meta element) in
// x-csrf-token; a 401 (the session ended) goes back to the login page.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="ptas-csrf"]')?.content ?? '';
}

function signInAgain(): never {
  location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
  throw new ApiError(401, 'signed out');
}

async function answer<T>(response: Response): Promise<T> {
  if (response.status === 401) signInAgain();
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) {
    const message = body && typeof body === 'object' && 'error' in body ? String((body as { error: unknown }).error) : `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message);
  }
  return body as T;
}

export async function getJson<T>(path: string): Promise<T> {
  return answer<T>(await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' }));
}

export async function send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-csrf-token': csrfToken() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return answer<T>(await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) }));
}

/** The message of an error for the page. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
