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
// Kept in the server's store (SessionOptions.file), so a restart signs no one
// out: as SHA-256 hashes of both halves only, like the API's tokens, so the
// file opens nothing; a session whose token was revoked meanwhile is refused
// as before (access.ts). Without a file, in memory only. No cookie plugin:
// the one cookie is read and written here, so the console does not depend
// on how the API side registers its plugins.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readJsonFile, writeJsonAtomic } from '../store/atomic.ts';
import type { Role } from '../roles.ts';

export const SESSION_COOKIE = 'ptas_console';

/** The token a session signed in with (session-token.ts). */
export interface TokenRecord {
  /** Its name and when it was made: a token made again under a revoked one's name is another. */
  id: string;
  /** Shown in the console's header ("signed in as …"). */
  label?: string;
  /** What the token may do (app/serve/roles.ts); absent in sessions kept from before roles, whose tokens were all admin. */
  role?: Role;
}

export interface Session {
  /** The cookie's half. */
  id: string;
  /** SHA-256 (hex) of the browser's half, which is sent as the bearer and shown only in the login answer. */
  secretHash: string;
  token: TokenRecord;
  createdAt: number;
  /** Sliding: pushed on by every request, never beyond createdAt + maxAgeMs. */
  expiresAt: number;
}

/** A session as the login makes it: the secret is known this once, to hand to the browser. */
export type NewSession = Session & { secret: string };

export interface SessionOptions {
  /** Idle time after which a session ends (default 8 hours). */
  idleMs?: number;
  /** Absolute lifetime (default 24 hours). */
  maxAgeMs?: number;
  now?: () => number;
  /** Where the sessions outlive a restart (hashed); without it they live in memory only. */
  file?: string;
}

/** A session as the file keeps it: hashes, never either half. */
interface StoredSession {
  idHash: string;
  secretHash: string;
  token: TokenRecord;
  createdAt: number;
  expiresAt: number;
}

const randomId = (): string => randomBytes(32).toString('base64url');
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
/** A touch writes the file only when it moved the expiry on by this much: not on every request. */
const PERSIST_TOUCH_MS = 60_000;

export class SessionStore {
  /** By the SHA-256 of the id: what the file keeps. A session restored from it learns its id from the first cookie that names it. */
  readonly #sessions = new Map<string, Session>();
  readonly #idleMs: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  readonly #file?: string;
  readonly #onEnd = new Set<(id: string) => void>();
  #persistedExpiry = new Map<string, number>();

  constructor(options: SessionOptions = {}) {
    this.#idleMs = options.idleMs ?? 8 * 3600_000;
    this.#maxAgeMs = options.maxAgeMs ?? 24 * 3600_000;
    this.#now = options.now ?? Date.now;
    this.#file = options.file;
    this.#restore();
  }

  create(token: TokenRecord): NewSession {
    this.#sweep();
    const now = this.#now();
    const secret = randomId();
    const session: NewSession = { id: randomId(), secret, secretHash: sha256(secret), token, createdAt: now, expiresAt: Math.min(now + this.#idleMs, now + this.#maxAgeMs) };
    const { secret: _shownOnce, ...kept } = session;
    this.#sessions.set(sha256(session.id), kept);
    this.#persist();
    return session;
  }

  /** The live session of this id, or undefined. Its expiry stays: only a request that proved both halves pushes it on (touch). */
  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const key = sha256(id);
    const session = this.#sessions.get(key);
    if (!session) return undefined;
    session.id = id;
    if (session.expiresAt <= this.#now()) {
      this.#end(key);
      return undefined;
    }
    return session;
  }

  /** A request used the session: its idle time starts again (never beyond its absolute limit). */
  touch(session: Session): void {
    const key = sha256(session.id);
    const kept = this.#sessions.get(key) ?? session;
    kept.expiresAt = Math.min(this.#now() + this.#idleMs, kept.createdAt + this.#maxAgeMs);
    if (kept.expiresAt - (this.#persistedExpiry.get(key) ?? 0) >= PERSIST_TOUCH_MS) this.#persist();
  }

  destroy(id: string): void {
    this.#end(sha256(id));
  }

  /** Told of every session that ends (signed out, expired, its token revoked): what is bound to it goes too. */
  onEnd(listener: (id: string) => void): void {
    this.#onEnd.add(listener);
  }

  get size(): number {
    return this.#sessions.size;
  }

  #end(key: string): void {
    const session = this.#sessions.get(key);
    if (!session || !this.#sessions.delete(key)) return;
    this.#persist();
    // A restored session nobody has named since the restart has nothing bound to it yet.
    if (session.id) for (const listener of this.#onEnd) listener(session.id);
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, session] of this.#sessions) if (session.expiresAt <= now) this.#end(key);
  }

  #restore(): void {
    if (!this.#file) return;
    const stored = readJsonFile<{ sessions?: StoredSession[] }>(this.#file)?.sessions ?? [];
    const now = this.#now();
    for (const entry of stored) {
      if (typeof entry?.idHash !== 'string' || typeof entry.secretHash !== 'string' || !(entry.expiresAt > now)) continue;
      this.#sessions.set(entry.idHash, { id: '', secretHash: entry.secretHash, token: entry.token, createdAt: entry.createdAt, expiresAt: entry.expiresAt });
      this.#persistedExpiry.set(entry.idHash, entry.expiresAt);
    }
  }

  #persist(): void {
    if (!this.#file) return;
    const sessions: StoredSession[] = [...this.#sessions].map(([idHash, s]) => ({ idHash, secretHash: s.secretHash, token: s.token, createdAt: s.createdAt, expiresAt: s.expiresAt }));
    writeJsonAtomic(this.#file, { sessions });
    this.#persistedExpiry = new Map(sessions.map((s) => [s.idHash, s.expiresAt]));
  }
}

/** Constant-time comparison of two strings (different lengths differ at once: a length is no secret). */
export function sameSecret(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || !sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the bearer a request sent is its session's secret, exactly (compared as SHA-256 hashes, in constant time). */
export function secretMatches(session: Session, sent: unknown): boolean {
  if (typeof sent !== 'string' || !sent) return false;
  return sameSecret(sha256(sent), session.secretHash);
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
