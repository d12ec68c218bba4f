// What the issued tokens themselves are (spec 2.1 "string (JWT)", RFC 7519,
// 5): their form, their time claims, the lifetime expires_in announces, and
// whether they verify against the configured key set. The check decodes and
// verifies the tokens (which a record keeps only redacted); the judgments
// read what that showed — headers, time claims, verification problems — and
// nothing else. Named and pure (src/check/judgments.ts).
import { defineJudgment } from '../../src/check/judgments.ts';
import { readJwt } from '../../src/auth/jwt.ts';
import { millisecondTimeClaims } from '../../src/auth/numeric-date.ts';

/** The time claims a NumericDate judgment reads (RFC 7519 4.1.4-6), as the payload has them: only those present. */
export type TimeClaims = Partial<Record<'exp' | 'iat' | 'nbf', unknown>>;

/** Of a JSON object, only the members named, and only those present (so a JSON round trip keeps it as it is). */
function pick<K extends string>(object: Record<string, unknown>, keys: readonly K[]): Partial<Record<K, unknown>> {
  return Object.fromEntries(keys.filter((k) => Object.hasOwn(object, k)).map((k) => [k, object[k]])) as Partial<Record<K, unknown>>;
}

export const timeClaimsOf = (payload: Record<string, unknown>): TimeClaims => pick(payload, ['exp', 'iat', 'nbf']);

/** A token as read as a JWT: why it is none, an encrypted one's header, or a signed one's header, time claims and claim names. */
export type ReadToken =
  | { problem: string }
  | { form: 'JWE'; header: Partial<Record<'alg' | 'enc', unknown>> }
  | { form: 'JWS'; header: Partial<Record<'alg' | 'typ', unknown>>; timeClaims: TimeClaims; claims: string[] };

/** What the judgment auth.tokens-are-jwts reads of a token (the token itself is not kept). */
export function readToken(token: string): ReadToken {
  const jwt = readJwt(token);
  if (typeof jwt === 'string') return { problem: jwt };
  if (jwt.form === 'JWE') return { form: 'JWE', header: pick(jwt.header, ['alg', 'enc']) };
  const { header, payload } = jwt.decoded;
  return { form: 'JWS', header: pick(header, ['alg', 'typ']), timeClaims: timeClaimsOf(payload), claims: Object.keys(payload) };
}

export interface IssuedTokens {
  tokens: Array<{ name: 'access_token' | 'refresh_token'; read: ReadToken }>;
  /** When the pair was asked for (ms since the epoch): what a time claim written in milliseconds lands near. */
  issuedAtMs: number;
  status: number;
  exchange: number;
}

/**
 * 2.1 types both tokens "string (JWT)"; RFC 7519 1 says what a JWT is (a JWS
 * or a JWE Compact Serialization), and 2 that its time claims count seconds.
 * A token that is no JWT, or a time claim in milliseconds, FAILs on those
 * sentences; an encrypted token's claims are not readable (noted).
 */
export const tokensAreJwts = defineJudgment<IssuedTokens>('auth.tokens-are-jwts', (input, says) => {
  const { exchange } = input;
  const observed = { kind: 'answer' as const, status: input.status };
  for (const { name, read } of input.tokens) {
    if ('problem' in read) return says.fail(`${name} is not a JWT: it ${read.problem}`, { field: name, exchange }, { on: 'RFC7519-1', observed });
    if (read.form === 'JWE') {
      says.note(`${name}: an encrypted JWT (JWE), alg ${String(read.header.alg)}, enc ${String(read.header.enc)}: its claims are not readable`);
      continue;
    }
    const [wrong] = millisecondTimeClaims(read.timeClaims, input.issuedAtMs);
    if (wrong) {
      return says.fail(
        `${name}'s ${wrong.claim} claim ${wrong.value} counts milliseconds (it names ${wrong.asMilliseconds} only when read so): a NumericDate counts seconds`,
        { field: `${name}.${wrong.claim}`, actual: wrong.value, exchange },
        { on: 'RFC7519-2', observed },
      );
    }
    says.note(`${name}: alg ${String(read.header.alg)}${read.header.typ ? `, typ ${String(read.header.typ)}` : ''}`, { claims: read.claims });
  }
});

type ExpiresInUnit = 'seconds' | 'milliseconds';

const inSeconds = (expiresIn: number, unit: ExpiresInUnit) => (unit === 'milliseconds' ? expiresIn / 1000 : expiresIn);

export interface AnnouncedLifetime {
  /** The answer's expires_in (a finite number: the check skips otherwise). */
  expiresIn: number;
  /** The access token's time claims; exp is a number (the check skips otherwise). */
  timeClaims: TimeClaims & { exp: number };
  /** When the pair was asked for (ms since the epoch): the issue time when the token has no iat, and what a claim in milliseconds lands near. */
  issuedAtMs: number;
  /** auth.expiresInUnit as the profile declares it (null: not declared). */
  declaredUnit: ExpiresInUnit | null;
}

/**
 * expires_in against the lifetime the token's claims give (exp - iat, or exp
 * less the time it was asked for). 2.1 does not show the unit of expires_in,
 * so only the profile's declaration (auth.expiresInUnit) makes a
 * disagreement a FAIL; without one the units it matches are for review. Time
 * claims in milliseconds give no lifetime to compare (ERROR: the
 * tokens-are-jwts check judges them).
 */
export const expiresInAgreesWithExp = defineJudgment<AnnouncedLifetime>('auth.expires-in-agrees-with-exp', (input, says) => {
  const { expiresIn, timeClaims, issuedAtMs, declaredUnit: declared } = input;
  const { exp, iat } = timeClaims;
  const inMilliseconds = millisecondTimeClaims(timeClaims, issuedAtMs).map((c) => c.claim);
  if (inMilliseconds.length) return says.notObserved(`the access token's ${inMilliseconds.join(' and ')} count milliseconds, so no lifetime can be read from its claims: see auth.tokens-are-jwts`, { claims: inMilliseconds });
  const issuedAt = typeof iat === 'number' ? iat : Math.floor(issuedAtMs / 1000);
  const lifetime = exp - issuedAt;
  // Clocks and rounding: a few seconds, or 5 % of a long lifetime.
  const tolerance = Math.max(5, lifetime * 0.05);
  const agreesIn = (unit: ExpiresInUnit) => Math.abs(lifetime - inSeconds(expiresIn, unit)) <= tolerance;
  const observed = { expires_in: expiresIn, declaredUnit: declared, exp, iat: iat ?? null, lifetimeFromClaims: lifetime };
  if (declared) {
    // 2.1: "Unit: not shown." Only the profile's declaration makes a disagreement a FAIL.
    if (!agreesIn(declared)) return says.failDeclared('auth.expiresInUnit', declared, `expires_in ${expiresIn} read in ${declared} (auth.expiresInUnit) disagrees with exp - iat = ${lifetime} s`, observed);
    says.note(`expires_in ${expiresIn} matches exp - iat = ${lifetime} s in the declared unit (${declared})`, observed);
    return;
  }
  const matching = (['seconds', 'milliseconds'] as const).filter(agreesIn);
  says.review(
    matching.length
      ? `expires_in ${expiresIn} matches exp - iat = ${lifetime} s when read in ${matching.join(' or ')}; the spec does not show the unit (set auth.expiresInUnit to declare it)`
      : `expires_in ${expiresIn} matches exp - iat = ${lifetime} s in neither seconds nor milliseconds; the spec does not show the unit (set auth.expiresInUnit to declare it)`,
    observed,
  );
});

export interface KeySetVerification {
  /** The profile key that configured the key set, and the value it declares. */
  declaredBy: 'auth.jwksFile' | 'auth.jwksUrl';
  declaredValue: string | null;
  /** The set's key ids ('(no kid)' for a key without one). */
  keys: string[];
  /** Why each token does not verify against the set (null: it verifies). */
  accessProblem: string | null;
  refreshProblem: string | null;
}

/**
 * The spec shows neither the JWKS operation nor which key signs what: the
 * profile's configured set declares it verifies access tokens, so an access
 * token that does not FAILs against that declaration. A refresh token only
 * ever goes back to its issuer, who may sign it with a key it publishes
 * nowhere: for review either way.
 */
export const tokensVerifyAgainstJwks = defineJudgment<KeySetVerification>('auth.tokens-verify-against-jwks', (input, says) => {
  const { keys, accessProblem, refreshProblem } = input;
  if (accessProblem !== null) return says.failDeclared(input.declaredBy, input.declaredValue ?? undefined, `the access token does not verify against the configured JWK Set: ${accessProblem}`, { keys });
  says.review(
    refreshProblem !== null
      ? `the access token verifies against the JWK Set (${keys.length} key(s)); the refresh token does not (${refreshProblem}), which the spec leaves open: only its issuer needs to verify it`
      : `both tokens verify against the JWK Set (${keys.length} key(s))`,
    { keys },
  );
});
