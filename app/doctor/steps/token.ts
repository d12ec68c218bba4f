// Step 1: an access token by client credentials (spec 4.1 rule 1). Every
// later step needs it (renewed as the suite renews its own: src/auth/tokens.ts);
// without one they are skipped, not failed.
import { AccessTokenCache, clientCredentialsBody, postToken, TOKEN_PATH } from '../../../src/auth/tokens.ts';
import { bodySnippet } from '../diagnose.ts';
import { okRow, problemRow, type DoctorContext } from '../model.ts';

const OPERATION = 'token';
const KEY = 'credentials';

export async function tokenStep(ctx: DoctorContext): Promise<void> {
  // A 429 or 503 is waited out by the client (src/http/transient.ts), so a tight limit does not read as wrong credentials.
  const res = await postToken(ctx.http, clientCredentialsBody(ctx.profile), 'doctor: access token (client_credentials)');
  const request = ctx.exchanges.requestLine(res);
  const body = res.json as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown } | undefined;
  if (res.status === 200 && typeof body?.access_token === 'string' && body.access_token) {
    // Renewed before it runs out, and after a 401 to it, for the steps that follow (a slow webhook can outlast a short lifetime).
    ctx.bearer = new AccessTokenCache(ctx.http, ctx.profile).hold(body.access_token, Number(body.expires_in));
    const refresh = typeof body.refresh_token === 'string' ? ', refresh token' : ', no refresh token';
    const expires = body.expires_in === undefined ? '' : `, expires_in ${JSON.stringify(body.expires_in)}`;
    ctx.report(okRow(OPERATION, KEY, request, `200 access token${refresh}${expires}`));
    return;
  }
  const answer = `${res.status} ${bodySnippet(res, ctx.http.redactor)}`.trim();
  const fix =
    res.status === 404 || res.status === 405
      ? `nothing answers ${TOKEN_PATH} there: check baseUrl (${ctx.profile.baseUrl})`
      : res.status === 200
        ? `the answer carries no access_token: is baseUrl (${ctx.profile.baseUrl}) the service's own address?`
        : 'check credentials.clientId and credentials.clientSecret (PTAS_CLIENT_ID, PTAS_CLIENT_SECRET)';
  ctx.report(problemRow(OPERATION, KEY, { request, answer, problem: `the token endpoint issued no access token (${res.status})`, fix }));
}
