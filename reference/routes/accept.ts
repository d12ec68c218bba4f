// PATCH /v1/offers/{Offer-ID}/accept (spec 4.4, 3.1, 2.4, 8). Its answers,
// and the faults and variants that change them, are listed in
// routes/trading.ts, which registers it.
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { authenticateUnless } from '../context.ts';
import { sendError, sendJson } from '../http-util.ts';
import type { RateLimiter } from '../limits/limiter.ts';
import { rateLimiterFor } from '../limits/rate-limiter.ts';
import type { Router, RouteRequest } from '../router.ts';
import type { TradingAnswers } from '../trading/answers.ts';
import { ExternalIdRegister } from '../trading/external-ids.ts';
import type { AcceptRules, Offer, OfferBook } from '../trading/offer-book.ts';
import { OfferProcessing } from '../trading/processing.ts';
import { readUserHeader, userIdHeaderName } from '../trading/svc-user-id.ts';
import type { AcceptedTrade } from '../trading/trade.ts';
import { holdAdmittedAnswer } from '../conditions/slow-processing.ts';

export const ACCEPT_ROUTE = '/v1/offers/:offerId/accept';

const MAX_EXTERNAL_ID_LENGTH = 256;
/**
 * How long the accept-race fault yields between the check and the set: as
 * wide as the refresh-race fault's, so simultaneous accepts still overlap in
 * it on a loaded machine (at 20 ms, one self-test run in several missed it at
 * a load average above 6).
 */
const RACE_WINDOW_MS = 300;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function registerAcceptRoute(router: Router, ctx: ReferenceContext, book: OfferBook, answers: TradingAnswers): void {
  const route = new AcceptRoute(ctx, book, answers);
  router.add('PATCH', ACCEPT_ROUTE, (req, res) => route.handle(req, res));
}

/** A request body: none is shown (4.4). */
function carriesBody(req: RouteRequest): boolean {
  const length = req.raw.headers['content-length'];
  return (length !== undefined && Number(length) > 0) || req.raw.headers['transfer-encoding'] !== undefined;
}

class AcceptRoute {
  // A token bucket by default; its algorithm and 429 headers follow the load variants (limits/rate-limiter.ts).
  private readonly bucket: RateLimiter;
  /** svc-user-id, or its product-specific name (options.userIdHeader, user-id-header-renamed). */
  private readonly userHeader: string;
  private readonly processing: OfferProcessing;
  private readonly externalIds = new ExternalIdRegister();
  private readonly rules: AcceptRules;

  constructor(
    private readonly ctx: ReferenceContext,
    private readonly book: OfferBook,
    private readonly answers: TradingAnswers,
  ) {
    this.bucket = rateLimiterFor(ctx, 'accept');
    this.userHeader = userIdHeaderName(ctx);
    this.processing = new OfferProcessing(ctx, book);
    this.rules = {
      ownership: !this.fault('offer-ownership-unchecked'),
      newestOnly: !this.fault('older-offer-acceptable'),
      validity: !this.fault('expired-offer-acceptable'),
      completedStaysAccepted: !this.fault('offer-accept-repeatable'),
    };
  }

  private fault(name: string): boolean {
    return this.ctx.faults.has(name);
  }

  private variant(name: string): boolean {
    return this.ctx.variants.has(name);
  }

  async handle(req: RouteRequest, res: ServerResponse): Promise<void> {
    if (!(await authenticateUnless({ notRequired: 'accept-bearer-not-required', signatureUnchecked: 'accept-bearer-signature-unchecked' }, this.ctx, req, res))) return;
    const rateLimited = !this.bucket.take() && !this.fault('no-accept-rate-limit');
    if (rateLimited && !this.fault('rate-limited-accept-executes')) return this.sendRateLimited(res);
    // slow-processing: what the limiter let through answers late (conditions/slow-processing.ts).
    if (!rateLimited) holdAdmittedAnswer(this.ctx.conditions, 'accept', res);
    if (this.refusesBody(req, res)) return;

    // From here to book.begin() nothing awaits (but the accept-race fault): check-and-set is atomic.
    const external = this.externalTransactionId(req, res);
    if (!external) return;
    const externalTransactionId = external.id;
    const target = this.targetOffer(req, res);
    if (!target) return;
    const { offer, userId } = target;
    const asDeployed = this.variant('accept-refusals-as-deployed');
    const refusal = this.book.refusal(offer, userId, this.rulesFor(offer));
    if (refusal === 'superseded') this.supersededServerError(offer, externalTransactionId);
    if (refusal === 'already-accepted' && this.variant('accept-replay-idempotent')) return this.replay(res, offer);
    if (refusal) return this.answers.sendRefusal(res, refusal);
    if (asDeployed && externalTransactionId !== undefined && this.externalIds.usedForAnother(externalTransactionId, offer.id)) {
      return sendError(res, 406, 'external_transaction_id_reused', 'external_transaction_id was already used for another offer');
    }
    if (this.fault('accept-race')) await sleep(RACE_WINDOW_MS);
    this.book.begin(offer, externalTransactionId);
    if (asDeployed && externalTransactionId !== undefined) this.externalIds.remember(externalTransactionId, offer.id);
    const processing = this.processing.start(offer);

    // Only the rate-limited-accept-executes fault gets here rate limited: the offer is already executing.
    if (rateLimited) return this.sendRateLimited(res);
    return this.answerExecution(res, offer, processing);
  }

  /** The rules for this offer: the offer-expiry-fast-path-only fault checks validity only where processing finishes within the predefined time. */
  private rulesFor(offer: Offer): AcceptRules {
    if (!this.fault('offer-expiry-fast-path-only') || !this.processing.outlastsPredefinedTime(offer)) return this.rules;
    return { ...this.rules, validity: false };
  }

  /**
   * An older offer's accept that ends in the server's 500: refused before
   * anything runs (refusal-500-listed), or executed first and then failing
   * (the older-offer-executed-500 fault). Returns when neither applies.
   */
  private supersededServerError(offer: Offer, externalTransactionId: string | undefined): void {
    if (this.fault('older-offer-executed-500')) {
      this.book.begin(offer, externalTransactionId);
      void this.processing.start(offer);
      throw new Error('accepted trade could not be rendered: offer superseded');
    }
    if (this.variant('refusal-500-listed')) throw new Error('offer superseded');
  }

  private sendRateLimited(res: ServerResponse): void {
    sendError(res, 429, 'rate_limited', 'too many accept requests', this.bucket.limitHeaders('accept'));
  }

  /** True once a request body was refused (accept-body-refused); throws for the accept-body-500 fault. */
  private refusesBody(req: RouteRequest, res: ServerResponse): boolean {
    if (!carriesBody(req)) return false;
    if (this.fault('accept-body-500')) throw new TypeError('Unexpected request body on accept');
    if (!this.variant('accept-body-refused')) return false;
    sendError(res, 422, 'parameter_error', 'accept takes no request body');
    return true;
  }

  /** The external_transaction_id query parameter (id undefined when absent), or undefined once it was refused. */
  private externalTransactionId(req: RouteRequest, res: ServerResponse): { id: string | undefined } | undefined {
    const externalIds = req.url.searchParams.getAll('external_transaction_id');
    if (externalIds.length > 0 && this.fault('external-transaction-id-rejected')) {
      return void sendError(res, 422, 'parameter_error', 'unknown query parameter external_transaction_id');
    }
    if (externalIds.length > 1) return void sendError(res, 422, 'parameter_error', 'external_transaction_id is given more than once');
    const id = externalIds[0];
    if (id !== undefined && id.length > MAX_EXTERNAL_ID_LENGTH) {
      return void sendError(res, 422, 'parameter_error', `external_transaction_id is longer than ${MAX_EXTERNAL_ID_LENGTH} characters`);
    }
    return { id };
  }

  /** The offer and the user accepting it, or undefined once the user header or the offer id was refused. */
  private targetOffer(req: RouteRequest, res: ServerResponse): { offer: Offer; userId: string } | undefined {
    const userHeader = this.userHeader;
    const offer = this.book.get(req.params.offerId!);
    const header = readUserHeader(req.raw, userHeader);
    if (header.kind === 'malformed') return void sendError(res, 422, 'parameter_error', `${userHeader} must be a user id (UUID)`);
    const asDeployed = this.variant('accept-refusals-as-deployed');
    if (header.kind === 'missing' && !(this.fault('accept-user-header-optional') && offer)) {
      return void (asDeployed
        ? sendError(res, 403, 'forbidden', `the ${userHeader} header is required`)
        : sendError(res, 422, 'parameter_error', `the ${userHeader} header is required`));
    }
    if (!offer) {
      if (this.variant('refusal-500-listed')) throw new TypeError(`Cannot read properties of undefined (reading 'userId')`);
      // The lookup's miss serialised as the result.
      if (this.fault('unknown-offer-200')) return void sendJson(res, 200, { data: null });
      return void (asDeployed ? sendError(res, 410, 'record_gone', 'no offer with this id') : sendError(res, 404, 'record_not_found', 'no offer with this id'));
    }
    return { offer, userId: header.kind === 'present' ? header.userId : offer.userId };
  }

  /** accept-replay-idempotent: the offer's one execution answered again; nothing new executes. */
  private async replay(res: ServerResponse, offer: Offer): Promise<void> {
    const trade = offer.status === 'accepted' ? offer.trade : await this.processing.finishedInTime(this.processing.of(offer));
    if (!trade) return this.answers.sendInProgress(res, offer);
    this.answers.sendAccept(res, 200, { data: this.answers.tradeBody(trade) });
  }

  /** 200 with the trade when processing finished in time, else 202 (3.1); the faults bend both. */
  private async answerExecution(res: ServerResponse, offer: Offer, processing: Promise<AcceptedTrade>): Promise<void> {
    const trade = this.fault('accept-waits-for-processing') ? await processing : await this.processing.finishedInTime(processing);
    if (!trade || this.fault('accept-always-202')) return this.answers.sendInProgress(res, offer);
    if (this.fault('accept-answers-204')) {
      res.writeHead(204, { 'cache-control': 'no-store' });
      res.end();
      return;
    }
    this.answers.sendAccept(res, 200, { data: this.answers.tradeBody(trade) });
  }
}
