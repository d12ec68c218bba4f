// What a token request that must be refused did, when it was answered with
// a server error (src/check/server-error.ts weighs it). A token issued leaves
// two traces a client can read: a token in the answer itself, and — for a
// refresh — the refresh token spent, which a refresh with it afterwards shows
// (4.1 rule 2 invalidates it only with a response that carries a renewed
// access token). A client_credentials pair issued and not handed over leaves
// none: no operation shows the tokens issued.
import { isServerError, isSuccess, type HttpClient, type HttpResponse } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { postToken, refreshBody } from '../../src/auth/tokens.ts';
import { effectUnknown, executed, nothingExecuted, type Effect } from '../../src/check/server-error.ts';
import { isTransientStatus } from '../../src/http/transient.ts';

/** 4.1 rule 2: a refresh invalidates the refresh token it used with a response that carries a renewed access token. */
const REFRESH_RULE = 'SPEC-4-1-RULE-2';

const NO_TRACE = 'the answer carries no token, and no operation shows the tokens issued';

/** A token the answer hands out despite its status: the request was executed. */
function tokenIn(res: HttpResponse): string | undefined {
  const body = res.json as Record<string, unknown> | null | undefined;
  return ['access_token', 'refresh_token'].find((field) => typeof body?.[field] === 'string' && body[field] !== '');
}

/**
 * The effect of a token request where a refusal was due, as its answer shows
 * it (weighed only when that answer is a server error). `on` is the sentence
 * of the rule the request breaks, which a token handed out contradicts.
 */
export function tokenRequestEffect(res: HttpResponse, on: string): Effect {
  const field = tokenIn(res);
  return field ? executed(`handed out a token (${field}) in its answer`, on) : effectUnknown(NO_TRACE);
}

/**
 * The effect of a refresh where a refusal was due: a token in the answer,
 * else, after a server error, whether `refreshToken` was spent — a proper
 * refresh with it afterwards (which spends it, if it was not): answered 200,
 * the first request left it alone; refused, the first request spent it.
 */
export async function refreshRequestEffect(http: HttpClient, profile: ResolvedProfile, res: HttpResponse, refreshToken: string, on: string): Promise<Effect> {
  const inAnswer = tokenRequestEffect(res, on);
  if (inAnswer.kind !== 'unknown' || !isServerError(res.status)) return inAnswer;
  const after = await postToken(http, refreshBody(profile, refreshToken), `refresh with the same refresh token, to see whether the ${res.status} spent it`);
  if (isSuccess(after.status)) return nothingExecuted(`a refresh with the same refresh token afterwards was answered ${after.status}, so the ${res.status} did not spend it`);
  if (after.status >= 400 && after.status < 500 && !isTransientStatus(after.status) && after.status !== 413) {
    return executed(`spent its refresh token without handing out an access token: a refresh with it afterwards was refused ${after.status}`, REFRESH_RULE);
  }
  return effectUnknown(`a refresh with the same refresh token afterwards was answered ${after.status}, which shows neither`);
}
