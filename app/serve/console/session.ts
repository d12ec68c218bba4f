// The console's sessions. A session has two halves, and every request that
// reads data or acts needs both:
// - its id, in an HttpOnly, SameSite=Strict cookie (Secure when served over
//   TLS), which the browser sends by itself and no script can read;
// - its secret (32 random bytes, base64url), which the browser app keeps in
//   web storage (localStorage) and sends as `Authorization: Bearer …`.
// Why two: cookies are not separated by port, and every port of a host is
// the same site, so SameSite does not help either. Any other web service on
// 127.0.0.1 (the implementation under test at :8080, say) that the certifier
// opens in the same browser receives the console's cookie. Web storage is
// separated by origin, port included: no other port can read the secret. So
// the cookie alone opens nothing, and the secret alone (left in storage after
// the browser closed, say) is useless without the cookie, which cannot be
// read by script. The secret is handed over once, in the answer to the login
// form (pages.ts signedInPage), and never again: no page a cookie fetches
// carries it, nor anything else that authorizes.
// Kept in memory: a restart signs everyone out, which for a lab console is
// what it should do. No cookie plugin: the one cookie is read and written
// here, so the console does not depend on how the API side registers its
// plugins.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenRecord } from './services-port.ts';

export const SESSION_COOKIE = 'ptas_console';

export interface Session {
  id: string;
  /** The browser's half: sent as the bearer, never shown again after the login answer. */
  secret: string;
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
  readonly #onEnd = new Set<(id: string) => void>();

  constructor(options: SessionOptions = {}) {
    this.#idleMs = options.idleMs ?? 8 * 3600_000;
    this.#maxAgeMs = options.maxAgeMs ?? 24 * 3600_000;
    this.#now = options.now ?? Date.now;
  }

  create(token: TokenRecord): Session {
    this.#sweep();
    const now = this.#now();
    const session: Session = { id: randomId(), secret: randomId(), token, createdAt: now, expiresAt: Math.min(now + this.#idleMs, now + this.#maxAgeMs) };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session of this id, or undefined. Its expiry stays: only a request that proved both halves pushes it on (touch). */
  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= this.#now()) {
      this.#end(id);
      return undefined;
    }
    return session;
  }

  /** A request used the session: its idle time starts again (never beyond its absolute limit). */
  touch(session: Session): void {
    session.expiresAt = Math.min(this.#now() + this.#idleMs, session.createdAt + this.#maxAgeMs);
  }

  destroy(id: string): void {
    this.#end(id);
  }

  /** Told of every session that ends (signed out, expired, its token revoked): what is bound to it goes too. */
  onEnd(listener: (id: string) => void): void {
    this.#onEnd.add(listener);
  }

  get size(): number {
    return this.#sessions.size;
  }

  #end(id: string): void {
    if (!this.#sessions.delete(id)) return;
    for (const listener of this.#onEnd) listener(id);
  }

  #sweep(): void {
    const now = this.#now();
    for (const [id, session] of this.#sessions) if (session.expiresAt <= now) this.#end(id);
  }
}

/** Constant-time comparison of two strings (different lengths differ at once: a length is no secret). */
export function sameSecret(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || !sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the bearer a request sent is its session's secret, exactly. */
export function secretMatches(session: Session, sent: unknown): boolean {
  return sameSecret(sent, session.secret);
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerOf(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
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
