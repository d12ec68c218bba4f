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
// Conditions (reference/conditions/): long-processing makes a slow offer
// process for 65 s and the default validity 120 s; second-resolution writes
// created_at, valid_until and the trade time in whole seconds and judges
// validity by whole seconds (the offer book's clock).
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
//   timestamps-iso8601-basic     the trade's time (at +01:00) and the offers' timestamps in ISO 8601 basic format;
//   offer-slow-by-body-value     create-offer takes {amount, currency, validity_seconds}, slow from 5000;
//   user-id-header-renamed       svc-user-id is read as x-partner-user-id (or options.userIdHeader)
//                                here and in the offer-status route (trading/svc-user-id.ts);
//   refusal-500-listed           an unknown offer id and a superseded offer are answered 500,
//                                and nothing executes (variants/server-errors.ts).
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { authenticate } from '../context.ts';
import { isJsonContentType, parseJson, readBody, sendError, sendJson, sendPayloadTooLarge } from '../http-util.ts';
import type { Router, RouteRequest } from '../router.ts';
import { TradingAnswers } from '../trading/answers.ts';
import { registerFixtureUserRoute } from '../trading/fixture-users.ts';
import { OfferBook } from '../trading/offer-book.ts';
import { settingsFromAmount, settingsFromTimes, type OfferSettings } from '../trading/offer-request.ts';
import { longProcessingDefaults, withLongProcessing } from '../conditions/long-processing.ts';
import { readUserHeader, userIdHeaderName } from '../trading/svc-user-id.ts';
import { registerAcceptRoute } from './accept.ts';

export function registerTradingRoutes(router: Router, ctx: ReferenceContext): void {
  const book = new OfferBook(ctx.clock, { acrossUsers: ctx.faults.has('offer-newest-across-users') });
  const answers = new TradingAnswers(ctx, book);
  registerAcceptRoute(router, ctx, book, answers);

  router.add('POST', '/reference/v1/users/:userId/offers', async (req, res) => {
    if (!(await authenticate(ctx, req, res))) return;
    const userId = req.params.userId!.toLowerCase();
    if (!ctx.users.has(userId)) return sendError(res, 404, 'record_not_found', 'no user with this id');
    const options = await offerOptions(ctx, req, res);
    if (!options) return;
    sendJson(res, 201, { data: answers.offerView(book.create(userId, options)) });
  });

  /** svc-user-id, or its product-specific name (options.userIdHeader, user-id-header-renamed). */
  const userHeader = userIdHeaderName(ctx);
  router.add('GET', '/reference/v1/offers/:offerId', async (req, res) => {
    if (!(await authenticate(ctx, req, res))) return;
    const header = readUserHeader(req.raw, userHeader);
    if (header.kind === 'malformed') return sendError(res, 422, 'parameter_error', `${userHeader} must be a user id (UUID)`);
    const offer = book.get(req.params.offerId!);
    if (!offer) return sendError(res, 404, 'record_not_found', 'no offer with this id');
    if (header.kind === 'present' && header.userId !== offer.userId) return sendError(res, 403, 'forbidden', 'the offer belongs to another user');
    // The fault: the status of an offer still processing is not found, although the profile declares 200.
    if (ctx.faults.has('offer-status-404-while-processing') && book.statusOf(offer) === 'in_progress') {
      return sendError(res, 404, 'record_not_found', 'no offer with this id');
    }
    sendJson(res, 200, { data: answers.offerView(offer) });
  });

  registerFixtureUserRoute(router, ctx);
}

/**
 * The per-offer settings of a create-offer body (trading/offer-request.ts), or
 * undefined once an error was answered. An empty body is {}: the defaults, or
 * under offer-slow-by-body-value a 422 for the missing amount.
 */
async function offerOptions(ctx: ReferenceContext, req: RouteRequest, res: ServerResponse): Promise<OfferSettings | undefined> {
  const read = await readBody(req.raw, ctx.options.bodyLimitBytes);
  if (read.kind === 'too-large') return void sendPayloadTooLarge(res, read.limit);
  if (read.kind === 'aborted') return undefined;
  const fromBody = ctx.variants.has('offer-slow-by-body-value') ? settingsFromAmount : settingsFromTimes;
  let body: Record<string, unknown> = {};
  if (read.text.trim()) {
    if (!isJsonContentType(req.raw)) return void sendError(res, 400, 'bad_request', 'Content-Type must be application/json');
    const parsed = parseJson(read.text);
    if (!parsed.ok) return void sendError(res, 400, 'bad_request', `body is not valid JSON: ${parsed.message}`);
    const value = parsed.value as Record<string, unknown> | null;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return void sendError(res, 422, 'parameter_error', 'body must be a JSON object');
    body = value;
  }
  // long-processing: a longer default validity, and a slow offer processes for 65 s (conditions/long-processing.ts).
  const longProcessing = ctx.conditions.has('long-processing');
  const settings = fromBody(body, longProcessing ? longProcessingDefaults(ctx.options) : ctx.options);
  if (typeof settings === 'string') return void sendError(res, 422, 'parameter_error', settings);
  return longProcessing ? withLongProcessing(settings, ctx.options) : settings;
}
