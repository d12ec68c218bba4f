// Read-only share links to one run's report: /share/<token>, where the token
// is 24 random bytes (base64url), unguessable; the store keeps only its
// SHA-256 (shares.json), so the link is shown once, when it is made. A link
// may expire (it stops resolving then, as a revoked one does); each has a
// public id (not the token) by which it is listed and revoked alone, and
// revoking a run's links ends every one of them.
import { randomBytes } from 'node:crypto';
import { readJsonFile, writeJsonAtomic } from './store/atomic.ts';
import { sha256 } from './tokens.ts';

interface StoredShare {
  sha256: string;
  runId: string;
  createdAt: string;
  /** Absent in links made before ids were kept: the hash's first 12 hex digits stand in (shareId). */
  id?: string;
  /** The name of the token (or console session's token) that made it. */
  createdBy?: string;
  expiresAt?: string;
  revokedAt?: string;
}

interface SharesFile {
  shares: StoredShare[];
}

/** A link as it is listed: never its token. */
export interface ShareInfo {
  id: string;
  runId: string;
  createdAt: string;
  createdBy?: string;
  /** Absent: the link lives until it is revoked. */
  expiresAt?: string;
  revokedAt?: string;
  /** Neither revoked nor expired. */
  live: boolean;
}

/** A share token as the route accepts it. */
export const SHARE_TOKEN_PATTERN = '^[A-Za-z0-9_-]{32}$';
/** A share's public id as the route accepts it. */
export const SHARE_ID_PATTERN = '^[0-9a-f]{12}$';

const shareId = (s: StoredShare): string => s.id ?? s.sha256.slice(0, 12);

export class ShareStore {
  private file: SharesFile;

  constructor(
    private readonly path: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = readJsonFile<SharesFile>(path) ?? { shares: [] };
  }

  private write(file: SharesFile): void {
    writeJsonAtomic(this.path, file);
    this.file = file;
  }

  private isLive(s: StoredShare): boolean {
    return !s.revokedAt && (s.expiresAt === undefined || Date.parse(s.expiresAt) > this.now());
  }

  private info(s: StoredShare): ShareInfo {
    return {
      id: shareId(s),
      runId: s.runId,
      createdAt: s.createdAt,
      ...(s.createdBy !== undefined ? { createdBy: s.createdBy } : {}),
      ...(s.expiresAt !== undefined ? { expiresAt: s.expiresAt } : {}),
      ...(s.revokedAt !== undefined ? { revokedAt: s.revokedAt } : {}),
      live: this.isLive(s),
    };
  }

  /** A new link's token for the run, and the link as it is listed; it expires after `expiresInMs` when given. */
  create(runId: string, options: { expiresInMs?: number; createdBy?: string } = {}): { token: string; share: ShareInfo } {
    const token = randomBytes(24).toString('base64url');
    const now = this.now();
    const stored: StoredShare = {
      sha256: sha256(token).toString('hex'),
      id: randomBytes(6).toString('hex'),
      runId,
      createdAt: new Date(now).toISOString(),
      ...(options.createdBy !== undefined ? { createdBy: options.createdBy } : {}),
      ...(options.expiresInMs !== undefined ? { expiresAt: new Date(now + options.expiresInMs).toISOString() } : {}),
    };
    this.write({ shares: [...this.file.shares, stored] });
    return { token, share: this.info(stored) };
  }

  /** The live link a token is: its run, and when it expires; undefined when revoked, expired or never made. */
  resolve(token: string): ShareInfo | undefined {
    const hash = sha256(token).toString('hex');
    const stored = this.file.shares.find((s) => s.sha256 === hash);
    return stored && this.isLive(stored) ? this.info(stored) : undefined;
  }

  /** Every link of the run, oldest first. */
  list(runId: string): ShareInfo[] {
    return this.file.shares.filter((s) => s.runId === runId).map((s) => this.info(s));
  }

  /** Revokes the run's live links (every one, or the one with this id); how many there were. */
  revoke(runId: string, id?: string): number {
    const now = new Date(this.now()).toISOString();
    let revoked = 0;
    const shares = this.file.shares.map((s) => {
      if (s.runId !== runId || s.revokedAt || (id !== undefined && shareId(s) !== id)) return s;
      revoked++;
      return { ...s, revokedAt: now };
    });
    if (revoked) this.write({ shares });
    return revoked;
  }

  /** How many live links the run has. */
  live(runId: string): number {
    return this.file.shares.filter((s) => s.runId === runId && this.isLive(s)).length;
  }
}
