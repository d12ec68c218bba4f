// Obtains and renews credentials through the token endpoint (spec 4.1). The
// worker keeps one access token for checks that only need to be let in;
// checks about tokens themselves issue fresh pairs through their own
// recording client so the exchanges become their evidence.
import type { HttpClient, HttpResponse } from '../http/client.ts';
import type { BearerSource } from '../http/outgoing.ts';
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

/** An access token's lifetime in ms by its expires_in, in the unit auth.expiresInUnit declares (seconds, as OAuth has it); undefined when it gives none. */
export function tokenLifetimeMs(profile: ResolvedProfile, expiresIn: number): number | undefined {
  const unitMs = profile.auth?.expiresInUnit === 'milliseconds' ? 1 : 1000;
  return Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * unitMs : undefined;
}

/** How much sooner than expires_in a correct server may end a token: it may keep whole seconds (a JWT's iat and exp are NumericDates, RFC 7519 section 2, commonly whole), counting the lifetime from the start of the second it issued the token in. */
const WHOLE_SECOND_MS = 1000;

/**
 * The soonest, counted from the request for it, that a token with this
 * expires_in may be refused as run out: its lifetime less the whole second a
 * server keeping whole-second timestamps may cut from it. Undefined when
 * expires_in gives no lifetime.
 */
export function earliestExpiryMs(profile: ResolvedProfile, expiresIn: number): number | undefined {
  const lifetimeMs = tokenLifetimeMs(profile, expiresIn);
  return lifetimeMs === undefined ? undefined : Math.max(0, lifetimeMs - WHOLE_SECOND_MS);
}

/**
 * The suite's own access token (a worker's, a load instance's, the doctor's):
 * one pair from client_credentials, renewed before half its lifetime has run
 * out (expires_in, in the unit auth.expiresInUnit declares: seconds, as OAuth
 * has it), and at once when the target answers 401 to it. A BearerSource: a
 * request given it reads the token as it is sent, so no wait (a poll, an
 * expiry) leaves a check holding a token that ran out. Renewal takes a new
 * pair from client_credentials, not the refresh grant: the refresh grant is
 * under test (4.1 rule 2), and a fault there must fail its own checks, not
 * stop every other one.
 */
export class AccessTokenCache implements BearerSource {
  private current_?: { token: string; renewAt: number };
  /** The lifetime of the token held last, as expires_in gave it (undefined: it gave none the profile can read). */
  lifetimeMs?: number;
  private pending?: Promise<string>;

  constructor(
    private readonly http: HttpClient,
    private readonly profile: ResolvedProfile,
    private readonly now: () => number = Date.now,
  ) {}

  /** The token to send now. */
  async get(): Promise<string> {
    if (this.current_ && this.now() < this.current_.renewAt) return this.current_.token;
    return this.renew();
  }

  current(): Promise<string> {
    return this.get();
  }

  /** A token other than the one the target refused: a new one, unless another request has renewed it already. */
  async renewed(rejected: string): Promise<string> {
    if (this.current_ && this.current_.token !== rejected && this.now() < this.current_.renewAt) return this.current_.token;
    if (this.current_?.token === rejected) this.current_ = undefined;
    return this.renew();
  }

  private renew(): Promise<string> {
    this.pending ??= this.fetch().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /**
   * Starts from a token obtained elsewhere (the doctor's token step), with the
   * expires_in it came with; `askedAt`: when it was asked for, from which its
   * lifetime counts (default: now).
   */
  hold(token: string, expiresIn: number, askedAt = this.now()): this {
    // Renew at half-life, so a request never starts with a token about to expire.
    this.lifetimeMs = tokenLifetimeMs(this.profile, expiresIn);
    this.current_ = { token, renewAt: askedAt + (this.lifetimeMs ?? 60_000) / 2 };
    return this;
  }

  private async fetch(): Promise<string> {
    // The lifetime runs from when the token was issued, which is no earlier than the request for it: counted from
    // the answer instead, a slow answer (or a busy worker reading it late) left a 3 s token held past its end.
    const askedAt = this.now();
    const pair = await issuePair(this.http, this.profile, "the suite's own access token");
    this.hold(pair.accessToken, pair.expiresIn, askedAt);
    return pair.accessToken;
  }
}
