// The steps the expiry checks share (spec 4.4 rule 2; 8: the validity period
// is not shown, so what a recipe's expiresAfterSeconds declares is the
// period): an offer of each recipe that declares one is created, waited out
// by the implementation's clock (clock.ts) and accepted. Every such recipe is
// tried, a slow one as well as a fast one: an implementation may check
// validity on one code path only (issue 29). With trading.createUser each
// recipe's offer goes to a user of its own and the recipes run side by side;
// on the shared trading.userId they take turns, since a newer offer of the
// same user would supersede the one left to expire (4.4 rule 1).
import { CheckFailure, type CheckFixtures, type HttpResponse } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { offerRecipes, type ExpiringRecipe } from '../../src/config/sections/offer-recipes.ts';
import { accept, checkUser, clockOf, createOffer, describeRecipe, offerClock, RECIPE_KEYS, shortId, type CreatedOffer, type TradingSection } from './support.ts';
import { answeredAt, ASSUMED_GRANULARITY_MS, describeClock, expiryWaitMs } from './clock.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The margin past the validity and the clock's step when the profile declares none (trading.expiryMarginMs). */
const DEFAULT_MARGIN_MS = 750;

const marginOf = (section: TradingProfile | undefined) => section?.expiryMarginMs ?? DEFAULT_MARGIN_MS;

/**
 * The longest an expiry check waits by the profile's declarations: per
 * recipe its validity, a second's step and the margin, then `afterMs` (what
 * the check may spend on the answer, e.g. a poll deadline); the longest of
 * them side by side, their sum when the recipes take turns on the shared user.
 */
export function expiryWaitsMs(profile: ResolvedProfile, afterMs = 0): number {
  const section = profile.trading;
  const waits = (offerRecipes(section)?.expiring ?? []).map((r) => expiryWaitMs(r.expiresAfterSeconds, marginOf(section), ASSUMED_GRANULARITY_MS) + afterMs);
  if (!waits.length) return 0;
  return section?.createUser ? Math.max(...waits) : waits.reduce((sum, wait) => sum + wait, 0);
}

/** The key that declares the recipe's validity: a recipe's expiresAfterSeconds, or the older trading.expiryValiditySeconds. */
export const validityKey = (recipe: ExpiringRecipe) => (recipe.declaredBy.startsWith('trading.offerRecipes.') ? `${recipe.declaredBy}.expiresAfterSeconds` : recipe.declaredBy);

/** One recipe's expired offer and the answer to its accept. */
export interface ExpiredAccept {
  recipe: ExpiringRecipe;
  offer: CreatedOffer;
  res: HttpResponse;
  /** The accept in words, for reasons: offer, recipe, when, the validity and the clock. */
  what: string;
}

type ExpiryFixtures = Pick<CheckFixtures, 'check' | 'http' | 'profile' | 'tokens'>;

/** Creates an offer of the recipe for userId, waits until it has run out by the implementation's clock, and accepts it. */
async function acceptExpiredOffer(fixtures: ExpiryFixtures, section: TradingProfile, recipe: ExpiringRecipe, userId: string): Promise<ExpiredAccept> {
  const { check, http, tokens } = fixtures;
  const validity = recipe.expiresAfterSeconds;
  const offer = await createOffer(http, recipe, tokens, userId);
  const clock = await offerClock(http, section, tokens, offer);
  const waitMs = expiryWaitMs(validity, marginOf(section), clock.granularityMs);
  check.event(`${describeRecipe(recipe)}: offer created`, `offer ${shortId(offer.offerId)} valid for ${validity} s; clock ${describeClock(clock)}; accepting ${waitMs} ms after its create answer`);
  await sleep(Math.max(0, answeredAt(offer.response) + waitMs - Date.now()));
  // The token is read as the accept is sent: a wait of minutes may outlast the one the check started with, and a 401 is no expiry.
  const res = await accept(http, offer.offerId, { bearer: tokens, userId, label: `accept ${waitMs} ms after creation (${describeRecipe(recipe)})` });
  const what = `accept of offer ${shortId(offer.offerId)} (${describeRecipe(recipe)}) at ${clockOf(res)}, ${waitMs} ms after its create answer (validity ${validity} s, clock ${describeClock(clock)})`;
  check.event(`${describeRecipe(recipe)}: accept answered ${res.status}`, what);
  return { recipe, offer, res, what };
}

/**
 * Accepts an expired offer of every expiring recipe and judges each with
 * `judge`. Every recipe is judged whatever another's verdict, so a recipe
 * that could not be observed hides no other's contradiction (the outcome
 * ranks a FAIL above an ERROR); then the first error other than a check's
 * own end is thrown (so it is not lost), else the first end.
 */
export async function judgeEachExpiredOffer(fixtures: ExpiryFixtures, section: TradingSection, judge: (accepted: ExpiredAccept) => Promise<void> | void): Promise<void> {
  const { check, http, profile, tokens } = fixtures;
  const recipes = section.recipes.expiring;
  if (!recipes.length) return check.skip('no offer recipe with a short validity period to let an offer expire', RECIPE_KEYS.expiring);
  const newUser = () => checkUser({ check, http, profile }, tokens);
  const ends: unknown[] = [];
  const tryRecipe = async (recipe: ExpiringRecipe, user: () => Promise<string>) => {
    try {
      await judge(await acceptExpiredOffer(fixtures, section, recipe, await user()));
    } catch (end) {
      ends.push(end);
    }
  };
  if (section.createUser) {
    await Promise.all(recipes.map((recipe) => tryRecipe(recipe, newUser)));
  } else {
    const userId = await newUser();
    for (const recipe of recipes) await tryRecipe(recipe, async () => userId);
  }
  if (ends.length) throw ends.find((e) => !(e instanceof CheckFailure)) ?? ends[0];
}
