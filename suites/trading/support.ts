// Shared steps of the trade-offer checks (spec 4.4, 3.1). Creating a user or
// an offer and reading an offer's status are not shown by the spec: they are
// called as the profile describes them (trading.createUser, createOffer,
// offerStatus), and when one of them fails the check is ERROR (SetupError),
// never FAIL. Checks work on a user of their own (createUser); on the shared
// trading.userId the checks that change its offers take turns (a lock across
// workers), since only the newest offer of a user can be accepted (4.4 rule 1).
import type { CheckContext } from '../../src/check/context.ts';
import type { CheckFixtures } from '../../runner/index.ts';
import type { HttpClient, HttpResponse } from '../../src/http/client.ts';
import { acquireExclusive } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { offerRecipes, type OfferRecipes, type ResolvedRecipe } from '../../src/config/sections/offer-recipes.ts';
import { callOperation, type Placeholders } from '../../src/operations.ts';
import { SetupError, shortId, type Bearer, type CreatedOffer } from './common.ts';

export { ACCEPTED, isAccepted, SetupError, shortId, type Bearer, type CreatedOffer } from './common.ts';
export * from './status.ts';

export const acceptPath = (offerId: string) => `/v1/offers/${encodeURIComponent(offerId)}/accept`;

export { clockOf } from '../../src/check/context.ts';

/** The trading section with the create-offer operation and its recipes resolved. */
export type TradingSection = TradingProfile & { createOffer: OperationTemplate; recipes: OfferRecipes };

/** The trading section with the create-offer operation and its recipes, or SKIP naming the key. */
export function tradingSection(profile: ResolvedProfile, check: CheckContext): TradingSection {
  const createOffer = check.need(profile, 'trading.createOffer', 'no operation to create a trade offer (not shown by the spec)');
  check.need(profile, 'trading.createOffer.extract.offerId', 'trading.createOffer does not extract the offer id');
  const section = profile.trading!;
  return { ...section, createOffer, recipes: offerRecipes(section)! };
}

/** The profile keys that declare recipes, old form and new, for SKIP reasons. */
export const RECIPE_KEYS = {
  answering200: 'trading.offerRecipes (a recipe with acceptAnswers 200 and no expiresAfterSeconds; or trading.fastProcessingMs)',
  answering202: 'trading.offerRecipes (a recipe with acceptAnswers 202 and no expiresAfterSeconds; or trading.slowProcessingMs)',
  expiring: 'trading.offerRecipes (a recipe with expiresAfterSeconds; or trading.expiryValiditySeconds)',
} as const;

/** "recipe slow", or how the older keys said it ("processing 1200 ms"), for labels and reasons. */
export function describeRecipe(recipe: ResolvedRecipe): string {
  if (recipe.declaredBy.startsWith('trading.offerRecipes.')) return `recipe ${recipe.name}`;
  const ms = recipe.values.processingMs;
  return typeof ms === 'number' ? `processing ${ms} ms` : recipe.name;
}

/** What a check needs to find its users. */
type UserFixtures = Pick<CheckFixtures, 'http' | 'profile'> & { check: CheckContext };

async function createCheckUser(http: HttpClient, createUser: OperationTemplate, bearer: Bearer): Promise<string> {
  const created = await callOperation(http, createUser, {}, { bearer, label: 'create a user for this check (trading.createUser)' });
  const userId = created.extracted.userId;
  if (!created.ok || typeof userId !== 'string' || !userId) {
    throw new SetupError(`trading.createUser answered ${created.response.status} without a userId to extract`);
  }
  return userId;
}

/**
 * Waits until no other check (in any worker) changes the offers of these
 * shared users, and holds them until this check ends. Only the newest offer
 * of a user can be accepted (4.4 rule 1), so two checks creating offers for
 * one user at once would supersede each other's. Locks are taken in one
 * order, so two checks that share two users cannot wait for each other.
 */
async function takeTurnOn({ check, profile }: UserFixtures, userIds: string[]): Promise<void> {
  for (const userId of [...new Set(userIds)].sort()) {
    const release = await acquireExclusive(`trading-user:${profile.baseUrl}:${userId}`, () =>
      check.event('waiting for the shared user', `another check is changing the offers of user ${shortId(userId)}`),
    );
    check.onEnd(release);
  }
}

/**
 * A user for this check alone (trading.createUser), so parallel checks never
 * supersede each other's offers; else the shared trading.userId, held for the
 * rest of the check when the check changes its offers.
 */
export async function checkUser(fixtures: UserFixtures, bearer: Bearer, options: { changesOffers: boolean } = { changesOffers: true }): Promise<string> {
  const { check, profile } = fixtures;
  const section = profile.trading ?? {};
  if (section.createUser) return createCheckUser(fixtures.http, section.createUser, bearer);
  if (!section.userId) return check.skip('no user who can receive offers', 'trading.createUser (or trading.userId)');
  if (options.changesOffers) {
    await takeTurnOn(fixtures, [section.userId]);
    check.note('ran on the shared trading.userId (no trading.createUser): the checks that change its offers took turns');
  }
  return section.userId;
}

/**
 * Two users, the offer's owner and someone else: two fresh users with
 * trading.createUser, else trading.userId and trading.otherUserId, both held
 * for the rest of the check.
 */
export async function ownerAndOtherUser(fixtures: UserFixtures, bearer: Bearer): Promise<{ ownerId: string; otherId: string }> {
  const { check, profile } = fixtures;
  const section = profile.trading ?? {};
  if (section.createUser) {
    return { ownerId: await createCheckUser(fixtures.http, section.createUser, bearer), otherId: await createCheckUser(fixtures.http, section.createUser, bearer) };
  }
  if (!section.userId) return check.skip('no user who can receive offers', 'trading.createUser (or trading.userId)');
  const otherUserId = check.need(profile, 'trading.otherUserId', "no second user to try someone else's offer with");
  if (otherUserId === section.userId) return check.skip('trading.otherUserId is the same user as trading.userId', 'trading.otherUserId');
  await takeTurnOn(fixtures, [section.userId, otherUserId]);
  check.note('ran on the shared trading.userId and trading.otherUserId (no trading.createUser): the checks that change their offers took turns');
  return { ownerId: section.userId, otherId: otherUserId };
}

/** Creates an offer for userId the way the recipe says (trading.createOffer with the recipe's changes). */
export async function createOffer(http: HttpClient, recipe: ResolvedRecipe, bearer: Bearer, userId: string, label = `create a trade offer (${describeRecipe(recipe)})`): Promise<CreatedOffer> {
  const placeholders: Placeholders = { ...(recipe.values as Placeholders), userId };
  const created = await callOperation(http, recipe.template, placeholders, { bearer, label });
  const offerId = created.extracted.offerId;
  if (!created.ok || (typeof offerId !== 'string' && typeof offerId !== 'number')) {
    throw new SetupError(`creating an offer (${recipe.declaredBy}) for user ${userId} answered ${created.response.status} without an offerId to extract`);
  }
  return { offerId: String(offerId), userId, response: created.response };
}

/**
 * The common start of an accept check: the trading section, an access token,
 * a user of the check's own and a fresh offer for it made by the standard
 * recipe (fast: it processes within the predefined time, when declared).
 */
export async function freshOffer({ check, http, profile, tokens }: Pick<CheckFixtures, 'check' | 'http' | 'profile' | 'tokens'>) {
  const section = tradingSection(profile, check);
  const bearer = tokens;
  const userId = await checkUser({ check, http, profile }, bearer);
  const offer = await createOffer(http, section.recipes.standard, bearer, userId);
  return { section, bearer, userId, offer };
}

export interface AcceptOptions {
  bearer?: Bearer;
  /** Sent in the target's user-id header (svc-user-id unless the profile names another); undefined sends none. */
  userId?: string;
  externalTransactionId?: string;
  /** A JSON request body; 4.4 shows none, so only the body check sends one. */
  json?: unknown;
  label: string;
}

function acceptRequest(http: HttpClient, offerId: string, options: AcceptOptions, once?: true): Promise<HttpResponse> {
  return http.patch(acceptPath(offerId), {
    headers: options.userId === undefined ? {} : { [http.userIdHeader]: options.userId },
    query: { external_transaction_id: options.externalTransactionId },
    json: options.json,
    bearer: options.bearer,
    label: options.label,
    ...(once ? { once } : {}),
  });
}

/** One accept, exactly as asked, a 429 or 503 included: for races and rate-limit-sensitive checks. */
export function acceptOnce(http: HttpClient, offerId: string, options: AcceptOptions): Promise<HttpResponse> {
  return acceptRequest(http, offerId, options, true);
}

/**
 * An accept asked again after a transient answer (the HTTP client's budget,
 * src/http/transient.ts), so the suite's own pace is not taken for the
 * behaviour under test. A 429 must not execute the offer
 * (OFFER-RATE-LIMITED-NOT-EXECUTED), so trying again is sound.
 */
export function accept(http: HttpClient, offerId: string, options: AcceptOptions): Promise<HttpResponse> {
  return acceptRequest(http, offerId, options);
}
