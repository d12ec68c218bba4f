// The model state of explored offer acceptance (spec 4.4, 3.1, 8): what the
// offers a case made are, and what the spec allows an accept of one of them.
// Pure: no request is sent here, so the unit tests hold the model to the
// spec's rules without a target.
//
//   - only the newest offer created for a user can be accepted (4.4 rule 1);
//     newest among that user's offers: another user's offer supersedes none;
//   - within its validity period (rule 2): an offer whose recipe declares
//     expiresAfterSeconds is expired once that, a clock step and the margin
//     have passed since its create answer (suites/trading/clock.ts); before
//     that, an accept of it is never judged (a retry after a transient
//     answer may come after its validity); an offer of another recipe is
//     valid for trading.validitySeconds, as far as the accept's answer came
//     that long (less the margin) after its create was sent;
//   - an accept without a bearer, with a forged one, without svc-user-id,
//     with another user's, or of an id that names no offer is refused;
//   - an offer already accepted (200 or 202) is judged by what a second
//     accept executed, never by how it is answered.
// An offer whose state the model cannot know — an accept answered a way the
// spec does not allow, a 5xx, a refused valid accept, an accept of an offer
// near its validity — is "unclear": no later accept of it is judged.
import { ASSUMED_GRANULARITY_MS, expiryWaitMs } from '../../suites/trading/clock.ts';

export type UserRole = 'A' | 'B';

/** What the model knows of an offer the case made. */
export interface ModelOffer {
  id: string;
  user: UserRole;
  recipe: string;
  /** The recipe declares acceptAnswers (200 or 202), when it does. */
  acceptAnswers?: 200 | 202;
  /** The recipe declares expiresAfterSeconds, when it does. */
  expiresAfterSeconds?: number;
  /** When its create was sent and when its answer came (ms since the epoch, this machine's clock). */
  sentAt: number;
  answeredAt: number;
  /** The step of the implementation's clock, in ms (suites/trading/clock.ts). */
  granularityMs: number;
  /** Its order of creation within the case. */
  seq: number;
  state: 'open' | 'accepted' | 'unclear';
  /** The first accept's status, once accepted. */
  firstStatus?: number;
  /** The first accept answered 202 and its offer was followed to its end (or could not be). */
  settled?: boolean;
  /** The trade of its execution, when known. */
  tradeId?: string;
}

export interface ModelTiming {
  /** trading.expiryMarginMs (default 750, as the suite's). */
  marginMs: number;
  /** trading.validitySeconds: how long an offer of a recipe without expiresAfterSeconds stays valid; undefined when not declared. */
  validitySeconds?: number;
}

/** The offers of the case, in order of creation. */
export class OfferModel {
  readonly offers: ModelOffer[] = [];

  add(offer: Omit<ModelOffer, 'seq' | 'state'>): ModelOffer {
    const made: ModelOffer = { ...offer, seq: this.offers.length, state: 'open' };
    this.offers.push(made);
    return made;
  }

  /** The newest offer created for the user (4.4 rule 1: newest among that user's). */
  newestOf(user: UserRole): ModelOffer | undefined {
    return this.offers.filter((o) => o.user === user).at(-1);
  }

  /** The most recent offer of the user that a newer one of the same user superseded. */
  olderOf(user: UserRole): ModelOffer | undefined {
    return this.offers.filter((o) => o.user === user).slice(0, -1).at(-1);
  }

  /** The offer accepted last (for a second accept). */
  lastAccepted(): ModelOffer | undefined {
    return this.offers.filter((o) => o.state === 'accepted').at(-1);
  }

  /** An offer whose accept answered 202 and that was not yet followed to its end. */
  unsettled(): ModelOffer | undefined {
    return this.offers.filter((o) => o.state === 'accepted' && o.firstStatus === 202 && !o.settled).at(-1);
  }

  /** Another user's offer created after this one: the newest of its own user must still be accepted. */
  newerOfOtherUser(offer: ModelOffer): ModelOffer | undefined {
    return this.offers.find((o) => o.user !== offer.user && o.seq > offer.seq);
  }

  isNewest(offer: ModelOffer): boolean {
    return this.newestOf(offer.user) === offer;
  }

  /** The expiring offers not yet past their expiry wait at `now`: how long until all are. */
  expiryWaitFrom(now: number, timing: ModelTiming): number {
    const until = this.offers.filter((o) => o.expiresAfterSeconds !== undefined).map((o) => expiredFrom(o, timing));
    return Math.max(0, ...until.map((t) => t - now));
  }
}

/** When an expiring offer is surely past its validity, on this machine's clock (suites/trading/clock.ts expiryWaitMs). */
export function expiredFrom(offer: ModelOffer, timing: ModelTiming): number {
  return offer.answeredAt + expiryWaitMs(offer.expiresAfterSeconds!, timing.marginMs, offer.granularityMs || ASSUMED_GRANULARITY_MS);
}

/**
 * Where an accept stands to the offer's validity period: 'valid' (surely
 * within it), 'expired' (surely past it: sent after the expiry wait), or
 * 'edge' (neither is sure: the case decides nothing of rule 2 or of the
 * answers due to a valid offer).
 */
export type Validity = 'valid' | 'expired' | 'edge';

export function validityAt(offer: ModelOffer, acceptSentAt: number, acceptAnsweredAt: number, timing: ModelTiming): Validity {
  if (offer.expiresAfterSeconds !== undefined) return acceptSentAt >= expiredFrom(offer, timing) ? 'expired' : 'edge';
  if (timing.validitySeconds === undefined) return 'valid';
  const validUntil = offer.sentAt + timing.validitySeconds * 1_000 - timing.marginMs - offer.granularityMs;
  return acceptAnsweredAt <= validUntil ? 'valid' : 'edge';
}

/** What the accept was sent with. */
export interface AcceptSent {
  /** undefined: an id that names no offer. */
  offer?: ModelOffer;
  /** Whose svc-user-id was sent: the offer's owner, the other user, or none. */
  as: 'owner' | 'other' | 'none';
  bearer: 'valid' | 'absent' | 'forged';
  body: boolean;
}

/** Why an accept must be refused, in the order a rule takes the case (the first is the rule's). */
export type Defect = 'no-bearer' | 'forged-bearer' | 'no-user-header' | 'unknown-offer' | 'other-user' | 'expired' | 'older';

/** What the spec allows the accept, from the model's state. */
export type Expectation =
  /** Must be refused: the defects, the first one's rule judges. */
  | { kind: 'refused'; defects: Defect[] }
  /** An offer already accepted, asked again by its owner: judged by what it executed. */
  | { kind: 'again' }
  /** The newest valid offer of its owner, asked by its owner: 200 or 202 (with a body: recorded). */
  | { kind: 'accepted' }
  /** What the spec allows is not known to the model: recorded only. */
  | { kind: 'unknown'; why: string };

export function expectationOf(sent: AcceptSent, model: OfferModel, validity: Validity | undefined): Expectation {
  const defects: Defect[] = [];
  if (sent.bearer === 'absent') defects.push('no-bearer');
  if (sent.bearer === 'forged') defects.push('forged-bearer');
  if (sent.as === 'none') defects.push('no-user-header');
  const offer = sent.offer;
  if (!offer) defects.push('unknown-offer');
  else if (sent.as === 'other') defects.push('other-user');
  // An offer already accepted is judged by what a second accept executed (a replay may answer it), never as expired or older.
  if (offer && offer.state === 'accepted') return defects.length ? { kind: 'refused', defects } : { kind: 'again' };
  if (offer && offer.state === 'unclear') {
    return defects.length ? { kind: 'refused', defects } : { kind: 'unknown', why: 'an earlier answer left the offer in a state the model cannot know' };
  }
  if (offer && validity === 'expired') defects.push('expired');
  if (offer && !model.isNewest(offer)) defects.push('older');
  if (defects.length) return { kind: 'refused', defects };
  if (validity !== 'valid') return { kind: 'unknown', why: 'the accept came too near the end of the offer\'s validity period for either answer to be sure' };
  return { kind: 'accepted' };
}

/** Whether a refusal with these defects may be 404 record not found (7): an id unknown to the user asking. */
export const mayBeNotFound = (defects: readonly Defect[]): boolean => defects.includes('unknown-offer') || defects.includes('other-user');
