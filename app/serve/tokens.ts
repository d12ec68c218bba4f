// The API's bearer tokens. A token is shown once, when it is made, and stored
// only as its SHA-256 (tokens.json); a presented token is hashed and compared
// with every stored hash in constant time. `ptas serve token create|revoke`
// edits the same file while a server runs: the server reads it again when it
// changes, so a revoked token stops working at once. A token has a role
// (roles.ts) and may expire: past its expiresAt it works no more, as a
// revoked one.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import { readJsonFile, writeJsonAtomic } from './store/atomic.ts';
import { ServeError } from './errors.ts';
import { DEFAULT_ROLE, type Role } from './roles.ts';

interface StoredToken {
  name: string;
  /** Hex SHA-256 of the token. */
  sha256: string;
  createdAt: string;
  /** Absent on tokens made before roles: admin (DEFAULT_ROLE). */
  role?: Role;
  expiresAt?: string;
  revokedAt?: string;
}

interface TokensFile {
  tokens: StoredToken[];
}

export interface TokenInfo {
  name: string;
  createdAt: string;
  role: Role;
  expiresAt?: string;
  revokedAt?: string;
}

/** A live token as verify finds it. */
export interface VerifiedToken {
  name: string;
  role: Role;
}

/** A token's name: what `token list` shows and `token revoke --name` takes. */
export const TOKEN_NAME_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
const NAME = new RegExp(TOKEN_NAME_PATTERN);
/** The name of the token a first start with no token makes. */
export const FIRST_RUN_TOKEN = 'first-run';

const PREFIX = 'ptas_';

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export class TokenStore {
  private cache: { mtimeMs: number; size: number; file: TokensFile } | undefined;

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Neither revoked nor past its expiry: a stored token, or one as list() shows it. */
  private isLive(t: Pick<StoredToken, 'revokedAt' | 'expiresAt'>): boolean {
    return !t.revokedAt && (t.expiresAt === undefined || Date.parse(t.expiresAt) > this.now());
  }

  private read(): TokensFile {
    let stat;
    try {
      stat = statSync(this.file);
    } catch {
      return { tokens: [] };
    }
    if (this.cache && this.cache.mtimeMs === stat.mtimeMs && this.cache.size === stat.size) return this.cache.file;
    const file = readJsonFile<TokensFile>(this.file) ?? { tokens: [] };
    this.cache = { mtimeMs: stat.mtimeMs, size: stat.size, file };
    return file;
  }

  private write(file: TokensFile): void {
    writeJsonAtomic(this.file, file);
    this.cache = undefined;
  }

  /** Makes a token (admin unless a role is given; expiring after `expiresInMs` when given) and returns it: the only time it is seen in the clear. */
  create(name: string, options: { role?: Role; expiresInMs?: number } = {}): string {
    if (!NAME.test(name)) throw new ServeError('invalid-request', `a token name is 1 to 64 letters, digits, dots, dashes or underscores; got ${JSON.stringify(name)}`);
    if (options.expiresInMs !== undefined && !(options.expiresInMs > 0)) throw new ServeError('invalid-request', 'a token expires a positive time after it is made');
    const file = this.read();
    if (file.tokens.some((t) => t.name === name && this.isLive(t))) {
      throw new ServeError('conflict', `a token named ${name} exists; revoke it first (ptas serve token revoke --name ${name}) or choose another name`);
    }
    const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = this.now();
    const entry: StoredToken = {
      name,
      sha256: sha256(token).toString('hex'),
      createdAt: new Date(now).toISOString(),
      role: options.role ?? DEFAULT_ROLE,
      ...(options.expiresInMs !== undefined ? { expiresAt: new Date(now + options.expiresInMs).toISOString() } : {}),
    };
    this.write({ tokens: [...file.tokens.filter((t) => t.name !== name), entry] });
    return token;
  }

  /** The live token this is, its name and role; undefined for a wrong, revoked, expired or missing one. Every stored hash is compared, in constant time. */
  verify(token: string | undefined): VerifiedToken | undefined {
    const presented = sha256(token ?? '');
    let match: StoredToken | undefined;
    for (const stored of this.read().tokens) {
      const hash = Buffer.from(stored.sha256, 'hex');
      if (hash.length === presented.length && timingSafeEqual(hash, presented) && this.isLive(stored) && token) match = stored;
    }
    return match && { name: match.name, role: match.role ?? DEFAULT_ROLE };
  }

  /** Revokes the live token of that name; false when there is none (never made, revoked or expired). */
  revoke(name: string): boolean {
    const file = this.read();
    const live = file.tokens.find((t) => t.name === name && this.isLive(t));
    if (!live) return false;
    this.write({ tokens: file.tokens.map((t) => (t === live ? { ...t, revokedAt: new Date(this.now()).toISOString() } : t)) });
    return true;
  }

  list(): TokenInfo[] {
    return this.read().tokens.map(({ name, createdAt, role, expiresAt, revokedAt }) => ({ name, createdAt, role: role ?? DEFAULT_ROLE, ...(expiresAt ? { expiresAt } : {}), ...(revokedAt ? { revokedAt } : {}) }));
  }

  /** Whether the listed token still works: neither revoked nor expired. */
  isLiveInfo(info: TokenInfo): boolean {
    return this.isLive(info);
  }

  /** Whether any token still works (a first start makes one when none does). */
  hasLiveToken(): boolean {
    return this.read().tokens.some((t) => this.isLive(t));
  }

  /** On a start with no live token: one named first-run (or first-run-2, …), returned once. */
  createFirstRunToken(): { name: string; token: string } | undefined {
    if (this.hasLiveToken()) return undefined;
    const taken = new Set(this.read().tokens.map((t) => t.name));
    let name = FIRST_RUN_TOKEN;
    for (let n = 2; taken.has(name); n++) name = `${FIRST_RUN_TOKEN}-${n}`;
    return { name, token: this.create(name) };
  }
}
