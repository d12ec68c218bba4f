// Whether the delivery the doctor received verifies with the profile's
// webhooks.signature (spec 5: the scheme and keys are not shown). The key
// set is fetched the way every JWK Set on the target is (auth.jwksAccess).
import { JwksUnavailable } from '../../../src/auth/jwks.ts';
import { WEBHOOK_DEFAULTS, type WebhooksProfile } from '../../../src/config/sections/webhooks.ts';
import type { ReceivedDelivery } from '../../../src/webhooks/delivery.ts';
import { signatureStrategy, type SignatureVerdict } from '../../../src/webhooks/signature/index.ts';
import { okRow, problemRow, skippedRow, type DoctorContext } from '../model.ts';

const OPERATION = 'webhook signature';
const KEY = 'webhooks.signature';

const FIXES: Record<NonNullable<SignatureVerdict['problem']>, string> = {
  signature: 'check the scheme and keys of webhooks.signature (jwksUrl, jwksFile, sharedSecret or secret) against what the implementation signs with',
  coverage: 'the signature leaves out a component webhooks.signature.requiredComponents lists: list only what the implementation covers',
  timing: 'the signature was created outside the allowed clock skew: check both clocks, or webhooks.dateSkewSeconds',
};

export async function signatureStep(ctx: DoctorContext, w: WebhooksProfile, delivery: ReceivedDelivery | undefined): Promise<void> {
  if (!w.signature) return ctx.report(skippedRow(OPERATION, KEY));
  if (!delivery) return ctx.report(skippedRow(OPERATION, KEY, 'not run: no delivery to verify'));
  const bearer = ctx.bearer;
  const skew = w.dateSkewSeconds ?? WEBHOOK_DEFAULTS.dateSkewSeconds;
  const before = ctx.exchanges.count;
  let strategy;
  try {
    strategy = await signatureStrategy(w.signature, ctx.http, skew, { access: ctx.profile.auth?.jwksAccess, bearer });
  } catch (error) {
    const fetched = ctx.exchanges.exchanges.slice(before).at(-1);
    const request = fetched ? ctx.exchanges.requestLine(fetched.id) : undefined;
    const message = (error as Error).message;
    const key = error instanceof JwksUnavailable && /\b40[13]\b/.test(message) ? 'auth.jwksAccess' : KEY;
    return ctx.report(problemRow(OPERATION, key, { request, problem: message, fix: key === 'auth.jwksAccess' ? 'set auth.jwksAccess to how the key set is fetched: "bearer" or {"header": …, "value": …}' : `check ${KEY}` }));
  }
  const verdict = await strategy.verify(delivery, new Date());
  if (verdict.verified) {
    return ctx.report(okRow(OPERATION, KEY, `delivery #${delivery.seq}`, `verifies: ${strategy.description}${verdict.warning ? ` (warning: ${verdict.warning})` : ''}`));
  }
  const fix = FIXES[verdict.problem ?? 'signature'];
  ctx.report(problemRow(OPERATION, KEY, { request: `delivery #${delivery.seq}`, answer: 'does not verify', problem: `${strategy.description}: ${verdict.reason}`, fix }));
}
