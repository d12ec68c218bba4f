// What a webhook session holds: the deliveries routed to it, in order of
// arrival, the late attempts of earlier events it was spared, and waiting for
// a delivery that matches. The hub's session (src/webhooks/routing.ts) and
// a worker's mirror of it (runner/webhook-hub/client.ts) share this, so a
// check waits the same way whichever process its receiver lives in.
import type { DeliveryAnswer, ReceivedDelivery } from './delivery.ts';

type Waiter = { predicate: (d: ReceivedDelivery) => boolean; resolve: (d: ReceivedDelivery | undefined) => void; timer: NodeJS.Timeout };
type AnswerWaiter = { delivery: ReceivedDelivery; resolve: (answer: DeliveryAnswer | undefined) => void; timer: NodeJS.Timeout };

export class SessionDeliveries {
  /** This session's deliveries, in order of arrival. */
  readonly deliveries: ReceivedDelivery[] = [];
  /** Late attempts of events first seen by an ended session (or by none); acknowledged and left out. */
  readonly earlier: ReceivedDelivery[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly answerWaiters = new Set<AnswerWaiter>();
  private ended = false;

  get isOpen(): boolean {
    return !this.ended;
  }

  /** Takes a delivery in and settles the waiters it matches. */
  protected add(delivery: ReceivedDelivery): void {
    this.deliveries.push(delivery);
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(delivery)) this.settle(waiter, delivery);
    }
  }

  private settle(waiter: Waiter, delivery: ReceivedDelivery | undefined): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
    waiter.resolve(delivery);
  }

  /** The first session delivery (already received or still to come) that matches, or undefined after timeoutMs. */
  waitFor(predicate: (d: ReceivedDelivery) => boolean, timeoutMs: number): Promise<ReceivedDelivery | undefined> {
    const found = this.deliveries.find(predicate);
    if (found || this.ended) return Promise.resolve(found);
    return new Promise((resolve) => {
      const waiter: Waiter = { predicate, resolve, timer: setTimeout(() => this.settle(waiter, undefined), timeoutMs) };
      this.waiters.add(waiter);
    });
  }

  /** A delivery's answer has been written, or the sender hung up before it was: settles whoever waits for it. */
  protected answerSettled(delivery: ReceivedDelivery): void {
    for (const waiter of [...this.answerWaiters]) {
      if (waiter.delivery !== delivery) continue;
      clearTimeout(waiter.timer);
      this.answerWaiters.delete(waiter);
      waiter.resolve(delivery.answer);
    }
  }

  /** The answer a delivery got (written, or not because the sender hung up), once known; undefined after timeoutMs. */
  answerOf(delivery: ReceivedDelivery, timeoutMs: number): Promise<DeliveryAnswer | undefined> {
    if (delivery.answer || this.ended) return Promise.resolve(delivery.answer);
    return new Promise((resolve) => {
      const waiter: AnswerWaiter = { delivery, resolve, timer: setTimeout(() => (this.answerWaiters.delete(waiter), resolve(undefined)), timeoutMs) };
      this.answerWaiters.add(waiter);
    });
  }

  /** Resolves once this process's clock reaches `atMs` (a performance.now() value). */
  async until(atMs: number): Promise<void> {
    const wait = atMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** No more deliveries: pending waits resolve with what they have. Returns false when already ended. */
  protected close(): boolean {
    if (this.ended) return false;
    this.ended = true;
    for (const waiter of [...this.waiters]) this.settle(waiter, undefined);
    for (const waiter of [...this.answerWaiters]) this.answerSettled(waiter.delivery);
    return true;
  }
}
