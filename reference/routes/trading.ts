// PATCH /v1/offers/{Offer-ID}/accept (spec 4.4, 3.1, 2.4, 8), and the
// reference-only operations that stand in for the spec's "Create a trade
// offer" and "Get a trade offer status", whose paths are not shown:
//
//   POST /reference/v1/users/{userId}/offers   body (optional JSON object):
//        processingMs (integer 0-60000; default options.offerProcessingMs)
//        validitySeconds (integer 1-86400; default options.offerValiditySeconds)
//        → 201 {data: offer}; a new offer supersedes the user's older ones.
//   GET  /reference/v1/offers/{offerId}   header svc-user-id optional (403 when
//        it names another user) → 200 {data: offer}, status one of offered,
//        in_progress, accepted (terminal), expired, superseded.
//   POST /reference/v1/users   → 201 {data: {id}}, a fresh user (fixture-users.ts).
//
// Accept answers (the spec lists 200, 202, 401, 403, 406, 409, 410, 422, 429,
// 500, 503 and leaves most conditions not shown; the reference's choices):
//   401 no or invalid bearer credential;
//   429 over the accept rate limit (token bucket), with Retry-After; nothing executes;
//   422 svc-user-id missing or not a UUID, external_transaction_id over 256 characters or repeated;
//   404 no such offer (record not found, 7; not in 4.4's list, which has no code for it);
//   403 the offer belongs to another user;
//   409 already accepted, or superseded by a newer offer of the user (rule 1);
//   410 the validity period is over (rule 2; record gone);
//   200 {data: accepted trade} when processing finishes within
//       options.acceptPredefinedTimeMs, else 202 {data: {id, status}} (rule 3).
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { authenticate } from '../context.ts';
import { isJsonContentType, parseJson, readBody, sendError, sendJson, sendPayloadTooLarge } from '../http-util.ts';
import { TokenBucket } from '../limits/token-bucket.ts';
import type { Router, RouteRequest } from '../router.ts';
import { registerFixtureUserRoute } from '../trading/fixture-users.ts';
import { OfferBook, type AcceptRules, type Offer, type Refusal } from '../trading/offer-book.ts';
import { readUserHeader } from '../trading/svc-user-id.ts';
import type { AcceptedTrade } from '../trading/trade.ts';

export const ACCEPT_ROUTE = '/v1/offers/:offerId/accept';

const MAX_PROCESSING_MS = 60_000;
const MAX_VALIDITY_SECONDS = 86_400;
const MAX_EXTERNAL_ID_LENGTH = 256;
/** How long the accept-race fault yields between the check and the set. */
const RACE_WINDOW_MS = 20;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function registerTradingRoutes(router: Router, ctx: ReferenceContext): void {
  const book = new OfferBook();
  const bucket = new TokenBucket(ctx.options.acceptRatePerSecond, ctx.options.acceptBurst);
  const fault = (name: string) => ctx.faults.has(name);

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
      trade: offer.trade ?? null,
    };
  }

  function tradeBody(trade: AcceptedTrade): unknown {
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

  const refusalAnswer: Record<Refusal, (res: ServerResponse) => void> = {
    'not-owner': (res) => sendError(res, 403, 'forbidden', 'the offer belongs to another user'),
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

  /** Starts processing (3.1); resolves once the offer is accepted. Never resolves for the offer-stuck-in-progress fault. */
  function startProcessing(offer: Offer): Promise<void> {
    const stuck = fault('offer-stuck-in-progress') && offer.processingMs > ctx.options.acceptPredefinedTimeMs;
    return new Promise<void>((resolve) => {
      if (stuck) return;
      // unref: a pending trade must not keep a closed reference's process alive.
      setTimeout(() => {
        book.complete(offer);
        resolve();
      }, offer.processingMs).unref();
    });
  }

  /** True when processing finished within the predefined time (3.1). */
  async function finishedInTime(processing: Promise<void>): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ctx.options.acceptPredefinedTimeMs);
    });
    const finished = await Promise.race([processing.then(() => true as const), timeUp]);
    clearTimeout(timer);
    return finished;
  }

  router.add('PATCH', ACCEPT_ROUTE, async (req, res) => {
    const anonymousAllowed = fault('accept-bearer-not-required') && !req.raw.headers.authorization;
    if (!anonymousAllowed && !(await authenticate(ctx, req, res))) return;
    const rateLimited = !bucket.take() && !fault('no-accept-rate-limit');
    if (rateLimited && !fault('rate-limited-accept-executes')) {
      return sendError(res, 429, 'rate_limited', 'too many accept requests', bucket.limitHeaders('accept'));
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
    const header = readUserHeader(req.raw);
    if (header.kind === 'malformed') return sendError(res, 422, 'parameter_error', 'svc-user-id must be a user id (UUID)');
    if (header.kind === 'missing' && !(fault('accept-user-header-optional') && offer)) {
      return sendError(res, 422, 'parameter_error', 'the svc-user-id header is required');
    }
    if (!offer) {
      if (fault('unknown-offer-500')) throw new TypeError(`Cannot read properties of undefined (reading 'userId')`);
      return sendError(res, 404, 'record_not_found', 'no offer with this id');
    }
    const userId = header.kind === 'present' ? header.userId : offer.userId;
    const refusal = book.refusal(offer, userId, rules);
    if (refusal) return refusalAnswer[refusal](res);
    if (fault('accept-race')) await sleep(RACE_WINDOW_MS);
    book.begin(offer, externalTransactionId);
    const processing = startProcessing(offer);

    // Only the rate-limited-accept-executes fault gets here rate limited: the offer is already executing.
    if (rateLimited) return sendError(res, 429, 'rate_limited', 'too many accept requests', bucket.limitHeaders('accept'));
    if (fault('accept-waits-for-processing')) await processing;
    else if (!(await finishedInTime(processing)) || fault('accept-always-202')) {
      return sendAccept(res, 202, { data: { id: offer.id, status: book.statusOf(offer) } });
    }
    if (fault('accept-answers-204')) {
      res.writeHead(204, { 'cache-control': 'no-store' });
      res.end();
      return;
    }
    sendAccept(res, 200, { data: tradeBody(offer.trade!) });
  });

  router.add('POST', '/reference/v1/users/:userId/offers', async (req, res) => {
    if (!(await authenticate(ctx, req, res))) return;
    const userId = req.params.userId!.toLowerCase();
    if (!ctx.users.has(userId)) return sendError(res, 404, 'record_not_found', 'no user with this id');
    const options = await offerOptions(req, res);
    if (!options) return;
    sendJson(res, 201, { data: offerView(book.create(userId, options)) });
  });

  /** The optional per-offer settings of a create-offer body, or undefined once an error was answered. */
  async function offerOptions(req: RouteRequest, res: ServerResponse): Promise<{ processingMs: number; validitySeconds: number } | undefined> {
    const read = await readBody(req.raw, ctx.options.bodyLimitBytes);
    if (read.kind === 'too-large') return void sendPayloadTooLarge(res, read.limit);
    if (read.kind === 'aborted') return undefined;
    const defaults = { processingMs: ctx.options.offerProcessingMs, validitySeconds: ctx.options.offerValiditySeconds };
    if (!read.text.trim()) return defaults;
    if (!isJsonContentType(req.raw)) return void sendError(res, 400, 'bad_request', 'Content-Type must be application/json');
    const parsed = parseJson(read.text);
    if (!parsed.ok) return void sendError(res, 400, 'bad_request', `body is not valid JSON: ${parsed.message}`);
    const body = parsed.value as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return void sendError(res, 422, 'parameter_error', 'body must be a JSON object');
    const { processingMs = defaults.processingMs, validitySeconds = defaults.validitySeconds } = body;
    if (!Number.isInteger(processingMs) || (processingMs as number) < 0 || (processingMs as number) > MAX_PROCESSING_MS) {
      return void sendError(res, 422, 'parameter_error', `processingMs must be an integer from 0 to ${MAX_PROCESSING_MS}`);
    }
    if (!Number.isInteger(validitySeconds) || (validitySeconds as number) < 1 || (validitySeconds as number) > MAX_VALIDITY_SECONDS) {
      return void sendError(res, 422, 'parameter_error', `validitySeconds must be an integer from 1 to ${MAX_VALIDITY_SECONDS}`);
    }
    return { processingMs: processingMs as number, validitySeconds: validitySeconds as number };
  }

  router.add('GET', '/reference/v1/offers/:offerId', async (req, res) => {
    if (!(await authenticate(ctx, req, res))) return;
    const header = readUserHeader(req.raw);
    if (header.kind === 'malformed') return sendError(res, 422, 'parameter_error', 'svc-user-id must be a user id (UUID)');
    const offer = book.get(req.params.offerId!);
    if (!offer) return sendError(res, 404, 'record_not_found', 'no offer with this id');
    if (header.kind === 'present' && header.userId !== offer.userId) return sendError(res, 403, 'forbidden', 'the offer belongs to another user');
    sendJson(res, 200, { data: offerView(offer) });
  });

  registerFixtureUserRoute(router, ctx);
}
