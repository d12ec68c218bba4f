// The trade offers of one reference server and the acceptance rules of spec
// 4.4: only the newest offer of a user, only within its validity period, only
// by its owner, and only once. refusal() and begin() are synchronous: a route
// that calls them back to back, with no await in between, makes
// check-and-set atomic on the event loop, so of simultaneous accepts exactly
// one begins. Time is read through the reference's clock: in whole seconds
// under the second-resolution condition (conditions/second-resolution.ts).
import { referenceClock, type ReferenceClock } from '../conditions/second-resolution.ts';
import { quoteFor, tradeFor, type AcceptedTrade, type Quote } from './trade.ts';

/** What the book stores; "expired" and "superseded" are derived from time and newer offers. */
export type StoredStatus = 'offered' | 'in_progress' | 'accepted';
export type OfferStatus = StoredStatus | 'expired' | 'superseded';

export interface Offer {
  id: string;
  userId: string;
  createdAt: Date;
  validUntil: Date;
  processingMs: number;
  quote: Quote;
  status: StoredStatus;
  externalTransactionId?: string;
  trade?: AcceptedTrade;
}

/** Why an accept is refused. */
export type Refusal = 'not-owner' | 'already-accepted' | 'superseded' | 'expired';

/** The acceptance rules; each can be switched off by one fault, breaking one requirement. */
export interface AcceptRules {
  ownership: boolean;
  newestOnly: boolean;
  validity: boolean;
  /** An offer whose processing has finished stays accepted (not acceptable again). */
  completedStaysAccepted: boolean;
}

/** Offers kept; the oldest go first, and then count as unknown. Bounds memory under load. */
const OFFER_CAP = 50_000;

/** How the book tells the newest offer (4.4 rule 1: "the newest offer created for the user"). */
export interface NewestRule {
  /** The offer-newest-across-users fault: the newest offer of all users is the only one acceptable. */
  acrossUsers?: boolean;
}

export class OfferBook {
  private readonly offers = new Map<string, Offer>();
  private readonly newestByUser = new Map<string, string>();
  private newestOfAll?: string;
  private sequence = 0;

  constructor(
    private readonly clock: ReferenceClock = referenceClock(false),
    private readonly newest: NewestRule = {},
  ) {}

  create(userId: string, options: { processingMs: number; validitySeconds: number }, now = this.clock.now()): Offer {
    const offer: Offer = {
      id: crypto.randomUUID(),
      userId,
      createdAt: now,
      validUntil: new Date(now.getTime() + options.validitySeconds * 1000),
      processingMs: options.processingMs,
      quote: quoteFor(++this.sequence),
      status: 'offered',
    };
    this.offers.set(offer.id, offer);
    this.newestByUser.set(userId, offer.id);
    this.newestOfAll = offer.id;
    if (this.offers.size > OFFER_CAP) this.offers.delete(this.offers.keys().next().value!);
    return offer;
  }

  /** Whether no newer offer supersedes this one: the user's newest (or, under the fault, everyone's). */
  private isNewest(offer: Offer): boolean {
    return (this.newest.acrossUsers ? this.newestOfAll : this.newestByUser.get(offer.userId)) === offer.id;
  }

  get(id: string): Offer | undefined {
    return this.offers.get(id.toLowerCase());
  }

  statusOf(offer: Offer, now = new Date()): OfferStatus {
    if (offer.status !== 'offered') return offer.status;
    if (!this.isNewest(offer)) return 'superseded';
    return this.clock.isPast(offer.validUntil, now) ? 'expired' : 'offered';
  }

  /** Why `userId` may not accept the offer now, or undefined when they may. */
  refusal(offer: Offer, userId: string, rules: AcceptRules, now = new Date()): Refusal | undefined {
    if (rules.ownership && offer.userId !== userId) return 'not-owner';
    if (offer.status === 'in_progress') return 'already-accepted';
    if (offer.status === 'accepted' && rules.completedStaysAccepted) return 'already-accepted';
    if (rules.newestOnly && !this.isNewest(offer)) return 'superseded';
    if (rules.validity && this.clock.isPast(offer.validUntil, now)) return 'expired';
    return undefined;
  }

  /** Moves the offer to in progress (3.1); the caller completes it once processing is done. */
  begin(offer: Offer, externalTransactionId: string | undefined): void {
    offer.status = 'in_progress';
    offer.externalTransactionId = externalTransactionId;
    offer.trade = undefined;
  }

  complete(offer: Offer, at = this.clock.now()): AcceptedTrade {
    offer.trade = tradeFor(offer.id, offer.quote, this.clock.iso(at));
    offer.status = 'accepted';
    return offer.trade;
  }
}
