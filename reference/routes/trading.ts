// PATCH /v1/offers/{Offer-ID}/accept (spec 4.4, 3.1, 2.4, 8), and the
// reference-only operations that stand in for the spec's "Create a trade
// offer" and "Get a trade offer status", whose paths are not shown:
//
//   POST /reference/v1/users/{userId}/offers   body (optional JSON object):
//        processingMs (integer 0-60000; default options.offerProcessingMs)
//        validitySeconds (integer 1-86400; default options.offerValiditySeconds)
//        → 201 {data: offer}; a new offer supersedes the user's older ones.
//        With offer-slow-by-body-value the body is the deployed API's kind instead
//        (required; processingMs and validitySeconds are ignored):
//          {"amount": "<decimal string>", "currency": "EUR", "validity_seconds"?: 1-86400}
//        an amount of 5000 or more makes a slow offer (processing max(1000,
//        4 × acceptPredefinedTimeMs) ms: accept answers 202), a smaller one processes
//        in options.offerProcessingMs (accept answers 200); a malformed amount is 422
//        (trading/offer-request.ts).
//   GET  /reference/v1/offers/{offerId}   header svc-user-id optional (403 when
//        it names another user) → 200 {data: offer}, status one of offered,
//        in_progress, accepted (terminal), expired, superseded; data.trade is
//        the trade of the offer's execution (null before), data.trade.trade_id
//        tells executions apart.
//   POST /reference/v1/users   → 201 {data: {id}}, a fresh user (fixture-users.ts).
//
// Accept answers (the spec lists 200, 202, 401, 403, 406, 409, 410, 422, 429,
// 500, 503 and leaves most conditions not shown; the reference's choices):
//   401 no or invalid bearer credential;
//   429 over the accept rate limit (token bucket), with Retry-After; nothing executes (the
//       limiter's algorithm and 429 fields follow the load variants, limits/rate-limiter.ts);
//   422 svc-user-id missing or not a UUID, external_transaction_id over 256 characters or repeated;
//   404 no such offer (record not found, 7; not in 4.4's list, which has no code for it);
//   403 the offer belongs to another user;
//   409 already accepted, or superseded by a newer offer of the user (rule 1);
//   410 the validity period is over (rule 2; record gone);
//   200 {data: accepted trade} when processing finishes within
//       options.acceptPredefinedTimeMs, else 202 {data: {id, status}} (rule 3).
// A request body (none is shown) is ignored. Each execution makes a trade of its own.
//
// Legitimate variants (reference/variants/trading.ts), each a choice the spec leaves open:
//   accept-replay-idempotent     an accepted or in-progress offer accepted again answers its
//                                trade again (200, or 202 while processing) and executes nothing;
//   accept-refusals-as-deployed  unknown offer id 410, reused external_transaction_id 406,
//                                missing svc-user-id 403 (REAL-API-NOTES);
//   other-users-offer-not-found  another user's offer is 404 record not found;
//   accept-body-refused          a request body is refused with 422;
//   accept-202-without-body      202 with an empty body;
//   trade-decimal-exponent       asset_amount and spread in exponent form;
//   trade-time-offset            the trade's time at +01:00;
//   offer-slow-by-body-value     create-offer takes {amount, currency, validity_seconds}, slow from 5000;
//   user-id-header-renamed       svc-user-id is read as x-partner-user-id (or options.userIdHeader)
//                                here and in the offer-status route (trading/svc-user-id.ts).
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { authenticate } from '../context.ts';
import { isJsonContentType, parseJson, readBody, sendError, sendJson, sendPayloadTooLarge } from '../http-util.ts';
import { rateLimiterFor } from '../limits/rate-limiter.ts';
import type { Router, RouteRequest } from '../router.ts';
import { registerFixtureUserRoute } from '../trading/fixture-users.ts';
import { OfferBook, type AcceptRules, type Offer, type Refusal } from '../trading/offer-book.ts';
import { settingsFromAmount, settingsFromTimes, type OfferSettings } from '../trading/offer-request.ts';
import { readUserHeader, userIdHeaderName } from '../trading/svc-user-id.ts';
import { presentTrade, type AcceptedTrade } from '../trading/trade.ts';

export const ACCEPT_ROUTE = '/v1/offers/:offerId/accept';

const MAX_EXTERNAL_ID_LENGTH = 256;
/** external_transaction_ids remembered at most (accept-refusals-as-deployed), so load cannot grow them without limit. */
const EXTERNAL_IDS_KEPT = 50_000;
/** How long the accept-race fault yields between the check and the set. */
const RACE_WINDOW_MS = 20;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function registerTradingRoutes(router: Router, ctx: ReferenceContext): void {
  const book = new OfferBook();
  // A token bucket by default; its algorithm and 429 headers follow the load variants (limits/rate-limiter.ts).
  const bucket = rateLimiterFor(ctx, 'accept');
  const fault = (name: string) => ctx.faults.has(name);
  const variant = (name: string) => ctx.variants.has(name);
  /** svc-user-id, or its product-specific name (options.userIdHeader, user-id-header-renamed). */
  const userHeader = userIdHeaderName(ctx);
  /** The processing of each offer that has begun, resolving with the trade it makes (3.1). */
  const processingOf = new WeakMap<Offer, Promise<AcceptedTrade>>();
  /** external_transaction_id → the offer it was first sent with (accept-refusals-as-deployed: a reuse is 406). */
  const externalIdsUsed = new Map<string, string>();

  /** The trade as answered: the variants choose how its values are written. */
  function shownTrade(trade: AcceptedTrade): AcceptedTrade {
    return presentTrade(trade, {
      exponentAmounts: variant('trade-decimal-exponent'),
      timeOffsetMinutes: variant('trade-time-offset') ? 60 : undefined,
    });
  }

  function offerView(offer: Offer) {
    return {
      id: offer.id,
      user_id: offer.userId,
      status: book.statusOf(offer),
      type: offer.quote.type,
      created_at: offer.createdAt.toISOString(),
      valid_until: offer.validUntil.toISOString(),
      processing_ms: offer.processingMs,
      external_transaction_id: offer.externalTransactionId ?? null,
      trade: offer.trade ? shownTrade(offer.trade) : null,
    };
  }

  function tradeBody(executed: AcceptedTrade): unknown {
    const trade = shownTrade(executed);
    if (fault('trade-amounts-as-numbers')) {
      const amounts = ['fiat_amount', 'tax_amount', 'total_amount', 'asset_amount', 'asset_price', 'spread', 'fees_after_cost', 'fee_percentage', 'net_asset_price'] as const;
      return { ...trade, ...Object.fromEntries(amounts.map((k) => [k, Number(trade[k])])) };
    }
    if (fault('trade-warning-keys-missing')) {
      return { ...trade, warning: trade.warning.map(({ message, message_key, helpdesk_article_id }) => ({ message, message_key, helpdesk_article_id })) };
    }
    return trade;
  }

  /** Accept responses; the accept-content-type-text fault labels them text/plain. */
  function sendAccept(res: ServerResponse, status: number, body: unknown): void {
    if (!fault('accept-content-type-text')) return sendJson(res, status, body);
    res.writeHead(status, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  }

  /** 202: received and still processing (3.1); its body is not shown (4.4). */
  function sendInProgress(res: ServerResponse, offer: Offer): void {
    if (!variant('accept-202-without-body')) return sendAccept(res, 202, { data: { id: offer.id, status: book.statusOf(offer) } });
    res.writeHead(202, { 'cache-control': 'no-store' });
    res.end();
  }

  const refusalAnswer: Record<Refusal, (res: ServerResponse) => void> = {
    'not-owner': (res) =>
      variant('other-users-offer-not-found')
        ? sendError(res, 404, 'record_not_found', 'no offer with this id')
        : sendError(res, 403, 'forbidden', 'the offer belongs to another user'),
    'already-accepted': (res) => sendError(res, 409, 'offer_already_accepted', 'the offer has already been accepted'),
    superseded: (res) => sendError(res, 409, 'offer_superseded', 'a newer offer exists for this user; only the newest can be accepted'),
    expired: (res) => sendError(res, fault('expired-offer-409') ? 409 : 410, 'offer_expired', 'the validity period of the offer is over'),
  };

  const rules: AcceptRules = {
    ownership: !fault('offer-ownership-unchecked'),
    newestOnly: !fault('older-offer-acceptable'),
    validity: !fault('expired-offer-acceptable'),
    completedStaysAccepted: !fault('offer-accept-repeatable'),
  };

  /**
   * Starts processing (3.1); resolves with the trade this execution made once
   * the offer is accepted. Never resolves for the offer-stuck-in-progress fault.
   */
  function startProcessing(offer: Offer): Promise<AcceptedTrade> {
    const stuck = fault('offer-stuck-in-progress') && offer.processingMs > ctx.options.acceptPredefinedTimeMs;
    const processing = new Promise<AcceptedTrade>((resolve) => {
      if (stuck) return;
      // unref: a pending trade must not keep a closed reference's process alive.
      setTimeout(() => resolve(book.complete(offer)), offer.processingMs).unref();
    });
    processingOf.set(offer, processing);
    return processing;
  }

  /** The trade, when processing finished within the predefined time (3.1); undefined when it did not. */
  async function finishedInTime(processing: Promise<AcceptedTrade>): Promise<AcceptedTrade | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ctx.options.acceptPredefinedTimeMs);
    });
    const finished = await Promise.race([processing, timeUp]);
    clearTimeout(timer);
    return finished;
  }

  /** accept-replay-idempotent: the offer's one execution answered again; nothing new executes. */
  async function replay(res: ServerResponse, offer: Offer): Promise<void> {
    const trade = offer.status === 'accepted' ? offer.trade : await finishedInTime(processingOf.get(offer) ?? new Promise<never>(() => {}));
    if (!trade) return sendInProgress(res, offer);
    sendAccept(res, 200, { data: tradeBody(trade) });
  }

  /** A request body: none is shown (4.4). */
  function carriesBody(req: RouteRequest): boolean {
    const length = req.raw.headers['content-length'];
    return (length !== undefined && Number(length) > 0) || req.raw.headers['transfer-encoding'] !== undefined;
  }

  router.add('PATCH', ACCEPT_ROUTE, async (req, res) => {
    const anonymousAllowed = fault('accept-bearer-not-required') && !req.raw.headers.authorization;
    if (!anonymousAllowed && !(await authenticate(ctx, req, res))) return;
    const rateLimited = !bucket.take() && !fault('no-accept-rate-limit');
    if (rateLimited && !fault('rate-limited-accept-executes')) {
      return sendError(res, 429, 'rate_limited', 'too many accept requests', bucket.limitHeaders('accept'));
    }

    if (carriesBody(req)) {
      if (fault('accept-body-500')) throw new TypeError('Unexpected request body on accept');
      if (variant('accept-body-refused')) return sendError(res, 422, 'parameter_error', 'accept takes no request body');
    }

    // From here to book.begin() nothing awaits (but the accept-race fault): check-and-set is atomic.
    const externalIds = req.url.searchParams.getAll('external_transaction_id');
    if (externalIds.length > 0 && fault('external-transaction-id-rejected')) {
      return sendError(res, 422, 'parameter_error', 'unknown query parameter external_transaction_id');
    }
    if (externalIds.length > 1) return sendError(res, 422, 'parameter_error', 'external_transaction_id is given more than once');
    const externalTransactionId = externalIds[0];
    if (externalTransactionId !== undefined && externalTransactionId.length > MAX_EXTERNAL_ID_LENGTH) {
      return sendError(res, 422, 'parameter_error', `external_transaction_id is longer than ${MAX_EXTERNAL_ID_LENGTH} characters`);
    }

    const offer = book.get(req.params.offerId!);
    const header = readUserHeader(req.raw, userHeader);
    if (header.kind === 'malformed') return sendError(res, 422, 'parameter_error', `${userHeader} must be a user id (UUID)`);
    const asDeployed = variant('accept-refusals-as-deployed');
    if (header.kind === 'missing' && !(fault('accept-user-header-optional') && offer)) {
      return asDeployed
        ? sendError(res, 403, 'forbidden', `the ${userHeader} header is required`)
        : sendError(res, 422, 'parameter_error', `the ${userHeader} header is required`);
    }
    if (!offer) {
      if (fault('unknown-offer-500')) throw new TypeError(`Cannot read properties of undefined (reading 'userId')`);
      return asDeployed ? sendError(res, 410, 'record_gone', 'no offer with this id') : sendError(res, 404, 'record_not_found', 'no offer with this id');
    }
    const userId = header.kind === 'present' ? header.userId : offer.userId;
    const refusal = book.refusal(offer, userId, rules);
    if (refusal === 'already-accepted' && variant('accept-replay-idempotent')) return replay(res, offer);
    if (refusal) return refusalAnswer[refusal](res);
    if (asDeployed && externalTransactionId !== undefined && (externalIdsUsed.get(externalTransactionId) ?? offer.id) !== offer.id) {
      return sendError(res, 406, 'external_transaction_id_reused', 'external_transaction_id was already used for another offer');
    }
    if (fault('accept-race')) await sleep(RACE_WINDOW_MS);
    book.begin(offer, externalTransactionId);
    if (asDeployed && externalTransactionId !== undefined) rememberExternalId(externalTransactionId, offer.id);
    const processing = startProcessing(offer);

    // Only the rate-limited-accept-executes fault gets here rate limited: the offer is already executing.
    if (rateLimited) return sendError(res, 429, 'rate_limited', 'too many accept requests', bucket.limitHeaders('accept'));
    const trade = fault('accept-waits-for-processing') ? await processing : await finishedInTime(processing);
    if (!trade || fault('accept-always-202')) return sendInProgress(res, offer);
    if (fault('accept-answers-204')) {
      res.writeHead(204, { 'cache-control': 'no-store' });
      res.end();
      return;
    }
    sendAccept(res, 200, { data: tradeBody(trade) });
  });

  function rememberExternalId(externalTransactionId: string, offerId: string): void {
    // Bounded like the offer book: under load the oldest ids are forgotten first.
    if (externalIdsUsed.size >= EXTERNAL_IDS_KEPT) externalIdsUsed.delete(externalIdsUsed.keys().next().value!);
    externalIdsUsed.set(externalTransactionId, offerId);
  }

  router.add('POST', '/reference/v1/users/:userId/offers', async (req, res) => {
    if (!(await authenticate(ctx, req, res))) return;
    const userId = req.params.userId!.toLowerCase();
    if (!ctx.users.has(userId)) return sendError(res, 404, 'record_not_found', 'no user with this id');
    const options = await offerOptions(req, res);
    if (!options) return;
    sendJson(res, 201, { data: offerView(book.create(userId, options)) });
  });

  /**
   * The per-offer settings of a create-offer body (trading/offer-request.ts), or
   * undefined once an error was answered. An empty body is {}: the defaults, or
   * under offer-slow-by-body-value a 422 for the missing amount.
   */
  async function offerOptions(req: RouteRequest, res: ServerResponse): Promise<OfferSettings | undefined> {
    const read = await readBody(req.raw, ctx.options.bodyLimitBytes);
    if (read.kind === 'too-large') return void sendPayloadTooLarge(res, read.limit);
    if (read.kind === 'aborted') return undefined;
    const fromBody = variant('offer-slow-by-body-value') ? settingsFromAmount : settingsFromTimes;
    let body: Record<string, unknown> = {};
    if (read.text.trim()) {
      if (!isJsonContentType(req.raw)) return void sendError(res, 400, 'bad_request', 'Content-Type must be application/json');
      const parsed = parseJson(read.text);
      if (!parsed.ok) return void sendError(res, 400, 'bad_request', `body is not valid JSON: ${parsed.message}`);
      const value = parsed.value as Record<string, unknown> | null;
      if (!value || typeof value !== 'object' || Array.isArray(value)) return void sendError(res, 422, 'parameter_error', 'body must be a JSON object');
      body = value;
    }
    const settings = fromBody(body, ctx.options);
    if (typeof settings === 'string') return void sendError(res, 422, 'parameter_error', settings);
    return settings;
  }

  router.add('GET', '/reference/v1/offers/:offerId', async (req, res) => {
    if (!(await authenticate(ctx, req, res))) return;
    const header = readUserHeader(req.raw, userHeader);
    if (header.kind === 'malformed') return sendError(res, 422, 'parameter_error', `${userHeader} must be a user id (UUID)`);
    const offer = book.get(req.params.offerId!);
    if (!offer) return sendError(res, 404, 'record_not_found', 'no offer with this id');
    if (header.kind === 'present' && header.userId !== offer.userId) return sendError(res, 403, 'forbidden', 'the offer belongs to another user');
    sendJson(res, 200, { data: offerView(offer) });
  });

  registerFixtureUserRoute(router, ctx);
}
