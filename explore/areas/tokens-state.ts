// What the explored token lifecycle knows of the tokens one case obtained
// (explore/areas/tokens.ts): each refresh token's standing and each access
// token's, so each step knows what the spec allows for the token it sends.
// Pure: no request, no clock but the times it is given.
//
//   - a refresh token is fresh (issued, never presented: a refresh with it
//     must work, 4.1 rule 2 and 2.1), used (exchanged once: it must be
//     refused, 5 rule 2) or unsettled (the spec does not say what it is now:
//     anything it gets is recorded, never judged);
//   - an access token is trusted (issued to a request the spec grants and
//     nothing since may have ended it: it must be let in, 5 rules 1-2) or
//     not (recorded).
//
// What makes a token unsettled, each a behaviour the spec leaves open:
//   - a refused or failed presentation of it (a refresh without client_id,
//     with another client's id, a forged copy, a server error): whether that
//     spends or revokes it is not shown;
//   - anything refused or failed in its family (the tokens issued from one
//     client_credentials pair by refreshes): reuse detection may revoke the
//     whole family, and its access tokens with it (5 rule 2 says only that
//     each refresh token is single-use; the revoke operation is "not shown");
//   - a simultaneous refresh with it: the losers are reuses of a used token;
//   - a later client_credentials pair: whether it retires the client's
//     earlier ones is not shown;
//   - a value equal to another token's the case holds (other than the one a
//     refresh used: handing that back is 2.1's to judge).

export type Standing = 'fresh' | 'used' | 'unsettled';

export interface RefreshToken {
  /** The order of issue in the case (refresh and access tokens counted apart). */
  id: number;
  value: string;
  /** Tokens issued from one client_credentials pair by refreshes share a family. */
  family: number;
  standing: Standing;
  /** Why it is unsettled, in words. */
  why?: string;
  issuedBy: 'client_credentials' | 'refresh';
  /** The refresh token whose refresh issued it. */
  parent?: number;
  /** The access token issued in the same answer. */
  companion?: number;
  /** When the answer that issued it was received (ms since the epoch). */
  receivedAt: number;
}

export interface AccessToken {
  id: number;
  value: string;
  family: number;
  trusted: boolean;
  /** Why it is not trusted, in words. */
  why?: string;
  /** When the request for it was sent (ms since the epoch): its lifetime counts from no earlier. */
  askedAt: number;
  /** expires_in as the answer gave it (NaN: none). */
  expiresIn: number;
}

/** What a refresh with a refresh token of this standing must get. */
export type RefreshExpectation =
  /** A fresh token of a client_credentials pair: 200 with a renewed access token (4.1 rule 2). */
  | 'renews'
  /** A fresh token a refresh handed out: its first use must work (2.1, "Credential used to obtain the next token pair"). */
  | 'first-use-of-successor'
  /** A used token: refused (5 rule 2, single use). */
  | 'refused'
  /** The spec does not say: recorded. */
  | 'open';

export interface Issued {
  grant: 'client_credentials' | 'refresh';
  accessToken: string;
  /** Absent when the answer carried none (a refresh need not: 4.1 rule 2). */
  refreshToken?: string;
  expiresIn: number;
  askedAt: number;
  receivedAt: number;
  /** The refresh token a refresh exchanged. */
  parent?: RefreshToken;
  /** Issued to a request the spec grants, with a fresh token: its tokens are fresh and trusted; else unsettled, and why. */
  granted: boolean;
  why?: string;
}

export class TokenLifecycle {
  readonly refreshTokens: RefreshToken[] = [];
  readonly accessTokens: AccessToken[] = [];
  private families = 0;

  /** The tokens of an answer that issued them; returns them. */
  issued(answer: Issued): { access: AccessToken; refresh?: RefreshToken } {
    let family: number;
    if (answer.grant === 'client_credentials' || !answer.parent) {
      family = ++this.families;
      for (let f = 1; f < family; f++) this.unsettleFamily(f, 'a later client_credentials pair was issued, which may retire the earlier ones (not shown)');
    } else family = answer.parent.family;
    const why = answer.granted ? undefined : (answer.why ?? 'issued to a request the spec does not grant');
    const access: AccessToken = {
      id: this.accessTokens.length + 1,
      value: answer.accessToken,
      family,
      trusted: answer.granted,
      ...(why ? { why } : {}),
      askedAt: answer.askedAt,
      expiresIn: answer.expiresIn,
    };
    this.accessTokens.push(access);
    if (answer.refreshToken === undefined) return { access };
    const twin = this.refreshTokens.find((t) => t.value === answer.refreshToken && t.id !== answer.parent?.id);
    const unsettled = why ?? (twin ? `the same token as refresh token ${twin.id}, issued before` : undefined);
    const refresh: RefreshToken = {
      id: this.refreshTokens.length + 1,
      value: answer.refreshToken,
      family,
      standing: unsettled ? 'unsettled' : 'fresh',
      ...(unsettled ? { why: unsettled } : {}),
      issuedBy: answer.grant === 'client_credentials' ? 'client_credentials' : 'refresh',
      ...(answer.parent ? { parent: answer.parent.id } : {}),
      companion: access.id,
      receivedAt: answer.receivedAt,
    };
    this.refreshTokens.push(refresh);
    return { access, refresh };
  }

  /** A refresh with it succeeded: it is used. */
  used(token: RefreshToken): void {
    token.standing = 'used';
    delete token.why;
  }

  /** What it is now is not shown (a used token stays used: it must be refused whatever happened since). */
  unsettle(token: RefreshToken, why: string): void {
    if (token.standing === 'used') return;
    if (token.standing === 'fresh') token.why = why;
    token.standing = 'unsettled';
  }

  distrust(token: AccessToken, why: string): void {
    if (!token.trusted) return;
    token.trusted = false;
    token.why = why;
  }

  /** Every fresh refresh token and trusted access token of the family becomes unsettled. */
  unsettleFamily(family: number, why: string): void {
    for (const t of this.refreshTokens) if (t.family === family) this.unsettle(t, why);
    for (const t of this.accessTokens) if (t.family === family) this.distrust(t, why);
  }

  /** A refresh with `token` was refused or failed (or was a race): it and its family are unsettled. */
  presentationFailed(token: RefreshToken, why: string): void {
    this.unsettle(token, why);
    this.unsettleFamily(token.family, `${why}, which may revoke the tokens of its family (not shown)`);
  }

  newestRefresh(): RefreshToken | undefined {
    return this.refreshTokens.at(-1);
  }

  /** One of the used refresh tokens (`pick` chooses which), if the case has one. */
  usedRefresh(pick: number): RefreshToken | undefined {
    const used = this.refreshTokens.filter((t) => t.standing === 'used');
    return used.length ? used[pick % used.length] : undefined;
  }

  newestAccess(): AccessToken | undefined {
    return this.accessTokens.at(-1);
  }

  /** One of the access tokens issued before the newest (`pick` chooses which), other than the newest's value. */
  olderAccess(pick: number): AccessToken | undefined {
    const newest = this.newestAccess();
    const older = this.accessTokens.filter((t) => t !== newest && t.value !== newest?.value);
    return older.length ? older[pick % older.length] : undefined;
  }

  refreshById(id: number | undefined): RefreshToken | undefined {
    return id === undefined ? undefined : this.refreshTokens.find((t) => t.id === id);
  }

  accessById(id: number | undefined): AccessToken | undefined {
    return id === undefined ? undefined : this.accessTokens.find((t) => t.id === id);
  }
}

/** What a refresh (with the own client_id) with this token must get. */
export function refreshExpectation(token: RefreshToken): RefreshExpectation {
  if (token.standing === 'used') return 'refused';
  if (token.standing === 'unsettled') return 'open';
  return token.issuedBy === 'client_credentials' ? 'renews' : 'first-use-of-successor';
}

/**
 * A 401 to an access token that may have run out: it was asked for
 * `elapsedMs` before the answer came, and `earliestExpiryMs` (expires_in
 * less a whole second, src/auth/tokens.ts) is as soon as it may end.
 */
export function mayHaveRunOut(status: number, elapsedMs: number, earliestExpiryMs: number | undefined): boolean {
  return status === 401 && earliestExpiryMs !== undefined && elapsedMs >= earliestExpiryMs;
}
