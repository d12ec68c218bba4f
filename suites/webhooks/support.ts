// Shared steps of the webhook checks: the profile's settings (SKIP naming the
// key when one is missing), one receiver per worker, and a session per check
// that registers the receiver, causes events and collects the deliveries.
import type { CheckContext, CheckFixtures } from '../../src/check/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import { WEBHOOK_DEFAULTS, type DigestAlgorithmName, type WebhookSignatureProfile } from '../../src/config/sections/webhooks.ts';
import { callOperation, type OperationResult } from '../../src/operations.ts';
import { idempotencyKey, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { deliveryExchange } from '../../src/webhooks/evidence.ts';
import { WebhookReceiver, type ReceiverOptions, type ReceiverSession, type ResponseStep } from '../../src/webhooks/receiver.ts';

export interface WebhookSettings {
  receiver: ReceiverOptions;
  /** Absent when the address is set up out of band. */
  register?: OperationTemplate;
  trigger: OperationTemplate;
  userId: string;
  riskEvaluationAction?: string;
  signature?: WebhookSignatureProfile;
  digestAlgorithms: DigestAlgorithmName[];
  dateSkewSeconds: number;
  deliveryTimeoutMs: number;
  observationWindowMs: number;
  slowResponseMs?: number;
}

export function webhookSettings(profile: ResolvedProfile, check: CheckContext): WebhookSettings {
  const w = profile.webhooks ?? {};
  const outOfBand = w.receiver?.registeredOutOfBand === true;
  if (!w.trigger) return check.skip('no operation that causes a user-update event is configured', 'webhooks.trigger');
  if (!w.register && !outOfBand) return check.skip('no operation that sets the user-update receiving address is configured', 'webhooks.register');
  if (outOfBand && !w.receiver?.publicUrl) return check.skip('the receiving address is set up out of band but not named', 'webhooks.receiver.publicUrl');
  const userId = w.userId ?? profile.users?.existingUserId;
  if (!userId) return check.skip('no user to cause user-update events for', 'webhooks.userId');
  return {
    receiver: {
      listenHost: w.receiver?.listenHost ?? WEBHOOK_DEFAULTS.listenHost,
      listenPort: w.receiver?.listenPort ?? WEBHOOK_DEFAULTS.listenPort,
      path: w.receiver?.path ?? WEBHOOK_DEFAULTS.path,
      publicUrl: w.receiver?.publicUrl,
    },
    register: outOfBand ? undefined : w.register,
    trigger: w.trigger,
    userId,
    riskEvaluationAction: w.riskEvaluationAction,
    signature: w.signature,
    digestAlgorithms: w.digestAlgorithms ?? WEBHOOK_DEFAULTS.digestAlgorithms,
    dateSkewSeconds: w.dateSkewSeconds ?? WEBHOOK_DEFAULTS.dateSkewSeconds,
    deliveryTimeoutMs: w.deliveryTimeoutMs ?? WEBHOOK_DEFAULTS.deliveryTimeoutMs,
    observationWindowMs: w.observationWindowMs ?? WEBHOOK_DEFAULTS.observationWindowMs,
    slowResponseMs: w.slowResponseMs,
  };
}

// One receiver per worker process: the webhook checks run in one ordered
// group (defineCheckGroup), so they share it and its memory of past events.
let workerReceiver: { options: string; receiver: Promise<WebhookReceiver> } | undefined;

function receiverFor(options: ReceiverOptions): Promise<WebhookReceiver> {
  const key = JSON.stringify(options);
  if (workerReceiver && workerReceiver.options !== key) throw new Error('the webhook receiver settings changed within one worker');
  workerReceiver ??= { options: key, receiver: WebhookReceiver.start(options) };
  return workerReceiver.receiver;
}

export async function closeWorkerReceiver(): Promise<void> {
  const current = workerReceiver;
  workerReceiver = undefined;
  if (current) await (await current.receiver).close();
}

/** A user-update event the suite asks the implementation for (placeholders of webhooks.trigger). */
export interface UserUpdateEvent {
  action: string;
  success?: boolean;
  status?: string;
}

export const VERIFICATION_SUCCEEDED: UserUpdateEvent = { action: 'verification', success: true };
export const VERIFICATION_FAILED: UserUpdateEvent = { action: 'verification', success: false };

export function describeEvent(event: UserUpdateEvent): string {
  if (event.success !== undefined) return `${event.action} (success ${event.success})`;
  return event.status ? `${event.action} (status ${event.status})` : event.action;
}

/** Acknowledges with the spec's empty-bodied 204 (6.1). */
export const ACKNOWLEDGE: ResponseStep[] = [{ status: 204 }];

export class WebhookSession {
  constructor(
    private readonly fixtures: CheckFixtures,
    readonly settings: WebhookSettings,
    private readonly session: ReceiverSession,
  ) {}

  /** This check's deliveries, in order of arrival. */
  get deliveries(): readonly ReceivedDelivery[] {
    return this.session.deliveries;
  }

  /** Asks the implementation for an event; the caller decides what a refusal means. */
  async cause(event: UserUpdateEvent): Promise<OperationResult> {
    const { http, tokens, check } = this.fixtures;
    const values = { userId: this.settings.userId, action: event.action, success: event.success, status: event.status };
    const result = await callOperation(http, this.settings.trigger, values, { bearer: await tokens.get(), label: `cause a ${describeEvent(event)} event` });
    check.event('event caused', `${describeEvent(event)}: ${result.response.status}`);
    return result;
  }

  /** Causes an event the check cannot do without: a refusal means the check could not run. */
  async mustCause(event: UserUpdateEvent): Promise<void> {
    const result = await this.cause(event);
    if (!result.ok) throw new Error(`causing a ${describeEvent(event)} event failed: ${result.response.status} (webhooks.trigger)`);
  }

  waitFor(predicate: (d: ReceivedDelivery) => boolean, timeoutMs = this.settings.deliveryTimeoutMs): Promise<ReceivedDelivery | undefined> {
    return this.session.waitFor(predicate, timeoutMs);
  }

  /** The first delivery of the session; FAIL when none arrives in time. */
  async firstDelivery(what: string): Promise<ReceivedDelivery> {
    const delivery = await this.waitFor(() => true);
    if (!delivery) {
      return this.fixtures.check.fail(`no delivery reached the receiver within ${this.settings.deliveryTimeoutMs} ms after causing the ${what} event`, {
        deliveryTimeoutMs: this.settings.deliveryTimeoutMs,
      });
    }
    return delivery;
  }

  /** Waits until `extraMs` plus the observation window have passed since a delivery arrived. */
  async watchAfter(delivery: ReceivedDelivery, extraMs = 0): Promise<void> {
    const windowMs = extraMs + this.settings.observationWindowMs;
    await this.session.until(delivery.receivedAtMs + windowMs);
    this.fixtures.check.event('observation window closed', `${windowMs} ms after delivery #${delivery.seq}`);
  }
}

/** Milliseconds between two deliveries, as "+123 ms". */
export function offset(delivery: ReceivedDelivery, from: ReceivedDelivery): string {
  return `+${Math.round(delivery.receivedAtMs - from.receivedAtMs)} ms`;
}

/**
 * Runs a check body in a receiver session whose answers follow `script`:
 * registers the receiver as the client's user-update address, and afterwards
 * keeps every delivery of the session as evidence.
 */
export async function withWebhookSession(fixtures: CheckFixtures, script: ResponseStep[], body: (session: WebhookSession) => Promise<void>): Promise<void> {
  const { check, http, profile, tokens } = fixtures;
  const settings = webhookSettings(profile, check);
  const receiver = await receiverFor(settings.receiver);
  if (settings.register) {
    const registered = await callOperation(http, settings.register, { receiverUrl: receiver.url }, { bearer: await tokens.get(), label: 'set the suite receiver as the user-update address' });
    if (!registered.ok) throw new Error(`setting ${receiver.url} as the user-update address failed: ${registered.response.status} (webhooks.register)`);
  }
  const session = receiver.beginSession(script, (d, step) => {
    const key = idempotencyKey(d);
    check.event(`delivery #${d.seq} received`, `${d.method}, key ${key ?? '(none)'}; answered ${step.status}${step.delayMs ? ` after ${step.delayMs} ms` : ''}`);
  });
  try {
    await body(new WebhookSession(fixtures, settings, session));
  } finally {
    session.end();
    for (const delivery of session.deliveries) check.record(deliveryExchange(delivery, http.redactor));
    if (receiver.dropped) check.warn(`the receiver refused ${receiver.dropped} deliveries unrecorded after keeping a flood of them`);
    if (session.earlier.length) {
      check.note(`${session.earlier.length} late attempt(s) of events from earlier checks arrived meanwhile; they were acknowledged and left out`);
    }
  }
}
