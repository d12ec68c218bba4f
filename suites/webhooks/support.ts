// Shared steps of the webhook checks: the profile's settings (SKIP naming the
// key when one is missing), and a session per check on the target's receiver
// that registers the receiver, causes events and collects the deliveries.
// The receiver lives in the run's webhook hub (src/webhooks/hub.ts), where
// each session holds one of the profile's users: checks run side by side,
// as many at once as there are users, and one at a time with one user.
//
// The event under test is told from everything else by its content: the
// first delivery after the cause, not taken before, whose JSON carries the
// caused action and names the user, in params or at the top level (6.2 lists
// many other notification kinds and does not show which operation emits
// which). Every other delivery is kept as evidence and never judged as the event.
import { waitingOnOtherChecks, type CheckContext, type CheckFixtures } from '../../src/check/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import { observationWindowMs, WEBHOOK_DEFAULTS, type DigestAlgorithmName, type WebhookSignatureProfile } from '../../src/config/sections/webhooks.ts';
import { callOperation, type OperationResult } from '../../src/operations.ts';
import { carriesEvent, eventLayers, idempotencyKey, isRepeatOf, parsedBody, type DeliveryAnswer, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { deliveryExchange } from '../../src/webhooks/evidence.ts';
import { HubClient, type RemoteSession } from '../../src/webhooks/hub-client.ts';
import type { ReceiverOptions } from '../../src/webhooks/receiver.ts';
import type { ResponseStep } from '../../src/webhooks/routing.ts';

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
  deliveryTimeoutMs: number;
  /** Derived from retryDelaysMs when the profile declares a retry schedule. */
  observationWindowMs: number;
  /** The retry schedule the profile declares (6.2: not shown). */
  retryDelaysMs?: number[];
  slowResponseMs?: number;
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
    observationWindowMs: observationWindowMs(w),
    retryDelaysMs: w.retryDelaysMs?.length ? w.retryDelaysMs : undefined,
    slowResponseMs: w.slowResponseMs,
  };
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

/** An event the suite asked for, and when: its delivery cannot arrive before. */
export interface CausedEvent {
  event: UserUpdateEvent;
  /** Just before the trigger was called: when the receiver granted the cause lock, on this process's performance.now() clock. */
  atMs: number;
  /** Date.now() when the trigger was called. */
  atEpochMs: number;
}

export class WebhookSession {
  /** The deliveries taken as the events under test, in the order they were taken. */
  private readonly taken: ReceivedDelivery[] = [];

  constructor(
    private readonly fixtures: CheckFixtures,
    readonly settings: WebhookSettings,
    private readonly session: RemoteSession,
  ) {}

  /** The id of the user this session holds: its events are caused for this user. */
  get userId(): string {
    return this.session.userIds[0]!;
  }

  /** The identifiers this session's events may name the user by (id, and pid when declared). */
  get eventUserIds(): readonly string[] {
    return this.session.userIds;
  }

  /** This check's deliveries, in order of arrival. */
  get deliveries(): readonly ReceivedDelivery[] {
    return this.session.deliveries;
  }

  /** The deliveries taken as events under test. */
  get eventsUnderTest(): readonly ReceivedDelivery[] {
    return this.taken;
  }

  /**
   * Asks the implementation for an event; the caller decides what a refusal
   * means. An event that was caused holds the target's cause lock until
   * findDeliveryOf has taken its delivery: meanwhile a delivery that names no
   * user (a body that is not JSON) is this session's to judge.
   */
  async cause(event: UserUpdateEvent): Promise<{ result: OperationResult; caused: CausedEvent }> {
    const { http, tokens, check } = this.fixtures;
    const bearer = await tokens.get();
    const grantedAtMs = await waitingOnOtherChecks(this.session.lockCause());
    // Deliveries of this event come after the lock was granted, on the receiver's clock.
    const caused: CausedEvent = { event, atMs: grantedAtMs, atEpochMs: Date.now() };
    const values = { userId: this.userId, action: event.action, success: event.success, status: event.status };
    let result: OperationResult | undefined;
    try {
      result = await callOperation(http, this.settings.trigger, values, { bearer, label: `cause a ${describeEvent(event)} event` });
    } finally {
      if (!result?.ok) await this.session.unlockCause();
    }
    check.event('event caused', `${describeEvent(event)}: ${result.response.status}`);
    return { result, caused };
  }

  /** Causes an event the check cannot do without: a refusal means the check could not run (set-up of an operation the spec does not show). */
  async mustCause(event: UserUpdateEvent): Promise<CausedEvent> {
    const { result, caused } = await this.cause(event);
    if (!result.ok) throw new Error(`causing a ${describeEvent(event)} event failed: ${result.response.status} (webhooks.trigger)`);
    return caused;
  }

  waitFor(predicate: (d: ReceivedDelivery) => boolean, timeoutMs = this.settings.deliveryTimeoutMs): Promise<ReceivedDelivery | undefined> {
    return this.session.waitFor(predicate, timeoutMs);
  }

  /**
   * Whether a delivery can be the caused event: it arrived after the cause,
   * is no attempt of an event already taken, and its JSON carries the action
   * and names the user; `exactly`, also with the success or status asked for.
   */
  private couldBe(delivery: ReceivedDelivery, caused: CausedEvent, exactly: boolean): boolean {
    if (delivery.receivedAtMs < caused.atMs || this.taken.some((t) => isRepeatOf(delivery, t))) return false;
    return carriesEvent(delivery, caused.event, this.eventUserIds, exactly);
  }

  /**
   * The delivery of a caused event, taken as the event under test; undefined
   * when none came in time. The exact event is waited for; failing that, the
   * first delivery with the action for the user is taken (its success or
   * status is then judged wrong by the check), and failing that a body that
   * is not JSON at all, which cannot be told apart: section 1 makes every
   * body JSON, so judging it as the event is no false verdict.
   */
  async findDeliveryOf(caused: CausedEvent): Promise<ReceivedDelivery | undefined> {
    let delivery: ReceivedDelivery | undefined;
    try {
      delivery =
        (await this.waitFor((d) => this.couldBe(d, caused, true))) ??
        this.deliveries.find((d) => this.couldBe(d, caused, false)) ??
        this.deliveries.find((d) => d.receivedAtMs >= caused.atMs && parsedBody(d) === undefined && !this.taken.some((t) => isRepeatOf(d, t)));
    } finally {
      await this.session.unlockCause();
    }
    if (delivery) {
      this.taken.push(delivery);
      this.fixtures.check.event(`delivery #${delivery.seq} is the ${describeEvent(caused.event)} event`);
    }
    return delivery;
  }

  /**
   * The delivery of a caused event. None in time contradicts the profile:
   * webhooks.trigger is declared to cause a user-update event, and the
   * service "sends webhooks to an address that the partner sets up" (6).
   */
  async deliveryOf(caused: CausedEvent): Promise<ReceivedDelivery> {
    const delivery = await this.findDeliveryOf(caused);
    if (delivery) return delivery;
    const after = this.deliveries.filter((d) => d.receivedAtMs >= caused.atMs);
    const withAction = after.filter((d) => eventLayers(d).some((layer) => layer.action === caused.event.action));
    const hint = withAction.length
      ? `; ${withAction.length} deliver${withAction.length === 1 ? 'y' : 'ies'} (#${withAction.map((d) => d.seq).join(', #')}) carried action ${caused.event.action} but named no ${this.eventUserIds.join(' or ')}: set webhooks.userPid if the events name the user by another identifier`
      : after.length
        ? `; ${after.length} other deliveries arrived, none carrying action ${caused.event.action}`
        : '';
    return this.fixtures.check.failDeclared(
      'webhooks.trigger',
      `no delivery of the ${describeEvent(caused.event)} event for user ${this.userId} reached the receiver within ${this.settings.deliveryTimeoutMs} ms${hint}`,
      { deliveryTimeoutMs: this.settings.deliveryTimeoutMs, others: after.map((d) => ({ delivery: d.seq, body: d.body.toString('utf8').slice(0, 200) })) },
    );
  }

  /** Causes an event and returns its delivery (see mustCause and deliveryOf). */
  async causeAndReceive(event: UserUpdateEvent): Promise<{ caused: CausedEvent; delivery: ReceivedDelivery }> {
    const caused = await this.mustCause(event);
    return { caused, delivery: await this.deliveryOf(caused) };
  }

  /** The answer a delivery got: written, or not because the sender hung up first (then when it did); undefined if neither within timeoutMs. */
  answerOf(delivery: ReceivedDelivery, timeoutMs: number): Promise<DeliveryAnswer | undefined> {
    return this.session.answerOf(delivery, timeoutMs);
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
 * Runs a check body in a session on the target's receiver whose answers
 * follow `script`: waits for a free user (outside the check's time limit),
 * registers the receiver as the client's user-update address, and afterwards
 * keeps every delivery of the session as evidence.
 */
export async function withWebhookSession(fixtures: CheckFixtures, script: ResponseStep[], body: (session: WebhookSession) => Promise<void>): Promise<void> {
  const { check, http, profile, tokens, targetName } = fixtures;
  const settings = webhookSettings(profile, check);
  const session = await waitingOnOtherChecks(
    HubClient.fromEnv().openSession({
      receiverKey: targetName,
      receiver: settings.receiver,
      users: settings.users,
      script,
      // A retry of an event the session leaves unacknowledged is expected within the window.
      holdMs: settings.observationWindowMs,
    }),
  );
  check.onEnd(() => session.end());
  session.onDelivery = (d, step) => {
    const key = idempotencyKey(d);
    check.event(`delivery #${d.seq} received`, `${d.method}, key ${key ?? '(none)'}; answered ${step.status}${step.delayMs ? ` after ${step.delayMs} ms` : ''}`);
  };
  const webhookSession = new WebhookSession(fixtures, settings, session);
  try {
    if (settings.register) {
      const values = { receiverUrl: session.url, userId: webhookSession.userId };
      const registered = await callOperation(http, settings.register, values, { bearer: await tokens.get(), label: 'set the suite receiver as the user-update address' });
      if (!registered.ok) throw new Error(`setting ${session.url} as the user-update address failed: ${registered.response.status} (webhooks.register)`);
    }
    await body(webhookSession);
  } finally {
    await session.end();
    for (const delivery of session.deliveries) check.record(deliveryExchange(delivery, http.redactor));
    noteOtherDeliveries(check, webhookSession);
    if (session.dropped) check.warn(`the receiver refused ${session.dropped} deliveries unrecorded after keeping a flood of them`);
    if (session.earlier.length) {
      check.note(`${session.earlier.length} late attempt(s) of events from earlier checks arrived meanwhile; they were acknowledged and left out`);
    }
  }
}

/** Deliveries that were neither an event under test nor an attempt of one: kept as evidence, not judged as the event. */
function noteOtherDeliveries(check: CheckContext, session: WebhookSession): void {
  const taken = session.eventsUnderTest;
  if (!taken.length) return;
  const others = session.deliveries.filter((d) => !taken.some((t) => d === t || isRepeatOf(d, t)));
  if (others.length) {
    check.note(`${others.length} other deliver${others.length === 1 ? 'y' : 'ies'} (#${others.map((d) => d.seq).join(', #')}) reached the receiver meanwhile; kept as evidence, not judged as the event under test`);
  }
}
