// An accepted offer's processing (spec 3.1): it takes the offer's
// processingMs, then the offer book completes it with a trade; accept
// answers 200 only when that happens within the predefined time.
import type { ReferenceContext } from '../context.ts';
import type { Offer, OfferBook } from './offer-book.ts';
import type { AcceptedTrade } from './trade.ts';

export class OfferProcessing {
  /** The processing of each offer that has begun, resolving with the trade it makes (3.1). */
  private readonly processingOf = new WeakMap<Offer, Promise<AcceptedTrade>>();

  constructor(
    private readonly ctx: ReferenceContext,
    private readonly book: OfferBook,
  ) {}

  /**
   * Starts processing (3.1); resolves with the trade this execution made once
   * the offer is accepted. Never resolves for the offer-stuck-in-progress fault.
   */
  start(offer: Offer): Promise<AcceptedTrade> {
    const stuck = this.ctx.faults.has('offer-stuck-in-progress') && this.outlastsPredefinedTime(offer);
    const processing = new Promise<AcceptedTrade>((resolve) => {
      if (stuck) return;
      // unref: a pending trade must not keep a closed reference's process alive.
      setTimeout(() => resolve(this.book.complete(offer)), offer.processingMs).unref();
    });
    this.processingOf.set(offer, processing);
    return processing;
  }

  /** Whether the offer's processing takes longer than the predefined time: its accept takes the slow path (202). */
  outlastsPredefinedTime(offer: Offer): boolean {
    return offer.processingMs > this.ctx.options.acceptPredefinedTimeMs;
  }

  /** The processing begun for the offer; one that never resolves when none was. */
  of(offer: Offer): Promise<AcceptedTrade> {
    return this.processingOf.get(offer) ?? new Promise<never>(() => {});
  }

  /** The trade, when processing finished within the predefined time (3.1); undefined when it did not. */
  async finishedInTime(processing: Promise<AcceptedTrade>): Promise<AcceptedTrade | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.ctx.options.acceptPredefinedTimeMs);
    });
    const finished = await Promise.race([processing, timeUp]);
    clearTimeout(timer);
    return finished;
  }
}
