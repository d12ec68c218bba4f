// Shared steps of the webhook checks, the user-update webhook (spec 5 rule 5,
// 6, 6.1, 6.2, 3.2) in the *.check.ts files beside this one. Every check
// works in a session on the target's receiver (withWebhookSession) that sets
// up the receiving address, causes events and collects the deliveries (the
// profile's settings: settings.ts). The receiver lives in the run's webhook
// hub (runner/webhook-hub/hub.ts), where each session holds one of the profile's
// users: checks run side by side, as many at once as there are users, and
// one at a time with one user, in any worker and in any order (each check
// declares its waits, webhookWaitsMs, and the longest start first). Causing
// an event never makes another check wait: an implementation that delivers
// seconds after the event must not make the checks take turns.
//
// The event under test is told from everything else by its content: the
// first delivery after the cause, not taken before and no later attempt (by
// its key: redelivery.ts) of an event delivered before the cause, whose JSON
// carries the caused action and names the user, in params or at the top level (6.2 lists
// many other notification kinds and does not show which operation emits
// which). Every other delivery is kept as evidence and never judged as the event.
import { waitingOnOtherChecks, type CheckContext, type CheckFixtures } from '../../runner/index.ts';
import { callOperation, type OperationResult } from '../../src/operations.ts';
import { carriesEvent, eventLayers, idempotencyKey, isAttemptOf, isRepeatOf, parsedBody, type DeliveryAnswer, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { deliveryExchange } from '../../src/webhooks/evidence.ts';
import { HubClient, type RemoteSession } from '../../runner/webhook-hub/client.ts';
import type { ResponseStep } from '../../src/webhooks/routing.ts';
import { signatureStrategy, type SignatureStrategy } from '../../src/webhooks/signature/index.ts';
import { answeredAtMs, describeEvent, type CausedEvent, type UserUpdateEvent } from './events.ts';
import { markedAddress, SUITE_MARKER } from './markers.ts';
import { isAttemptByKey } from './redelivery.ts';
import { unreadableEvent, unreadableReason } from './unreadable.ts';
import { webhookSettings, type WebhookSettings } from './settings.ts';

export { webhookSettings, webhookWaitsMs, type WebhookSettings } from './settings.ts';
export { ACKNOWLEDGE, answeredAtMs, describeEvent, eventsToCause, offset, REFUSE_FIRST_ATTEMPT, RISK_STATUSES, VERIFICATION_FAILED, VERIFICATION_SUCCEEDED, type CausedEvent, type UserUpdateEvent } from './events.ts';

/** What a check asks of its session beyond the receiver's answers. */
export interface SessionOptions {
  /** The check judges the body's shape (6.1): it takes a delivery whose event cannot be read as its event (unreadable.ts). */
  judgesBodyShape?: boolean;
}

export class WebhookSession {
  /** The deliveries taken as the events under test, in the order they were taken. */
  private readonly taken: ReceivedDelivery[] = [];

  constructor(
    private readonly fixtures: CheckFixtures,
    readonly settings: WebhookSettings,
    private readonly session: RemoteSession,
    private readonly options: SessionOptions = {},
  ) {}

  /** The id of the user this session holds: its events are caused for this user. */
  get userId(): string {
    return this.session.userIds[0]!;
  }

  /** The identifiers this session's events may name the user by (id, and pid when declared). */
  get eventUserIds(): readonly string[] {
    return this.session.userIds;
  }

  /** The address of the receiver, as the hub reports it. */
  get receiverUrl(): string {
    return this.session.url;
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
   * means. Until findDeliveryOf has taken its delivery, a delivery that names
   * no user (a body that is not JSON) may be this session's to judge.
   */
  async cause(event: UserUpdateEvent): Promise<{ result: OperationResult; caused: CausedEvent }> {
    const { http, tokens, check } = this.fixtures;
    const bearer = tokens;
    const notedAtMs = await this.session.beginCause();
    // Deliveries of this event come after the hub noted the cause, on the receiver's clock.
    const caused: CausedEvent = { event, atMs: notedAtMs, atEpochMs: Date.now() };
    const values = { userId: this.userId, action: event.action, success: event.success, status: event.status };
    let result: OperationResult | undefined;
    try {
      result = await callOperation(http, this.settings.trigger, values, { bearer, label: `cause a ${describeEvent(event)} event` });
    } finally {
      if (!result?.ok) await this.session.endCause();
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
    // An attempt (by key) of an event that arrived before the cause, a late retry of an earlier check's event, is not the caused one.
    if (this.deliveries.some((d) => d.receivedAtMs < caused.atMs && isAttemptByKey(delivery, d))) return false;
    return carriesEvent(delivery, caused.event, this.eventUserIds, exactly);
  }

  /**
   * The delivery of a caused event, taken as the event under test; undefined
   * when none came in time. The exact event is waited for; failing that, the
   * first delivery with the action for the user is taken (its success or
   * status is then judged wrong by the check), and failing that a body that
   * is not JSON at all, which cannot be told apart: section 1 makes every
   * body JSON, so judging it as the event is no false verdict. Failing all
   * that, a delivery whose event cannot be read: see unreadableOrError.
   * Events caused back to back are collected side by side (each with its own wait).
   */
  async findDeliveryOf(caused: CausedEvent): Promise<ReceivedDelivery | undefined> {
    let delivery: ReceivedDelivery | undefined;
    try {
      delivery =
        (await this.waitFor((d) => this.couldBe(d, caused, true))) ??
        this.deliveries.find((d) => this.couldBe(d, caused, false)) ??
        this.deliveries.find((d) => d.receivedAtMs >= caused.atMs && parsedBody(d) === undefined && !this.taken.some((t) => isRepeatOf(d, t)));
    } finally {
      await this.session.endCause();
    }
    delivery ??= this.unreadableOrError(caused);
    if (delivery) {
      this.taken.push(delivery);
      this.fixtures.check.event(`delivery #${delivery.seq} is the ${describeEvent(caused.event)} event`);
    }
    return delivery;
  }

  /**
   * After the wait, a delivery naming the user whose event cannot be read
   * (unreadable.ts): the event, for a check that judges the body's shape;
   * for any other check, ERROR naming that check.
   */
  private unreadableOrError(caused: CausedEvent): ReceivedDelivery | undefined {
    const candidates = this.deliveries.filter((d) => d.receivedAtMs >= caused.atMs && !this.taken.some((t) => isRepeatOf(d, t)));
    const found = unreadableEvent(candidates, this.eventUserIds);
    if (!found || this.options.judgesBodyShape) return found?.delivery;
    return this.fixtures.check.notObserved(unreadableReason(found), { delivery: found.delivery.seq, body: found.delivery.body.toString('utf8').slice(0, 200) });
  }

  /**
   * The delivery of a caused event. None within the wait is lateness: a
   * profile-declared FAIL when the profile declares how long a delivery may
   * take (webhooks.deliveryTimeoutMs), else "not observed" after the
   * generous default (the spec shows no latency).
   */
  async deliveryOf(caused: CausedEvent): Promise<ReceivedDelivery> {
    const delivery = await this.findDeliveryOf(caused);
    if (delivery) return delivery;
    return this.late([caused]);
  }

  /** The deliveries of events caused back to back, collected side by side; any missing is lateness, as in deliveryOf. */
  async deliveriesOf(causes: readonly CausedEvent[]): Promise<ReceivedDelivery[]> {
    const found = await Promise.all(causes.map((caused) => this.findDeliveryOf(caused)));
    const missing = causes.filter((_, i) => !found[i]);
    if (missing.length) return this.late(missing);
    return found as ReceivedDelivery[];
  }

  /** Ends the check: no delivery of these events arrived within the delivery wait (see deliveryOf). */
  late(missing: readonly CausedEvent[]): never {
    const { deliveryTimeoutMs, deliveryTimeoutDeclaredBy } = this.settings;
    const since = Math.min(...missing.map((c) => c.atMs));
    const after = this.deliveries.filter((d) => d.receivedAtMs >= since);
    const actions = new Set(missing.map((c) => c.event.action));
    const withAction = after.filter((d) => eventLayers(d).some((layer) => actions.has(String(layer.action))));
    const hint = withAction.length
      ? `; ${withAction.length} deliver${withAction.length === 1 ? 'y' : 'ies'} (#${withAction.map((d) => d.seq).join(', #')}) carried action ${[...actions].join(' or ')} but named no ${this.eventUserIds.join(' or ')}: set webhooks.userPid if the events name the user by another identifier`
      : after.length
        ? `; ${after.length} other deliveries arrived, none carrying action ${[...actions].join(' or ')}`
        : '';
    const events = missing.map((c) => describeEvent(c.event)).join(', ');
    return this.fixtures.check.late(
      `no delivery of the ${events} event${missing.length === 1 ? '' : 's'} for user ${this.userId} reached the receiver within ${deliveryTimeoutMs} ms${hint}`,
      { waitedMs: deliveryTimeoutMs, ...(deliveryTimeoutDeclaredBy ? { declaredBy: deliveryTimeoutDeclaredBy } : {}) },
      { deliveryTimeoutMs, others: after.map((d) => ({ delivery: d.seq, body: d.body.toString('utf8').slice(0, 200) })) },
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

  /**
   * The first attempt of the same event as `first` (same key or same
   * content) that arrived after `afterMs`, waiting until `windows`
   * observation windows after `afterMs` have passed; undefined when none came.
   */
  async redeliveryOf(first: ReceivedDelivery, afterMs = answeredAtMs(first), windows = 1): Promise<ReceivedDelivery | undefined> {
    const windowMs = windows * this.settings.observationWindowMs;
    const isRedelivery = (d: ReceivedDelivery) => d !== first && d.receivedAtMs > afterMs && isAttemptOf(d, first);
    const found = await this.waitFor(isRedelivery, Math.max(0, afterMs + windowMs - performance.now()));
    this.fixtures.check.event(found ? `delivery #${found.seq} is a redelivery of #${first.seq}` : 'observation window closed', `${windowMs} ms after delivery #${first.seq} was answered`);
    return found;
  }

  /** Waits until the observation window after `fromMs` (this process's clock) has passed. */
  async watchUntil(fromMs: number): Promise<void> {
    await this.session.until(fromMs + this.settings.observationWindowMs);
    this.fixtures.check.event('observation window closed', `${this.settings.observationWindowMs} ms`);
  }

  /** Sets `url` up as the client's receiving address (webhooks.register); whether the operation said it did. */
  async trySetUpAddress(url: string, label = 'set the suite receiver as the user-update address'): Promise<OperationResult> {
    const { http, tokens } = this.fixtures;
    return callOperation(http, this.settings.register!, { receiverUrl: url, userId: this.userId }, { bearer: tokens, label });
  }

  /**
   * Sets `url` up as the client's receiving address; a refusal means the
   * check could not run. Then waits the propagation the profile declares
   * (webhooks.addressPropagationMs): an event caused before it may still go
   * to the address set up before.
   */
  async setUpAddress(url: string, label?: string): Promise<void> {
    const registered = await this.trySetUpAddress(url, label);
    if (!registered.ok) throw new Error(`setting ${url} as the user-update address failed: ${registered.response.status} (webhooks.register)`);
    await this.awaitPropagation();
  }

  /** Waits webhooks.addressPropagationMs, when the profile declares a time. */
  private async awaitPropagation(): Promise<void> {
    const ms = this.settings.addressPropagationMs;
    if (!ms) return;
    this.fixtures.check.event('address propagation', `waiting the declared ${ms} ms (webhooks.addressPropagationMs) for the address to take effect`);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }

  /**
   * The address every session sets up: the one last set up through the hub,
   * or, first, the receiver's own with the suite's marker (markers.ts), and
   * the plain one if the implementation refuses an address with a query.
   * Returns what it set up.
   */
  async setUpUsualAddress(current: string | undefined): Promise<string> {
    if (current) return (await this.setUpAddress(current), current);
    const marked = markedAddress(this.session.url, SUITE_MARKER);
    if ((await this.trySetUpAddress(marked)).ok) return (await this.awaitPropagation(), marked);
    this.fixtures.check.note(`the implementation refused ${marked} as the receiving address; the receiver's address without a query is set up instead`);
    return (await this.setUpAddress(this.session.url), this.session.url);
  }

  /**
   * Runs `body` holding the receiver's address lock: no other check sets up
   * the address meanwhile. `body` gets the address last set up through the
   * hub (undefined: none yet) and returns the one it leaves set up, which
   * every later session sets up in turn.
   */
  async withAddressLock(body: (current: string | undefined) => Promise<string | undefined>): Promise<void> {
    const current = await waitingOnOtherChecks(this.session.lockAddress());
    let leftSetUp: string | undefined;
    try {
      leftSetUp = await body(current);
    } finally {
      await this.session.unlockAddress(leftSetUp);
    }
  }
}

/** The profile's signature strategy, its keys loaded: a key set that cannot be had is a set-up error, not the delivery's fault. */
export async function loadSignatureStrategy(fixtures: CheckFixtures, settings: WebhookSettings): Promise<SignatureStrategy | undefined> {
  if (!settings.signature) return undefined;
  const jwksFetch = { access: fixtures.profile.auth?.jwksAccess, bearer: fixtures.tokens };
  return signatureStrategy(settings.signature, fixtures.http, settings.dateSkewSeconds, jwksFetch);
}

/**
 * Runs a check body in a session on the target's receiver whose answers
 * follow `script`: waits for a free user (outside the check's time limit),
 * sets up the receiving address (setUpUsualAddress, under the hub's address
 * lock: see withAddressLock) unless `setUpAddress` is false, and
 * afterwards keeps every delivery of the session as evidence; a check that
 * judges the body's shape says so (`judgesBodyShape`).
 */
export async function withWebhookSession(
  fixtures: CheckFixtures,
  script: ResponseStep[],
  body: (session: WebhookSession) => Promise<void>,
  options: { setUpAddress?: boolean } & SessionOptions = {},
): Promise<void> {
  const { check, http, profile, targetName } = fixtures;
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
    check.event(`delivery #${d.seq} received`, `${d.method} ${d.requestTarget}, key ${key ?? '(none)'}; answered ${step.status}${step.delayMs ? ` after ${step.delayMs} ms` : ''}`);
  };
  const webhookSession = new WebhookSession(fixtures, settings, session, { judgesBodyShape: options.judgesBodyShape });
  try {
    if (settings.register && options.setUpAddress !== false) {
      await webhookSession.withAddressLock((current) => webhookSession.setUpUsualAddress(current));
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
