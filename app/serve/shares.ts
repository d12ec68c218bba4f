// Read-only share links to one run's report: /share/<token>, where the token
// is 24 random bytes (base64url), unguessable; the store keeps only its
// SHA-256 (shares.json), so the link is shown once, when it is made.
// Revoking a run's links ends every one of them.
import { randomBytes } from 'node:crypto';
import { readJsonFile, writeJsonAtomic } from './store/atomic.ts';
import { sha256 } from './tokens.ts';

interface StoredShare {
  sha256: string;
  runId: string;
  createdAt: string;
  revokedAt?: string;
}

interface SharesFile {
  shares: StoredShare[];
}

/** A share token as the route accepts it. */
export const SHARE_TOKEN_PATTERN = '^[A-Za-z0-9_-]{32}$';

export class ShareStore {
  private file: SharesFile;

  constructor(private readonly path: string) {
    this.file = readJsonFile<SharesFile>(path) ?? { shares: [] };
  }

  private write(file: SharesFile): void {
    writeJsonAtomic(this.path, file);
    this.file = file;
  }

  /** A new link's token for the run. */
  create(runId: string): string {
    const token = randomBytes(24).toString('base64url');
    this.write({ shares: [...this.file.shares, { sha256: sha256(token).toString('hex'), runId, createdAt: new Date().toISOString() }] });
    return token;
  }

  /** The run a live link shows, or undefined. */
  resolve(token: string): string | undefined {
    const hash = sha256(token).toString('hex');
    return this.file.shares.find((s) => s.sha256 === hash && !s.revokedAt)?.runId;
  }

  /** Revokes every live link of the run; how many there were. */
  revoke(runId: string): number {
    const now = new Date().toISOString();
    let revoked = 0;
    const shares = this.file.shares.map((s) => {
      if (s.runId !== runId || s.revokedAt) return s;
      revoked++;
      return { ...s, revokedAt: now };
    });
    if (revoked) this.write({ shares });
    return revoked;
  }

  /** How many live links the run has. */
  live(runId: string): number {
    return this.file.shares.filter((s) => s.runId === runId && !s.revokedAt).length;
  }
}
