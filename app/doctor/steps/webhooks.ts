// Step 5: webhooks (spec 6). With the suite's own receiver up, the receiver
// is set as the user-update address (webhooks.register, {receiverUrl}), one
// verification event is caused (webhooks.trigger) and its delivery — the
// first naming the user and carrying the action — is awaited and
// acknowledged with 204 (6.1). The delivery's signature is then checked with
// the configured webhooks.signature (signature.ts).
import { WEBHOOK_DEFAULTS, type WebhooksProfile } from '../../../src/config/sections/webhooks.ts';
import { carriesEvent, eventLayers, type ReceivedDelivery } from '../../../src/webhooks/delivery.ts';
import { WebhookReceiver, type ReceiverOptions } from '../../../src/webhooks/receiver.ts';
import { callTemplate } from '../call.ts';
import { okRow, problemRow, skippedRow, type DoctorContext } from '../model.ts';
import { signatureStep } from './signature.ts';

/** How long to wait for the delivery when the profile declares no deliveryTimeoutMs. */
const DEFAULT_WAIT_MS = 5_000;
/** Never longer than this, whatever the profile says: the doctor is a quick look. */
const MAX_WAIT_MS = 15_000;
const EVENT = { action: 'verification', success: true } as const;

function receiverOptions(w: WebhooksProfile): ReceiverOptions {
  return {
    listenHost: w.receiver?.listenHost ?? WEBHOOK_DEFAULTS.listenHost,
    listenPort: w.receiver?.listenPort ?? WEBHOOK_DEFAULTS.listenPort,
    path: w.receiver?.path ?? WEBHOOK_DEFAULTS.path,
    publicUrl: w.receiver?.publicUrl,
  };
}

export async function webhookSteps(ctx: DoctorContext): Promise<void> {
  const w = ctx.profile.webhooks;
  if (!w?.trigger && !w?.register) return ctx.report(skippedRow('webhook event', 'webhooks.trigger'));
  const userId = w.userId ?? ctx.profile.users?.existingUserId;
  if (!userId) return ctx.report(skippedRow('webhook event', 'webhooks.userId', 'not configured (webhooks.userId or users.existingUserId): no user to cause an event for'));
  if (!ctx.bearer) return ctx.report(skippedRow('webhook event', 'webhooks.trigger', 'not run: no access token'));
  const outOfBand = w.receiver?.registeredOutOfBand === true;
  if (outOfBand && !w.receiver?.publicUrl) {
    return ctx.report(skippedRow('webhook event', 'webhooks.receiver.publicUrl', 'not configured (webhooks.receiver.publicUrl): the address set up out of band is not named'));
  }
  let receiver: WebhookReceiver;
  try {
    receiver = await WebhookReceiver.start(receiverOptions(w));
  } catch (error) {
    const problem = `the suite's receiver could not listen: ${(error as Error).message}`;
    return ctx.report(problemRow('webhook receiver', 'webhooks.receiver', { problem, fix: 'choose a free webhooks.receiver.listenPort (0 picks one) and a local webhooks.receiver.listenHost' }));
  }
  try {
    if (!(await registerStep(ctx, w, receiver, userId, outOfBand))) return;
    const delivery = await triggerStep(ctx, w, receiver, userId);
    await signatureStep(ctx, w, delivery);
  } finally {
    await receiver.close();
  }
}

/** True when the receiver is the address deliveries go to. */
async function registerStep(ctx: DoctorContext, w: WebhooksProfile, receiver: WebhookReceiver, userId: string, outOfBand: boolean): Promise<boolean> {
  const operation = 'webhook address';
  if (outOfBand) {
    ctx.report(skippedRow(operation, 'webhooks.register', `set up out of band (webhooks.receiver.registeredOutOfBand): ${receiver.url}`));
    return true;
  }
  if (!w.register) {
    ctx.report(skippedRow(operation, 'webhooks.register'));
    ctx.report(skippedRow('webhook event', 'webhooks.trigger', 'not run: nothing sets the receiving address (webhooks.register)'));
    return false;
  }
  const values = { receiverUrl: receiver.url, userId };
  const answer = await callTemplate(ctx, { operation, key: 'webhooks.register', template: w.register, values, label: 'set the suite receiver as the user-update address' });
  if (!answer) return false;
  ctx.report(okRow(operation, 'webhooks.register', answer.request, `${answer.result.response.status}; receiver ${receiver.url}`));
  return true;
}

async function triggerStep(ctx: DoctorContext, w: WebhooksProfile, receiver: WebhookReceiver, userId: string): Promise<ReceivedDelivery | undefined> {
  const operation = 'webhook event';
  if (!w.trigger) {
    ctx.report(skippedRow(operation, 'webhooks.trigger'));
    return undefined;
  }
  const userIds = w.userPid ? [userId, w.userPid] : [userId];
  const session = await receiver.router.openSession({ users: [userIds], script: [{ status: 204 }], holdMs: 0 });
  try {
    const causedAt = performance.now();
    const values = { userId, action: EVENT.action, success: EVENT.success, status: undefined };
    const answer = await callTemplate(ctx, { operation, key: 'webhooks.trigger', template: w.trigger, values, label: 'cause a verification event' });
    if (!answer) return undefined;
    const waitMs = Math.min(w.deliveryTimeoutMs ?? DEFAULT_WAIT_MS, MAX_WAIT_MS);
    const delivery = await session.waitFor((d) => d.receivedAtMs >= causedAt && carriesEvent(d, EVENT, userIds, false), waitMs);
    const status = answer.result.response.status;
    if (delivery) {
      const after = Math.round(delivery.receivedAtMs - causedAt);
      ctx.report(okRow(operation, 'webhooks.trigger', answer.request, `${status}; delivery #${delivery.seq} (${delivery.method}) after ${after} ms, acknowledged 204`));
      return delivery;
    }
    const others = session.deliveries.filter((d) => d.receivedAtMs >= causedAt);
    const withAction = others.filter((d) => eventLayers(d).some((layer) => layer.action === EVENT.action));
    const problem = `no delivery of the verification event for user ${userId} reached ${receiver.url} within ${waitMs} ms (${others.length} other deliveries)`;
    const fix = withAction.length
      ? `a delivery carried action verification but named no ${userIds.join(' or ')}: set webhooks.userPid to the identifier events name the user by`
      : `check that webhooks.trigger causes a user-update event for webhooks.userId, and that the implementation can reach ${receiver.url} (behind NAT: webhooks.receiver.publicUrl)`;
    ctx.report(problemRow(operation, 'webhooks.trigger', { request: answer.request, answer: `${status}; no delivery`, problem, fix }));
    return undefined;
  } finally {
    session.end();
  }
}
