// Step 7: every JWK Set the profile names (auth.jwksUrl or auth.jwksFile, and
// webhooks.signature.jwksUrl or jwksFile), fetched the way the checks fetch
// them (auth.jwksAccess: anonymous, the bearer token, or one header).
import { JwksUnavailable, loadJwks, type JwksSource } from '../../../src/auth/jwks.ts';
import { okRow, problemRow, skippedRow, type DoctorContext } from '../model.ts';

interface KeySet {
  operation: string;
  key: string;
  source: JwksSource;
}

function keySets(ctx: DoctorContext): KeySet[] {
  const sets: KeySet[] = [];
  const auth = ctx.profile.auth;
  if (auth?.jwksFile) sets.push({ operation: 'token JWKS', key: 'auth.jwksFile', source: { kind: 'file', file: auth.jwksFile } });
  else if (auth?.jwksUrl) sets.push({ operation: 'token JWKS', key: 'auth.jwksUrl', source: { kind: 'url', url: auth.jwksUrl } });
  const signature = ctx.profile.webhooks?.signature;
  if (signature?.scheme === 'rfc9421') {
    if (signature.jwksFile) sets.push({ operation: 'webhook JWKS', key: 'webhooks.signature.jwksFile', source: { kind: 'file', file: signature.jwksFile } });
    else if (signature.jwksUrl) sets.push({ operation: 'webhook JWKS', key: 'webhooks.signature.jwksUrl', source: { kind: 'url', url: signature.jwksUrl } });
  }
  return sets;
}

export async function jwksSteps(ctx: DoctorContext): Promise<void> {
  const sets = keySets(ctx);
  if (!sets.length) return ctx.report(skippedRow('token JWKS', 'auth.jwksUrl'));
  for (const set of sets) await keySetStep(ctx, set);
}

async function keySetStep(ctx: DoctorContext, set: KeySet): Promise<void> {
  const bearer = ctx.bearer;
  const before = ctx.exchanges.count;
  const requestLine = () => {
    const sent = ctx.exchanges.exchanges.slice(before);
    if (set.source.kind === 'file') return `read ${set.source.file}`;
    return sent.map((e) => ctx.exchanges.requestLine(e.id)).join(', then ') || undefined;
  };
  try {
    const jwks = await loadJwks(set.source, ctx.http, { access: ctx.profile.auth?.jwksAccess, bearer });
    const kinds = [...new Set(jwks.keys.map((k) => [k.kty, k.crv ?? k.alg].filter(Boolean).join(' ')))].join(', ');
    // Unset, a 401 is retried with the bearer token: that works, but the profile should say so.
    const neededBearer = ctx.profile.auth?.jwksAccess === undefined && ctx.exchanges.exchanges.slice(before).some((e) => e.response?.status === 401);
    const hint = neededBearer ? '; answered 401 without the bearer token: declare "auth.jwksAccess": "bearer"' : '';
    ctx.report(okRow(set.operation, set.key, requestLine(), `${jwks.keys.length} key${jwks.keys.length === 1 ? '' : 's'}${kinds ? ` (${kinds})` : ''}${hint}`));
  } catch (error) {
    // A file that cannot be read or parsed, or a key set the target will not give: the profile's to fix. Anything else is not.
    const profileProblem = error instanceof JwksUnavailable || error instanceof SyntaxError || typeof (error as NodeJS.ErrnoException).errno === 'number';
    if (!profileProblem) throw error;
    const message = (error as Error).message;
    const denied = error instanceof JwksUnavailable && /answered 40[13]\b/.test(message);
    const key = denied ? 'auth.jwksAccess' : set.key;
    const fix = denied
      ? 'set auth.jwksAccess to how the key set is fetched: "bearer" (the partner token) or {"header": "…", "value": "…"}'
      : `point ${set.key} at the implementation's JSON Web Key Set (a JSON object with a "keys" array)`;
    ctx.report(problemRow(set.operation, key, { request: requestLine(), problem: message, fix }));
  }
}
