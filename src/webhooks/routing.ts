// Which check a delivery belongs to when several checks watch one receiver
// at once. The implementation sends every user-update event of a client to
// one address (spec 6), so checks that run side by side must cause events
// that can be told apart: each session holds a user of its own, and a
// delivery goes to the session holding the user it names.
//
// - Another attempt of an event (same key and content) goes where its first
//   attempt went, while that session is open.
// - A delivery that names no user the suite holds (a body that is not JSON, a
//   notification of another kind) goes to every session that is causing an
//   event right now (it may be the event of any of them; it is answered as
//   the session that began causing first says), or to the only session open;
//   otherwise nowhere. Causing is never exclusive: an implementation that
//   delivers seconds after the event must not make the checks take turns.
// - A late attempt of an event whose session has ended is acknowledged and
//   left out, as is anything for a user the suite holds in no session. A
//   session that ends with an event unacknowledged keeps its user a while
//   (holdMs), so that a retry under a fresh key is not taken for the next
//   session's event.
//
// A session's script answers per event: step n answers the nth attempt of
// each event (same key or same content). The last step repeats.
//
// The receiving address is the client's (spec 6), so setting it up is
// serialised by the address lock, and the router remembers the address last
// set up: a check that changes the address (to tell two addresses apart)
// keeps every other session setting up that one, never an older one.
import { contentFingerprint, eventFingerprint, isAttemptOf, namesUser, type ReceivedDelivery } from './delivery.ts';
import { SessionDeliveries } from './session-deliveries.ts';

export interface ResponseStep {
  status: number;
  /** Hold the answer back this long (ms). */
  delayMs?: number;
}

export interface SessionRequest {
  /** The users the session may take, each as the identifiers its events may name it by (the first is its id); the first free one is granted. */
  users: string[][];
  script: ResponseStep[];
  /** How long the user stays held after the session ends while an event it left unacknowledged may come back. */
  holdMs: number;
}

/** What a session tells whoever mirrors it: each delivery with its answer, each late attempt, each answer as it is written. */
export interface SessionListener {
  delivery(delivery: ReceivedDelivery, step: ResponseStep): void;
  earlier(delivery: ReceivedDelivery): void;
  answered(delivery: ReceivedDelivery): void;
}

/** The answer outside sessions and to late attempts of earlier events: acknowledged, so they stop. */
const ACKNOWLEDGE: ResponseStep = { status: 204 };
/** The answers that confirm receipt (spec 6.1). */
const ACKNOWLEDGING = new Set([200, 201, 202, 204]);

export class RoutedSession extends SessionDeliveries {
  private listener: SessionListener | undefined;

  constructor(
    /** The granted user's identifiers; the first is the id the trigger takes. */
    readonly userIds: string[],
    private readonly script: readonly ResponseStep[],
    private readonly holdMs: number,
    private readonly router: DeliveryRouter,
  ) {
    super();
    if (script.length === 0) throw new Error('a response script needs at least one step');
  }

  listen(listener: SessionListener): void {
    this.listener = listener;
  }

  /** Takes a delivery into the session and says how to answer it; `forced` overrides the script. */
  admit(delivery: ReceivedDelivery, forced?: ResponseStep): ResponseStep {
    // Per event: other notifications to the same address do not use up the steps meant for the event under test.
    const attempt = this.deliveries.filter((earlier) => isAttemptOf(delivery, earlier)).length;
    const step = forced ?? this.script[Math.min(attempt, this.script.length - 1)]!;
    this.add(delivery);
    this.listener?.delivery(delivery, step);
    return step;
  }

  admitLate(delivery: ReceivedDelivery): void {
    this.earlier.push(delivery);
    this.listener?.earlier(delivery);
  }

  noteAnswer(delivery: ReceivedDelivery): void {
    if (!this.isOpen || !this.deliveries.includes(delivery)) return;
    this.answerSettled(delivery);
    this.listener?.answered(delivery);
  }

  /** How many events this session is causing (caused, delivery not yet taken). */
  causing = 0;

  /** The session causes an event: until endCause, a delivery naming no user may be its event. */
  beginCause(): void {
    this.router.beginCause(this);
  }

  endCause(): void {
    this.router.endCause(this);
  }

  /** Waits until no other session is setting up the receiving address; resolves with the address last set up (undefined: none yet). */
  lockAddress(): Promise<string | undefined> {
    return this.router.lockAddress(this);
  }

  /** Releases the address lock; `registered`: the address this session has just set up. */
  unlockAddress(registered?: string): void {
    this.router.unlockAddress(this, registered);
  }

  end(): void {
    if (this.close()) this.router.ended(this, this.holdMs);
  }
}

interface PendingSession {
  request: SessionRequest;
  grant: (session: RoutedSession) => void;
}

/**
 * How many unacknowledged events the router remembers, the most recently
 * delivered kept: any attempt of one may still come back (the spec bounds no
 * retry schedule), so there is no moment to forget one, and memory is bounded
 * by count instead. An attempt of an event forgotten so is routed as a new
 * event; ten thousand events outstanding at once is far beyond any check.
 */
export const REMEMBERED_EVENTS = 10_000;

/** A user kept out of new sessions after its session ended with events unacknowledged: their contents, until each is acknowledged. */
interface Hold {
  contents: Set<string>;
  timer: NodeJS.Timeout;
}

export class DeliveryRouter {
  private readonly open = new Set<RoutedSession>();
  private readonly queue: PendingSession[] = [];
  private readonly holds = new Map<string, Hold>();
  /** Every user identifier a session was ever granted: deliveries naming one of them are never given to another user's session. */
  private readonly knownUsers: string[][] = [];
  /** Event fingerprint → the session that took its first attempt. */
  private readonly owners = new Map<string, RoutedSession>();
  /** Fingerprints of events whose latest attempt was not (yet) acknowledged, the latest delivered last: they may come back. */
  private readonly unacknowledged = new Set<string>();
  /** The sessions causing an event, in the order they began. */
  private readonly causers: RoutedSession[] = [];
  /** The receiving address a session last set up through this router. */
  private address: string | undefined;
  private addressHolder: RoutedSession | undefined;
  private readonly addressQueue: Array<{ session: RoutedSession; grant: (address: string | undefined) => void }> = [];

  /** rememberedEvents: how many unacknowledged events are remembered (REMEMBERED_EVENTS; a test shrinks it). */
  constructor(private readonly rememberedEvents = REMEMBERED_EVENTS) {}

  /** A session once one of the requested users is free (the wait is as long as the sessions holding them). */
  openSession(request: SessionRequest): Promise<RoutedSession> {
    if (request.users.length === 0 || request.users.some((ids) => ids.length === 0)) throw new Error('a webhook session needs at least one user');
    return new Promise((grant) => {
      this.queue.push({ request, grant });
      this.grantWaiting();
    });
  }

  private busy(userId: string): boolean {
    return this.holds.has(userId) || [...this.open].some((s) => s.userIds[0] === userId);
  }

  private grantWaiting(): void {
    for (const pending of [...this.queue]) {
      const user = pending.request.users.find((ids) => !this.busy(ids[0]!));
      if (!user) continue;
      this.queue.splice(this.queue.indexOf(pending), 1);
      if (!this.knownUsers.some((ids) => ids[0] === user[0])) this.knownUsers.push(user);
      const session = new RoutedSession(user, pending.request.script, pending.request.holdMs, this);
      this.open.add(session);
      pending.grant(session);
    }
  }

  /** Where a delivery goes and how it is answered; `forced` overrides the session's script (an oversized body). */
  route(delivery: ReceivedDelivery, forced?: ResponseStep): ResponseStep {
    const fingerprint = eventFingerprint(delivery);
    const owner = this.owners.get(fingerprint);
    let step: ResponseStep;
    if (owner?.isOpen) {
      step = owner.admit(delivery, forced);
    } else if (this.unacknowledged.has(fingerprint) || this.heldUserOf(delivery)) {
      for (const recipient of this.recipients(delivery)) recipient.admitLate(delivery);
      step = forced ?? ACKNOWLEDGE;
    } else {
      // An event the receiver acknowledged is not expected back, so a delivery identical to it is a new event
      // (two events of one second can be byte-identical when an implementation reuses keys or sends none).
      const [first, ...others] = this.recipients(delivery);
      if (first) this.owners.set(fingerprint, first);
      step = first?.admit(delivery, forced) ?? forced ?? ACKNOWLEDGE;
      // Each of them records the answer the delivery actually got.
      for (const other of others) other.admit(delivery, step);
    }
    this.rememberUnacknowledged(fingerprint);
    return step;
  }

  /** Until its answer acknowledges it (answered()): the latest delivered last, the earliest forgotten beyond rememberedEvents. */
  private rememberUnacknowledged(fingerprint: string): void {
    this.unacknowledged.delete(fingerprint);
    this.unacknowledged.add(fingerprint);
    if (this.unacknowledged.size > this.rememberedEvents) this.unacknowledged.delete(this.unacknowledged.values().next().value!);
  }

  /**
   * The open sessions a delivery is for: the one holding the user it names;
   * for one naming no suite user, every session causing an event (it may be
   * the event of any of them), or the only one open.
   */
  private recipients(delivery: ReceivedDelivery): RoutedSession[] {
    for (const session of this.open) if (namesUser(delivery, session.userIds)) return [session];
    if (this.knownUsers.some((ids) => namesUser(delivery, ids))) return [];
    if (this.causers.length) return [...this.causers];
    return this.open.size === 1 ? [...this.open] : [];
  }

  /** A held user whose unacknowledged event this delivery repeats (under any key). */
  private heldUserOf(delivery: ReceivedDelivery): string | undefined {
    if (this.holds.size === 0) return undefined;
    const content = contentFingerprint(delivery);
    for (const [userId, hold] of this.holds) if (hold.contents.has(content)) return userId;
    return undefined;
  }

  /** Told once an answer was written (or could not be: the implementation hung up first). */
  answered(delivery: ReceivedDelivery): void {
    const acknowledged = delivery.answer?.written === true && ACKNOWLEDGING.has(delivery.answer.status);
    if (acknowledged) {
      this.unacknowledged.delete(eventFingerprint(delivery));
      const held = this.heldUserOf(delivery);
      if (held) {
        const hold = this.holds.get(held)!;
        hold.contents.delete(contentFingerprint(delivery));
        if (hold.contents.size === 0) this.release(held);
      }
    }
    for (const session of this.open) session.noteAnswer(delivery);
  }

  beginCause(session: RoutedSession): void {
    if (!session.isOpen) throw new Error('the webhook session has ended');
    if (session.causing++ === 0) this.causers.push(session);
  }

  endCause(session: RoutedSession): void {
    if (session.causing === 0) return;
    if (--session.causing === 0) this.causers.splice(this.causers.indexOf(session), 1);
  }

  lockAddress(session: RoutedSession): Promise<string | undefined> {
    if (!session.isOpen) return Promise.reject(new Error('the webhook session has ended'));
    if (!this.addressHolder) {
      this.addressHolder = session;
      return Promise.resolve(this.address);
    }
    return new Promise((grant) => this.addressQueue.push({ session, grant }));
  }

  unlockAddress(session: RoutedSession, registered?: string): void {
    const queued = this.addressQueue.findIndex((q) => q.session === session);
    if (queued >= 0) this.addressQueue.splice(queued, 1);
    if (this.addressHolder !== session) return;
    if (registered !== undefined) this.address = registered;
    const next = this.addressQueue.shift();
    this.addressHolder = next?.session;
    next?.grant(this.address);
  }

  ended(session: RoutedSession, holdMs: number): void {
    // Whatever it was still causing, its deliveries have nobody to go to now.
    while (session.causing > 0) this.endCause(session);
    this.unlockAddress(session);
    this.open.delete(session);
    // An ended owner routes like none (route() asks isOpen): forgetting it keeps a long run's memory to the open sessions.
    for (const [fingerprint, owner] of this.owners) if (owner === session) this.owners.delete(fingerprint);
    const unacknowledged = session.deliveries.filter((d) => this.unacknowledged.has(eventFingerprint(d)));
    if (unacknowledged.length && holdMs > 0) {
      const userId = session.userIds[0]!;
      const timer = setTimeout(() => this.release(userId), holdMs);
      this.holds.set(userId, { contents: new Set(unacknowledged.map(contentFingerprint)), timer });
    }
    this.grantWaiting();
  }

  private release(userId: string): void {
    const hold = this.holds.get(userId);
    if (!hold) return;
    clearTimeout(hold.timer);
    this.holds.delete(userId);
    this.grantWaiting();
  }

  /** Ends every session and forgets the waiting ones (their checks' receivers are closing). */
  close(): void {
    for (const session of [...this.open]) session.end();
    for (const [userId] of this.holds) this.release(userId);
  }
}
