// The console's sessions: a random id in an HttpOnly, SameSite=Strict cookie
// (Secure when served over TLS) naming a server-side record that expires, and
// with it a synchronizer token against cross-site requests: every
// state-changing console request sends it back in the x-csrf-token header
// (or a form's _csrf field) and is refused without it. Kept in memory: a
// restart signs everyone out, which for a lab console is what it should do.
// No cookie plugin: the one cookie is read and written here, so the console
// does not depend on how the API side registers its plugins.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenRecord } from './services-port.ts';

export const SESSION_COOKIE = 'ptas_console';

export interface Session {
  id: string;
  csrfToken: string;
  token: TokenRecord;
  createdAt: number;
  /** Sliding: pushed on by every request, never beyond createdAt + maxAgeMs. */
  expiresAt: number;
}

export interface SessionOptions {
  /** Idle time after which a session ends (default 8 hours). */
  idleMs?: number;
  /** Absolute lifetime (default 24 hours). */
  maxAgeMs?: number;
  now?: () => number;
}

const randomId = (): string => randomBytes(32).toString('base64url');

export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #idleMs: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;

  constructor(options: SessionOptions = {}) {
    this.#idleMs = options.idleMs ?? 8 * 3600_000;
    this.#maxAgeMs = options.maxAgeMs ?? 24 * 3600_000;
    this.#now = options.now ?? Date.now;
  }

  create(token: TokenRecord): Session {
    this.#sweep();
    const now = this.#now();
    const session: Session = { id: randomId(), csrfToken: randomId(), token, createdAt: now, expiresAt: Math.min(now + this.#idleMs, now + this.#maxAgeMs) };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session of this id (its expiry pushed on), or undefined. */
  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    const now = this.#now();
    if (session.expiresAt <= now) {
      this.#sessions.delete(id);
      return undefined;
    }
    session.expiresAt = Math.min(now + this.#idleMs, session.createdAt + this.#maxAgeMs);
    return session;
  }

  destroy(id: string): void {
    this.#sessions.delete(id);
  }

  get size(): number {
    return this.#sessions.size;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [id, session] of this.#sessions) if (session.expiresAt <= now) this.#sessions.delete(id);
  }
}

/** Constant-time comparison of the token a request sent with its session's. */
export function csrfMatches(session: Session, sent: unknown): boolean {
  if (typeof sent !== 'string' || !sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(value: string, options: { secure: boolean; maxAgeSeconds?: number }): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    ...(options.secure ? ['Secure'] : []),
    ...(options.maxAgeSeconds === undefined ? [] : [`Max-Age=${options.maxAgeSeconds}`]),
  ].join('; ');
}
