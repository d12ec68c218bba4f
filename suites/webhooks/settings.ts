// What the webhook checks read from the profile (SKIP naming the key when one
// is missing), and how long each check may wait by what the profile declares.
// The spec shows no latency and no retry schedule (6.2: not shown), so every
// wait is either the profile's (lateness is then a profile-declared FAIL) or
// a generous default (then ERROR "not observed").
import type { CheckContext } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import { observationWindowMs, WEBHOOK_DEFAULTS, type DigestAlgorithmName, type WebhookSignatureProfile } from '../../src/config/sections/webhooks.ts';
import type { ReceiverOptions } from '../../src/webhooks/receiver.ts';

export interface WebhookSettings {
  receiver: ReceiverOptions;
  /** Absent when the address is set up out of band. */
  register?: OperationTemplate;
  trigger: OperationTemplate;
  /** The users events may be caused for, each as the identifiers its events may name it by: its id, and its pid when declared. */
  users: string[][];
  riskEvaluationAction?: string;
  signature?: WebhookSignatureProfile;
  /** The Content-Digest algorithms the profile declares; undefined: any RFC 9530 algorithm. */
  digestAlgorithms?: DigestAlgorithmName[];
  /** The profile's dateSkewSeconds, or the generous default (then only a warning beyond it). */
  dateSkewSeconds: number;
  dateSkewDeclared: boolean;
  /** How long a delivery may take: the profile's deliveryTimeoutMs, or the generous default. */
  deliveryTimeoutMs: number;
  /** The profile key that declared deliveryTimeoutMs, when it did: lateness is then a profile-declared FAIL, else not observed. */
  deliveryTimeoutDeclaredBy?: 'webhooks.deliveryTimeoutMs';
  /** How long to watch for a redelivery after an answer: from the first declared retry delay, else the explicit or default window. */
  observationWindowMs: number;
  /** The retry schedule the profile declares (6.2: not shown). */
  retryDelaysMs?: number[];
  slowResponseMs?: number;
  /** The profile's webhooks.addressPropagationMs: waited after every address set up (undefined: not declared, used at once). */
  addressPropagationMs?: number;
}

export function webhookSettings(profile: ResolvedProfile, check: CheckContext): WebhookSettings {
  const w = profile.webhooks ?? {};
  const outOfBand = w.receiver?.registeredOutOfBand === true;
  const trigger = check.need(profile, 'webhooks.trigger', 'no operation that causes a user-update event is configured');
  if (!w.register && !outOfBand) return check.skip('no operation that sets the user-update receiving address is configured', 'webhooks.register');
  if (outOfBand && !w.receiver?.publicUrl) return check.skip('the receiving address is set up out of band but not named', 'webhooks.receiver.publicUrl');
  const userId = w.userId ?? profile.users?.existingUserId;
  if (!userId) return check.skip('no user to cause user-update events for', 'webhooks.userId');
  const users = [{ userId, userPid: w.userPid }, ...(w.additionalUsers ?? [])].map((u) => (u.userPid ? [u.userId, u.userPid] : [u.userId]));
  return {
    receiver: {
      listenHost: w.receiver?.listenHost ?? WEBHOOK_DEFAULTS.listenHost,
      listenPort: w.receiver?.listenPort ?? WEBHOOK_DEFAULTS.listenPort,
      path: w.receiver?.path ?? WEBHOOK_DEFAULTS.path,
      publicUrl: w.receiver?.publicUrl,
    },
    register: outOfBand ? undefined : w.register,
    trigger,
    users,
    riskEvaluationAction: w.riskEvaluationAction,
    signature: w.signature,
    digestAlgorithms: w.digestAlgorithms,
    dateSkewSeconds: w.dateSkewSeconds ?? WEBHOOK_DEFAULTS.dateSkewSeconds,
    dateSkewDeclared: w.dateSkewSeconds !== undefined,
    deliveryTimeoutMs: w.deliveryTimeoutMs ?? WEBHOOK_DEFAULTS.deliveryTimeoutMs,
    ...(w.deliveryTimeoutMs !== undefined ? { deliveryTimeoutDeclaredBy: 'webhooks.deliveryTimeoutMs' as const } : {}),
    observationWindowMs: observationWindowMs(w),
    retryDelaysMs: w.retryDelaysMs?.length ? w.retryDelaysMs : undefined,
    slowResponseMs: w.slowResponseMs,
    addressPropagationMs: w.addressPropagationMs,
  };
}

/** What one check waits for, one after another: deliveries, observation windows, held answers. */
export interface WebhookWaits {
  /** Deliveries waited for one after another (events caused back to back and collected together count once). */
  deliveries?: number;
  /** Observation windows watched one after another. */
  windows?: number;
  /** The answer is held back slowResponseMs once. */
  slowResponse?: boolean;
  /** Addresses set up one after another, each followed by the declared propagation (default 1: the session's own). */
  addresses?: number;
}

/** Room for the calls around the waits (register, trigger, hub) on a loaded machine. */
const CALLS_MARGIN_MS = 5_000;

/**
 * A check's `waitsMs` (runner/define.ts): what the profile lets it wait,
 * added to its time limit, so a slow implementation that declares its waits
 * is never cut short. Without a declaration the generous defaults count.
 */
export function webhookWaitsMs(waits: WebhookWaits): (profile: ResolvedProfile) => number {
  return (profile) => {
    const w = profile.webhooks ?? {};
    const delivery = w.deliveryTimeoutMs ?? WEBHOOK_DEFAULTS.deliveryTimeoutMs;
    const slow = waits.slowResponse ? (w.slowResponseMs ?? 0) : 0;
    const propagation = (waits.addresses ?? 1) * (w.addressPropagationMs ?? 0);
    return (waits.deliveries ?? 1) * delivery + (waits.windows ?? 0) * observationWindowMs(w) + slow + propagation + CALLS_MARGIN_MS;
  };
}
