// How the trading routes write what they answer: an offer's view, a trade
// as the variants and faults show it, the accept answers (200, 202, the
// refusals of the offer book).
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { sendError, sendJson } from '../http-util.ts';
import type { Offer, OfferBook, Refusal } from './offer-book.ts';
import { presentTrade, type AcceptedTrade } from './trade.ts';
import { basicFormat } from '../basic-format.ts';

export class TradingAnswers {
  private readonly refusalAnswer: Record<Refusal, (res: ServerResponse) => void>;

  constructor(
    private readonly ctx: ReferenceContext,
    private readonly book: OfferBook,
  ) {
    this.refusalAnswer = {
      'not-owner': (res) =>
        this.variant('other-users-offer-not-found')
          ? sendError(res, 404, 'record_not_found', 'no offer with this id')
          : sendError(res, 403, 'forbidden', 'the offer belongs to another user'),
      'already-accepted': (res) => sendError(res, 409, 'offer_already_accepted', 'the offer has already been accepted'),
      superseded: (res) => sendError(res, 409, 'offer_superseded', 'a newer offer exists for this user; only the newest can be accepted'),
      expired: (res) => sendError(res, this.fault('expired-offer-409') ? 409 : 410, 'offer_expired', 'the validity period of the offer is over'),
    };
  }

  private fault(name: string): boolean {
    return this.ctx.faults.has(name);
  }

  private variant(name: string): boolean {
    return this.ctx.variants.has(name);
  }

  /** The trade as answered: the variants choose how its values are written. */
  private shownTrade(trade: AcceptedTrade): AcceptedTrade {
    return presentTrade(trade, {
      exponentAmounts: this.variant('trade-decimal-exponent'),
      // Basic format at +01:00 too, so the variant shows an offset written ±hhmm.
      timeOffsetMinutes: this.variant('trade-time-offset') || this.variant('timestamps-iso8601-basic') ? 60 : undefined,
      basicFormat: this.variant('timestamps-iso8601-basic'),
    });
  }

  /** An offer's timestamp as answered: the clock's, in basic format under timestamps-iso8601-basic. */
  private timestamp(instant: Date): string {
    const iso = this.ctx.clock.iso(instant);
    return this.variant('timestamps-iso8601-basic') ? basicFormat(iso) : iso;
  }

  offerView(offer: Offer) {
    return {
      id: offer.id,
      user_id: offer.userId,
      status: this.book.statusOf(offer),
      type: offer.quote.type,
      created_at: this.timestamp(offer.createdAt),
      valid_until: this.timestamp(offer.validUntil),
      processing_ms: offer.processingMs,
      external_transaction_id: offer.externalTransactionId ?? null,
      trade: offer.trade ? this.shownTrade(offer.trade) : null,
    };
  }

  tradeBody(executed: AcceptedTrade): unknown {
    const trade = this.shownTrade(executed);
    if (this.fault('trade-amounts-as-numbers')) {
      const amounts = ['fiat_amount', 'tax_amount', 'total_amount', 'asset_amount', 'asset_price', 'spread', 'fees_after_cost', 'fee_percentage', 'net_asset_price'] as const;
      return { ...trade, ...Object.fromEntries(amounts.map((k) => [k, Number(trade[k])])) };
    }
    // The fault stands for a serializer that writes str(datetime): the date, a space, the time.
    if (this.fault('trade-time-space-separated')) return { ...trade, time: trade.time.replace('T', ' ') };
    if (this.fault('trade-warning-keys-missing')) {
      return { ...trade, warning: trade.warning.map(({ message, message_key, helpdesk_article_id }) => ({ message, message_key, helpdesk_article_id })) };
    }
    return trade;
  }

  /** Accept responses; the accept-content-type-text fault labels them text/plain. */
  sendAccept(res: ServerResponse, status: number, body: unknown): void {
    if (!this.fault('accept-content-type-text')) return sendJson(res, status, body);
    res.writeHead(status, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  }

  /** 202: received and still processing (3.1); its body is not shown (4.4). */
  sendInProgress(res: ServerResponse, offer: Offer): void {
    if (!this.variant('accept-202-without-body')) return this.sendAccept(res, 202, { data: { id: offer.id, status: this.book.statusOf(offer) } });
    res.writeHead(202, { 'cache-control': 'no-store' });
    res.end();
  }

  sendRefusal(res: ServerResponse, refusal: Refusal): void {
    this.refusalAnswer[refusal](res);
  }
}
