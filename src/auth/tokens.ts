// Obtains and renews credentials through the token endpoint (spec 4.1). The
// worker keeps one access token for checks that only need to be let in;
// checks about tokens themselves issue fresh pairs through their own
// recording client so the exchanges become their evidence.
import type { HttpClient, HttpResponse } from '../http/client.ts';
import type { ResolvedProfile } from '../config/profile.ts';
import { PtasError } from '../errors.ts';

export const TOKEN_PATH = '/v1/oauth/token';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  response: HttpResponse;
}

/**
 * What a refresh returns. 4.1 rule 2 only says the response carries a
 * renewed access token; whether it also carries a refresh token is not
 * shown, so refreshToken may be absent.
 */
export interface RenewedTokens {
  accessToken: string;
  refreshToken?: string;
  expiresIn: number;
  response: HttpResponse;
}

/** A response the setup of a check cannot proceed from. */
export class TokenSetupError extends PtasError {
  readonly code = 'token-setup';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'TokenSetupError';
  }

  override checkReason(): string {
    return `set-up failed: ${this.message}`;
  }
}

export function clientCredentialsBody(profile: ResolvedProfile): Record<string, string> {
  return {
    grant_type: 'client_credentials',
    client_id: profile.credentials.clientId,
    client_secret: profile.credentials.clientSecret,
  };
}

/** A refresh_token grant; clientId defaults to the profile's client (another client's id tests the binding). */
export function refreshBody(profile: ResolvedProfile, refreshToken: string, clientId = profile.credentials.clientId): Record<string, string> {
  return { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken };
}

function setupError(res: HttpResponse, what: string): TokenSetupError {
  return new TokenSetupError(`token endpoint did not issue ${what} (status ${res.status}${res.jsonError ? `, ${res.jsonError}` : ''})`, res.status);
}

function pairFrom(res: HttpResponse): TokenPair {
  const renewed = renewedFrom(res, 'a token pair');
  if (renewed.refreshToken === undefined) throw setupError(res, 'a token pair');
  return { ...renewed, refreshToken: renewed.refreshToken };
}

/** The tokens of a 200 answer; a refresh token only when the body carries one as a non-empty string. */
function renewedFrom(res: HttpResponse, what: string): RenewedTokens {
  const body = res.json as Record<string, unknown> | undefined;
  const accessToken = body?.access_token;
  const refreshToken = body?.refresh_token;
  if (res.status !== 200 || typeof accessToken !== 'string') throw setupError(res, what);
  return {
    accessToken,
    refreshToken: typeof refreshToken === 'string' && refreshToken !== '' ? refreshToken : undefined,
    expiresIn: Number(body?.expires_in),
    response: res,
  };
}

/** Posts to the token endpoint; the client asks again after a transient answer (src/http/transient.ts). */
export function postToken(http: HttpClient, body: unknown, label: string): Promise<HttpResponse> {
  return http.post(TOKEN_PATH, { json: body, label });
}

export async function issuePair(http: HttpClient, profile: ResolvedProfile, label = 'obtain a token pair (client_credentials)'): Promise<TokenPair> {
  return pairFrom(await postToken(http, clientCredentialsBody(profile), label));
}

/** A refresh_token grant that must succeed: a renewed access token, and the next refresh token when the response carries one. */
export async function renewTokens(http: HttpClient, profile: ResolvedProfile, refreshToken: string, label = 'refresh'): Promise<RenewedTokens> {
  return renewedFrom(await postToken(http, refreshBody(profile, refreshToken), label), 'a renewed access token');
}

/** The worker's shared access token, renewed before it expires. */
export class AccessTokenCache {
  private current?: { token: string; renewAt: number };
  private pending?: Promise<string>;

  constructor(
    private readonly http: HttpClient,
    private readonly profile: ResolvedProfile,
  ) {}

  async get(): Promise<string> {
    if (this.current && Date.now() < this.current.renewAt) return this.current.token;
    this.pending ??= this.fetch().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetch(): Promise<string> {
    const pair = await issuePair(this.http, this.profile, 'worker access token');
    const unitMs = this.profile.auth?.expiresInUnit === 'milliseconds' ? 1 : 1000;
    const lifetimeMs = Number.isFinite(pair.expiresIn) && pair.expiresIn > 0 ? pair.expiresIn * unitMs : 60_000;
    // Renew at half-life so a check never starts with a token about to expire.
    this.current = { token: pair.accessToken, renewAt: Date.now() + lifetimeMs / 2 };
    return pair.accessToken;
  }
}
