// GET /v2/users/{User-ID} (spec 4.2, 2.2): bearer authentication, the
// own-licence restriction (rule 7), the journey context (rules 1-6) that
// filters terms_not_accepted, and Accept-Language for human-readable text.
//
// Choices where the spec says "not shown", documented for partners:
// - every parameter error (journey context, malformed User-ID) is 422
//   parameter_error (spec 7 names 422 the parameter error of this operation);
// - the own-licence client (options.ownLicenceClientId) gets 403 forbidden;
// - journeys, asset groups and which terms apply where: fixtures/users.ts;
// - asset-group parameters without user_flow, or with a flow they do not
//   belong to, are refused; query parameters the spec does not name are ignored;
// - Accept-Language picks the supported language of highest weight, else en,
//   and Content-Language names the language answered in (always sent);
// - registered_at is written at the offset the user was registered at (Z or
//   +02:00), without fractional seconds; terms_not_accepted in ascending order.
//
// Legitimate variants (reference/variants/users.ts), each a choice the spec leaves open:
//   journey-errors-400                  journey-parameter violations are 400 bad request;
//   malformed-user-id-404               a User-ID that is not a UUID is 404 record not found;
//   own-licence-not-found               the own-licence client gets 404 (the profile declares it);
//   asset-groups-without-flow-ignored   asset-group parameters without user_flow are ignored;
//   registered-at-offset                registered_at at +02:00 for every user;
//   registered-at-fractional-seconds    registered_at with milliseconds;
//   timestamps-iso8601-basic            registered_at in ISO 8601 basic format, a whole-hour offset as ±hh;
//   terms-descending                    terms_not_accepted in descending order;
//   repeated-parameter-last-wins        a single-valued parameter given twice is read as its last value;
//   content-language                    Content-Language only in answer to Accept-Language,
//                                       naming the matched tag as the client wrote it.
import type { ServerResponse } from 'node:http';
import type { TokenClaims } from '../keys.ts';
import { authenticate, type ReferenceContext } from '../context.ts';
import { sendError, sendJson } from '../http-util.ts';
import { UUID_SHAPE } from '../fixtures/ids.ts';
import { timestampWithOffset, tradingReason, type Journey, type Language, type User } from '../fixtures/users.ts';
import type { Router, RouteRequest } from '../router.ts';
import { basicFormat } from '../basic-format.ts';
import { quoted, resolveJourneyContext, termsForJourneys, type Variants } from '../users/journey-context.ts';
import { matchedLanguageRange, negotiateLanguage } from '../users/language.ts';

export { resolveJourneyContext, termsForJourneys, type JourneyContext } from '../users/journey-context.ts';
export { matchedLanguageRange, negotiateLanguage } from '../users/language.ts';

const USERS_ROUTE = '/v2/users/:userId';

/** registered_at as the variants write it: another offset, with milliseconds, in basic format. */
function registeredAt(user: User, variants: Variants): string {
  let value = user.registered_at;
  if (variants.has('registered-at-offset')) value = timestampWithOffset(Date.parse(value), 120);
  if (variants.has('registered-at-fractional-seconds')) value = value.replace(/(Z|[+-]\d{2}:\d{2})$/, '.000$1');
  if (variants.has('timestamps-iso8601-basic')) value = basicFormat(value, { hourOffset: true });
  return value;
}

export function registerUserRoutes(router: Router, ctx: ReferenceContext): void {
  router.add('GET', USERS_ROUTE, (req, res) => getUser(ctx, req, res));
}

async function getUser(ctx: ReferenceContext, req: RouteRequest, res: ServerResponse): Promise<void> {
  const { faults } = ctx;
  const skipAuth = faults.has('users-no-bearer-allowed') && !req.raw.headers.authorization;
  if (!skipAuth) {
    const claims = await authenticate(ctx, req, res);
    if (!claims) return;
    if (refusedOwnLicence(ctx, claims, res)) return;
  }
  const userId = req.params.userId!;
  if (!UUID_SHAPE.test(userId)) {
    // The fault stands for a store that parses the id itself and throws on garbage.
    if (faults.has('users-malformed-id-500')) throw new Error(`invalid input syntax for type uuid: ${quoted(userId)}`);
    return malformedIdError(ctx, res, 'User-ID must be a UUID');
  }
  if (rateLimitedFirst(ctx, req.url)) return sendError(res, 429, 'rate_limited', 'too many requests', { 'retry-after': '1' });
  const context = resolveJourneyContext(req.url.searchParams, faults, ctx.variants);
  if (!context.ok) return journeyError(ctx, res, context.message);
  const user = lookUp(ctx, userId);
  if (!user) {
    if (faults.has('users-unknown-user-422')) return sendError(res, 422, 'parameter_error', 'User-ID is not valid');
    return sendError(res, 404, 'record_not_found', 'no user with this id');
  }
  answerUser(ctx, req, res, user, context.journeys);
}

/** The query strings users-journey-and-flow-accepted-behind-429 has answered 429 once already, per server. */
const limitedOnce = new WeakMap<ReferenceContext, Set<string>>();

/** users-journey-and-flow-accepted-behind-429: the first request of each query naming both journey parameters gets a 429. */
function rateLimitedFirst(ctx: ReferenceContext, url: URL): boolean {
  if (!ctx.faults.has('users-journey-and-flow-accepted-behind-429')) return false;
  const both = url.searchParams.has('user_flow') && url.searchParams.getAll('user_journey[]').length > 0;
  const seen = limitedOnce.get(ctx) ?? new Set<string>();
  limitedOnce.set(ctx, seen);
  if (!both || seen.has(url.search)) return false;
  seen.add(url.search);
  return true;
}

/** Spec 4.2 rule 7: true once the own-licence client was refused. */
function refusedOwnLicence(ctx: ReferenceContext, claims: TokenClaims, res: ServerResponse): boolean {
  // 403 is not among the codes 4.2 lists; the spec does not show which code restricts.
  if (claims.client_id !== ctx.options.ownLicenceClientId || ctx.faults.has('users-own-licence-served')) return false;
  const message = 'user details v2 is not available to partners running the service under their own licence';
  if (ctx.variants.has('own-licence-not-found')) sendError(res, 404, 'record_not_found', message);
  else sendError(res, 403, 'forbidden', message);
  return true;
}

function journeyError(ctx: ReferenceContext, res: ServerResponse, message: string): void {
  if (ctx.faults.has('users-journey-errors-404')) return sendError(res, 404, 'parameter_error', message);
  if (ctx.variants.has('journey-errors-400')) return sendError(res, 400, 'bad_request', message);
  sendError(res, 422, 'parameter_error', message);
}

function malformedIdError(ctx: ReferenceContext, res: ServerResponse, message: string): void {
  if (ctx.variants.has('malformed-user-id-404')) return sendError(res, 404, 'record_not_found', message);
  sendError(res, ctx.faults.has('users-journey-errors-404') ? 404 : 422, 'parameter_error', message);
}

function lookUp(ctx: ReferenceContext, userId: string): User | undefined {
  const id = userId.toLowerCase();
  if (!ctx.faults.has('users-wrong-user-returned')) return ctx.users.get(id);
  const all = [...ctx.users.values()];
  const index = all.findIndex((u) => u.id === id);
  return index < 0 ? undefined : all[(index + 1) % all.length];
}

/** 200 with the user in the journey context, in the language Accept-Language picks. */
function answerUser(ctx: ReferenceContext, req: RouteRequest, res: ServerResponse, user: User, journeys: readonly Journey[]): void {
  const { faults } = ctx;
  const acceptLanguage = req.raw.headers['accept-language'];
  if (acceptLanguage?.includes(';q=') && faults.has('users-accept-language-q-rejected')) {
    return sendError(res, 400, 'bad_request', 'Accept-Language must be a single language tag');
  }
  const language = negotiateLanguage(acceptLanguage);
  const body = present(ctx, user, journeys, language);
  const languageHeader = contentLanguage(ctx.variants, acceptLanguage, language);
  if (faults.has('users-content-type-text')) {
    res.writeHead(200, { 'content-type': 'text/plain', ...languageHeader, 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
    return;
  }
  sendJson(res, 200, body, languageHeader);
}

/** The body of one user in the resolved context, with the output faults applied. */
function present(ctx: ReferenceContext, user: User, journeys: readonly Journey[], language: Language): { data: Record<string, unknown> | null } {
  const { faults, variants } = ctx;
  const terms = termsForJourneys(user.terms_not_accepted, journeys);
  const data: Record<string, unknown> = {
    ...user,
    trading: { ...user.trading, reason: tradingReason(user, language) },
    registered_at: registeredAt(user, variants),
    terms_not_accepted: variants.has('terms-descending') ? terms.sort((a, b) => b - a) : terms,
  };
  if (faults.has('users-external-meta-number')) data.external_meta = { ...user.external_meta, tier: 2 };
  if (faults.has('users-registered-at-no-offset')) data.registered_at = user.registered_at.replace(/(Z|[+-]\d{2}:\d{2})$/, '');
  // The fault stands for a serializer that omits false booleans.
  if (faults.has('users-is-pep-missing')) delete data.is_pep;
  // The fault stands for a lookup whose result the handler wraps without looking.
  if (faults.has('users-data-null')) return { data: null };
  return { data };
}

/** Content-Language: the language answered in, or with the variant only in answer to Accept-Language and as the client wrote it. */
function contentLanguage(variants: Variants, acceptLanguage: string | undefined, language: Language): Record<string, string> {
  if (!variants.has('content-language')) return { 'content-language': language };
  return acceptLanguage ? { 'content-language': matchedLanguageRange(acceptLanguage, language) } : {};
}
