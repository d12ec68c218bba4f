// Shared steps of the webhook checks: the profile's settings (SKIP naming the
// key when one is missing), one receiver per worker, and a session per check
// that registers the receiver, causes events and collects the deliveries.
//
// The event under test is told from everything else by its content: the
// first delivery after the cause, not taken before, whose JSON carries the
// caused action and names the user, in params or at the top level (6.2 lists
// many other notification kinds and does not show which operation emits
// which). Every other delivery is kept as evidence and never judged as the event.
import type { CheckContext, CheckFixtures } from '../../src/check/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import { observationWindowMs, WEBHOOK_DEFAULTS, type DigestAlgorithmName, type WebhookSignatureProfile } from '../../src/config/sections/webhooks.ts';
import { callOperation, type OperationResult } from '../../src/operations.ts';
import { carriesEvent, eventLayers, idempotencyKey, isRepeatOf, parsedBody, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { deliveryExchange } from '../../src/webhooks/evidence.ts';
import { WebhookReceiver, type ReceiverOptions, type ReceiverSession, type ResponseStep } from '../../src/webhooks/receiver.ts';

export interface WebhookSettings {
  receiver: ReceiverOptions;
  /** Absent when the address is set up out of band. */
  register?: OperationTemplate;
  trigger: OperationTemplate;
  userId: string;
  /** The identifiers a delivery of the user's events may name the user by: userId, and userPid when declared. */
  eventUserIds: string[];
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
  return {
    receiver: {
      listenHost: w.receiver?.listenHost ?? WEBHOOK_DEFAULTS.listenHost,
      listenPort: w.receiver?.listenPort ?? WEBHOOK_DEFAULTS.listenPort,
      path: w.receiver?.path ?? WEBHOOK_DEFAULTS.path,
      publicUrl: w.receiver?.publicUrl,
    },
    register: outOfBand ? undefined : w.register,
    trigger,
    userId,
    eventUserIds: w.userPid ? [userId, w.userPid] : [userId],
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

/** An event the suite asked for, and when: its delivery cannot arrive before. */
export interface CausedEvent {
  event: UserUpdateEvent;
  /** performance.now() when the trigger was called. */
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
    private readonly session: ReceiverSession,
  ) {}

  /** This check's deliveries, in order of arrival. */
  get deliveries(): readonly ReceivedDelivery[] {
    return this.session.deliveries;
  }

  /** The deliveries taken as events under test. */
  get eventsUnderTest(): readonly ReceivedDelivery[] {
    return this.taken;
  }

  /** Asks the implementation for an event; the caller decides what a refusal means. */
  async cause(event: UserUpdateEvent): Promise<{ result: OperationResult; caused: CausedEvent }> {
    const { http, tokens, check } = this.fixtures;
    const bearer = await tokens.get();
    const caused: CausedEvent = { event, atMs: performance.now(), atEpochMs: Date.now() };
    const values = { userId: this.settings.userId, action: event.action, success: event.success, status: event.status };
    const result = await callOperation(http, this.settings.trigger, values, { bearer, label: `cause a ${describeEvent(event)} event` });
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
    return carriesEvent(delivery, caused.event, this.settings.eventUserIds, exactly);
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
    const delivery =
      (await this.waitFor((d) => this.couldBe(d, caused, true))) ??
      this.deliveries.find((d) => this.couldBe(d, caused, false)) ??
      this.deliveries.find((d) => d.receivedAtMs >= caused.atMs && parsedBody(d) === undefined && !this.taken.some((t) => isRepeatOf(d, t)));
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
      ? `; ${withAction.length} deliver${withAction.length === 1 ? 'y' : 'ies'} (#${withAction.map((d) => d.seq).join(', #')}) carried action ${caused.event.action} but named no ${this.settings.eventUserIds.join(' or ')}: set webhooks.userPid if the events name the user by another identifier`
      : after.length
        ? `; ${after.length} other deliveries arrived, none carrying action ${caused.event.action}`
        : '';
    return this.fixtures.check.failDeclared(
      'webhooks.trigger',
      `no delivery of the ${describeEvent(caused.event)} event for user ${this.settings.userId} reached the receiver within ${this.settings.deliveryTimeoutMs} ms${hint}`,
      { deliveryTimeoutMs: this.settings.deliveryTimeoutMs, others: after.map((d) => ({ delivery: d.seq, body: d.body.toString('utf8').slice(0, 200) })) },
    );
  }

  /** Causes an event and returns its delivery (see mustCause and deliveryOf). */
  async causeAndReceive(event: UserUpdateEvent): Promise<{ caused: CausedEvent; delivery: ReceivedDelivery }> {
    const caused = await this.mustCause(event);
    return { caused, delivery: await this.deliveryOf(caused) };
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
    const registered = await callOperation(http, settings.register, { receiverUrl: receiver.url, userId: settings.userId }, { bearer: await tokens.get(), label: 'set the suite receiver as the user-update address' });
    if (!registered.ok) throw new Error(`setting ${receiver.url} as the user-update address failed: ${registered.response.status} (webhooks.register)`);
  }
  const session = receiver.beginSession(script, (d, step) => {
    const key = idempotencyKey(d);
    check.event(`delivery #${d.seq} received`, `${d.method}, key ${key ?? '(none)'}; answered ${step.status}${step.delayMs ? ` after ${step.delayMs} ms` : ''}`);
  });
  const webhookSession = new WebhookSession(fixtures, settings, session);
  try {
    await body(webhookSession);
  } finally {
    session.end();
    for (const delivery of session.deliveries) check.record(deliveryExchange(delivery, http.redactor));
    noteOtherDeliveries(check, webhookSession);
    if (receiver.dropped) check.warn(`the receiver refused ${receiver.dropped} deliveries unrecorded after keeping a flood of them`);
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
