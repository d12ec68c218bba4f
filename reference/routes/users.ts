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
//   terms-descending                    terms_not_accepted in descending order;
//   content-language                    Content-Language only in answer to Accept-Language,
//                                       naming the matched tag as the client wrote it.
import type { ServerResponse } from 'node:http';
import { authenticate, type ReferenceContext } from '../context.ts';
import type { FaultSet } from '../faults/index.ts';
import type { VariantSet } from '../variants/index.ts';
import { sendError, sendJson } from '../http-util.ts';
import { UUID_SHAPE } from '../fixtures/ids.ts';
import {
  ASSET_GROUP_JOURNEY,
  DEFAULT_JOURNEYS,
  FLOWS,
  JOURNEYS,
  LANGUAGES,
  TERMS,
  timestampWithOffset,
  tradingReason,
  type AssetGroup,
  type Flow,
  type FlowParameters,
  type Journey,
  type Language,
  type User,
} from '../fixtures/users.ts';
import type { Router } from '../router.ts';

const USERS_ROUTE = '/v2/users/:userId';

/** More user_journey[] values than there are journeys can only be abuse. */
const MAX_JOURNEY_VALUES = JOURNEYS.length * 2;
const ASSET_PARAMETERS = ['asset_group', 'source_asset_group', 'target_asset_group'] as const;
type AssetParameter = (typeof ASSET_PARAMETERS)[number];
const PARAMETERS_OF: Record<FlowParameters, readonly AssetParameter[]> = {
  none: [],
  asset_group: ['asset_group'],
  source_and_target: ['source_asset_group', 'target_asset_group'],
};

export type JourneyContext =
  | { ok: true; journeys: readonly Journey[]; source: 'user_journey' | 'user_flow' | 'default' }
  | { ok: false; message: string };

type Faults = Pick<FaultSet, 'has'>;
type Variants = Pick<VariantSet, 'has'>;
const NO_VARIANTS: Variants = { has: () => false };

const refuse = (message: string): JourneyContext => ({ ok: false, message });
/** Echoes caller input in messages, clipped: a 10 kB value does not belong in an error body. */
const quoted = (value: string) => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
const isJourney = (value: string): value is Journey => (JOURNEYS as readonly string[]).includes(value);
const isFlow = (value: string): value is Flow => Object.hasOwn(FLOWS, value);
const isAssetGroup = (value: string): value is AssetGroup => Object.hasOwn(ASSET_GROUP_JOURNEY, value);

function fromJourneys(values: string[], assetParameters: string[], faults: Faults, variants: Variants): JourneyContext {
  if (assetParameters.length && !variants.has('asset-groups-without-flow-ignored')) return refuse(`${assetParameters.join(', ')} applies only together with user_flow`);
  if (values.length > MAX_JOURNEY_VALUES) return refuse(`at most ${MAX_JOURNEY_VALUES} user_journey[] values are accepted`);
  const unknown = values.find((v) => !isJourney(v));
  if (unknown !== undefined) return refuse(`unknown user_journey[] value ${quoted(unknown)} (known: ${JOURNEYS.join(', ')})`);
  const journeys = [...new Set(values as Journey[])];
  if (journeys.length > 1 && faults.has('users-single-journey-only')) return refuse('only one user_journey[] value is supported');
  return { ok: true, journeys, source: 'user_journey' };
}

function assetJourney(name: AssetParameter, value: string | undefined): { journey: Journey } | { error: string } {
  if (value === undefined || value === '') return { error: `user_flow requires ${name}` };
  if (!isAssetGroup(value)) return { error: `unknown ${name} ${quoted(value)} (known: ${Object.keys(ASSET_GROUP_JOURNEY).join(', ')})` };
  return { journey: ASSET_GROUP_JOURNEY[value] };
}

function fromFlow(flow: string, params: URLSearchParams, assetParameters: AssetParameter[], faults: Faults): JourneyContext {
  const unstakeBroken = flow === 'unstake' && faults.has('users-flow-unstake-rejected');
  if (!isFlow(flow) || unstakeBroken) {
    if (faults.has('users-unknown-flow-defaulted')) return { ok: true, journeys: DEFAULT_JOURNEYS, source: 'default' };
    return refuse(`unknown user_flow ${quoted(flow)} (known: ${Object.keys(FLOWS).join(', ')})`);
  }
  const rule = FLOWS[flow];
  const wanted = PARAMETERS_OF[rule.parameters];
  const unwanted = assetParameters.filter((p) => !wanted.includes(p));
  const stakeBroken = flow === 'stake' && faults.has('users-stake-asset-group-accepted');
  if (unwanted.length && !stakeBroken) return refuse(`user_flow ${flow} takes no ${unwanted.join(', ')}`);
  const journeys: Journey[] = [...rule.journeys];
  for (const name of wanted) {
    const value = params.get(name) ?? undefined;
    const optional =
      (value === undefined || value === '') &&
      ((flow === 'saving_create' && faults.has('users-saving-create-asset-group-optional')) ||
        (name === 'target_asset_group' && faults.has('users-swap-target-optional')));
    if (optional) continue;
    const resolved = assetJourney(name, value);
    if ('error' in resolved) return refuse(resolved.error);
    if (!faults.has('users-flow-ignores-asset-group')) journeys.push(resolved.journey);
  }
  return { ok: true, journeys: [...new Set(journeys)], source: 'user_flow' };
}

/** Resolves the journey context of a request (spec 4.2 rules 1-6). */
export function resolveJourneyContext(params: URLSearchParams, faults: Faults, variants: Variants = NO_VARIANTS): JourneyContext {
  const journeyValues = params.getAll('user_journey[]');
  const flows = params.getAll('user_flow');
  if (flows.length > 1) {
    // The fault stands for a handler that assumed a scalar and crashed on the array a repeated parameter gives.
    if (faults.has('users-repeated-flow-500')) throw new TypeError('user_flow.trim is not a function');
    return refuse('user_flow may be given only once');
  }
  const repeated = ASSET_PARAMETERS.find((p) => params.getAll(p).length > 1);
  if (repeated) return refuse(`${repeated} may be given only once`);
  const assetParameters = ASSET_PARAMETERS.filter((p) => params.has(p));
  const flow = flows[0];

  if (flow !== undefined && journeyValues.length) {
    if (!faults.has('users-journey-and-flow-accepted')) return refuse('user_journey[] and user_flow exclude each other: send one of them');
  }
  let context: JourneyContext;
  if (flow !== undefined) context = fromFlow(flow, params, assetParameters, faults);
  else if (journeyValues.length) context = fromJourneys(journeyValues, assetParameters, faults, variants);
  else if (assetParameters.length && !variants.has('asset-groups-without-flow-ignored')) return refuse(`${assetParameters.join(', ')} applies only together with user_flow`);
  else if (faults.has('users-journey-required')) return refuse('send user_journey[] or user_flow');
  else context = { ok: true, journeys: faults.has('users-default-journeys-unfiltered') ? JOURNEYS : DEFAULT_JOURNEYS, source: 'default' };

  if (context.ok && context.source !== 'default' && faults.has('users-terms-unfiltered')) return { ...context, journeys: JOURNEYS };
  return context;
}

/** The terms among `unaccepted` that apply to at least one of the journeys. */
export function termsForJourneys(unaccepted: readonly number[], journeys: readonly Journey[]): number[] {
  const applicable = new Set(TERMS.filter((t) => t.journeys.some((j) => journeys.includes(j))).map((t) => t.id));
  return unaccepted.filter((id) => applicable.has(id));
}

/**
 * The supported language of highest weight in an Accept-Language header
 * (RFC 9110 12.5.4), matching on the primary subtag; malformed parts are
 * ignored and no match falls back to the first supported language.
 */
export function negotiateLanguage(header: string | undefined): Language {
  const fallback = LANGUAGES[0];
  if (!header) return fallback;
  let best: Language = fallback;
  let bestWeight = 0;
  for (const part of header.split(',')) {
    const [range = '', ...parameters] = part.split(';');
    const q = parameters.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!Number.isFinite(weight) || weight <= 0 || weight > 1) continue;
    const primary = range.trim().toLowerCase().split('-')[0]!;
    const language = primary === '*' ? fallback : LANGUAGES.find((l) => l === primary);
    if (language && weight > bestWeight) {
      best = language;
      bestWeight = weight;
    }
  }
  return best;
}

/** The range of an Accept-Language header that picked `language`, as the client wrote it (de-DE for de), for the content-language variant. */
export function matchedLanguageRange(header: string, language: Language): string {
  const ranges = header.split(',').map((part) => part.split(';')[0]!.trim());
  const range = ranges.find((r) => r.toLowerCase().split('-')[0] === language);
  return range && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(range) ? range : language;
}

/** registered_at as the variants write it: another offset, or with milliseconds. */
function registeredAt(user: User, variants: Variants): string {
  let value = user.registered_at;
  if (variants.has('registered-at-offset')) value = timestampWithOffset(Date.parse(value), 120);
  if (variants.has('registered-at-fractional-seconds')) value = value.replace(/(Z|[+-]\d{2}:\d{2})$/, '.000$1');
  return value;
}

export function registerUserRoutes(router: Router, ctx: ReferenceContext): void {
  const { faults, variants } = ctx;
  const journeyError = (res: ServerResponse, message: string) => {
    if (faults.has('users-journey-errors-404')) return sendError(res, 404, 'parameter_error', message);
    if (variants.has('journey-errors-400')) return sendError(res, 400, 'bad_request', message);
    sendError(res, 422, 'parameter_error', message);
  };
  const malformedIdError = (res: ServerResponse, message: string) => {
    if (variants.has('malformed-user-id-404')) return sendError(res, 404, 'record_not_found', message);
    sendError(res, faults.has('users-journey-errors-404') ? 404 : 422, 'parameter_error', message);
  };

  /** The body of one user in the resolved context, with the output faults applied. */
  function present(user: User, journeys: readonly Journey[], language: Language): { data: Record<string, unknown> } {
    const terms = termsForJourneys(user.terms_not_accepted, journeys);
    const data: Record<string, unknown> = {
      ...user,
      trading: { ...user.trading, reason: tradingReason(user, language) },
      registered_at: registeredAt(user, variants),
      terms_not_accepted: variants.has('terms-descending') ? terms.sort((a, b) => b - a) : terms,
    };
    if (faults.has('users-external-meta-number')) data.external_meta = { ...user.external_meta, tier: 2 };
    if (faults.has('users-registered-at-no-offset')) data.registered_at = user.registered_at.replace(/(Z|[+-]\d{2}:\d{2})$/, '');
    return { data };
  }

  function lookUp(userId: string): User | undefined {
    const id = userId.toLowerCase();
    if (!faults.has('users-wrong-user-returned')) return ctx.users.get(id);
    const all = [...ctx.users.values()];
    const index = all.findIndex((u) => u.id === id);
    return index < 0 ? undefined : all[(index + 1) % all.length];
  }

  /** Content-Language: the language answered in, or with the variant only in answer to Accept-Language and as the client wrote it. */
  function contentLanguage(acceptLanguage: string | undefined, language: Language): Record<string, string> {
    if (!variants.has('content-language')) return { 'content-language': language };
    return acceptLanguage ? { 'content-language': matchedLanguageRange(acceptLanguage, language) } : {};
  }

  router.add('GET', USERS_ROUTE, async (req, res) => {
    const skipAuth = faults.has('users-no-bearer-allowed') && !req.raw.headers.authorization;
    if (!skipAuth) {
      const claims = await authenticate(ctx, req, res);
      if (!claims) return;
      // Spec 4.2 rule 7. 403 is not among the codes 4.2 lists; the spec does not show which code restricts.
      if (claims.client_id === ctx.options.ownLicenceClientId && !faults.has('users-own-licence-served')) {
        const message = 'user details v2 is not available to partners running the service under their own licence';
        if (variants.has('own-licence-not-found')) return sendError(res, 404, 'record_not_found', message);
        return sendError(res, 403, 'forbidden', message);
      }
    }
    const userId = req.params.userId!;
    if (!UUID_SHAPE.test(userId)) {
      // The fault stands for a store that parses the id itself and throws on garbage.
      if (faults.has('users-malformed-id-500')) throw new Error(`invalid input syntax for type uuid: ${quoted(userId)}`);
      return malformedIdError(res, 'User-ID must be a UUID');
    }
    const context = resolveJourneyContext(req.url.searchParams, faults, variants);
    if (!context.ok) return journeyError(res, context.message);
    const user = lookUp(userId);
    if (!user) {
      if (faults.has('users-unknown-user-422')) return sendError(res, 422, 'parameter_error', 'User-ID is not valid');
      return sendError(res, 404, 'record_not_found', 'no user with this id');
    }
    const acceptLanguage = req.raw.headers['accept-language'];
    if (acceptLanguage?.includes(';q=') && faults.has('users-accept-language-q-rejected')) {
      return sendError(res, 400, 'bad_request', 'Accept-Language must be a single language tag');
    }
    const language = negotiateLanguage(acceptLanguage);
    const body = present(user, context.journeys, language);
    const languageHeader = contentLanguage(acceptLanguage, language);
    if (faults.has('users-content-type-text')) {
      res.writeHead(200, { 'content-type': 'text/plain', ...languageHeader, 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
      return;
    }
    sendJson(res, 200, body, languageHeader);
  });
}
