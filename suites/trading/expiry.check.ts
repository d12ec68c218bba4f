// An offer must be accepted within its validity period (spec 4.4 rule 2;
// 8: the period itself is not shown). How long an offer stays valid is what
// the profile declares (a recipe's expiresAfterSeconds), so the check waits
// that long — however long it is: the check's time limit grows by it — and
// then the clock step the implementation shows and a margin (clock.ts): a
// whole-second server judges an offer expired only once the next second
// has begun. An offer still accepted after that wait contradicts the
// profile's declaration: a profile-declared FAIL.
import { defineCheck, isSuccess } from '../../runner/index.ts';
import type { CheckContext, CheckFixtures, HttpResponse } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { offerRecipes, type ResolvedRecipe } from '../../src/config/sections/offer-recipes.ts';
import { accept, checkUser, clockOf, createOffer, describeRecipe, offerClock, RECIPE_KEYS, shortId, tradingSection } from './support.ts';
import { answeredAt, ASSUMED_GRANULARITY_MS, describeClock, expiryWaitMs } from './clock.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The margin past the validity and the clock's step when the profile declares none (trading.expiryMarginMs). */
const DEFAULT_MARGIN_MS = 750;

const marginOf = (section: TradingProfile | undefined) => section?.expiryMarginMs ?? DEFAULT_MARGIN_MS;

/** The longest the expiry checks wait by the profile's declarations: the declared validity, a second's step and the margin. */
function declaredExpiryWaitMs(profile: ResolvedProfile): number {
  const validity = offerRecipes(profile.trading)?.expiring?.expiresAfterSeconds;
  return validity === undefined ? 0 : expiryWaitMs(validity, marginOf(profile.trading), ASSUMED_GRANULARITY_MS);
}

/** The key that declares the recipe's validity: a recipe's expiresAfterSeconds, or the older trading.expiryValiditySeconds. */
const validityKey = (recipe: ResolvedRecipe) => (recipe.declaredBy.startsWith('trading.offerRecipes.') ? `${recipe.declaredBy}.expiresAfterSeconds` : recipe.declaredBy);

interface ExpiredAccept {
  res: HttpResponse;
  what: string;
  recipe: ResolvedRecipe;
  validity: number;
}

/** Creates an offer with the expiring recipe, waits until it has run out by the implementation's clock, and accepts it. */
async function acceptExpiredOffer(check: CheckContext, fixtures: Pick<CheckFixtures, 'http' | 'profile' | 'tokens'>): Promise<ExpiredAccept> {
  const { http, profile, tokens } = fixtures;
  const section = tradingSection(profile, check);
  const recipe = section.recipes.expiring;
  const validity = recipe?.expiresAfterSeconds;
  if (!recipe || validity === undefined) return check.skip('no offer recipe with a short validity period to let an offer expire', RECIPE_KEYS.expiring);
  const bearer = tokens;
  const userId = await checkUser({ check, http, profile }, bearer);
  const offer = await createOffer(http, recipe, bearer, userId);
  const clock = await offerClock(http, section, tokens, offer);
  const waitMs = expiryWaitMs(validity, marginOf(section), clock.granularityMs);
  check.event('offer created', `offer ${shortId(offer.offerId)} valid for ${validity} s (${describeRecipe(recipe)}); clock ${describeClock(clock)}; accepting ${waitMs} ms after its create answer`);
  await sleep(Math.max(0, answeredAt(offer.response) + waitMs - Date.now()));
  // A fresh token: a wait of minutes may outlast the one the check started with, and a 401 is no expiry.
  const res = await accept(http, offer.offerId, { bearer: tokens, userId, label: `accept ${waitMs} ms after creation` });
  const what = `accept of offer ${shortId(offer.offerId)} at ${clockOf(res)}, ${waitMs} ms after its create answer (validity ${validity} s, clock ${describeClock(clock)})`;
  return { res, what, recipe, validity };
}

defineCheck(
  {
    id: 'trading.expired-offer-rejected',
    title: 'An offer cannot be accepted after its validity period',
    requirements: ['OFFER-VALIDITY-PERIOD'],
    waitsMs: declaredExpiryWaitMs,
  },
  async ({ check, ...fixtures }) => {
    const { res, what, recipe, validity } = await acceptExpiredOffer(check, fixtures);
    if (isSuccess(res.status)) {
      // The period is the profile's statement (8: "not shown"); rule 2 says what it means.
      check.failDeclared(validityKey(recipe), `${what} was accepted (${res.status}), although the profile declares such offers expire after ${validity} s`, {
        expected: 'a 4xx refusal',
        actual: res.status,
        exchange: res.exchangeId,
      });
    }
    // Which 4xx is the concern of trading.expired-offer-410 (a SHOULD); here only that it is refused.
    check.expectRefused(res, { operation: 'acceptOffer', what });
  },
);

defineCheck(
  {
    id: 'trading.expired-offer-410',
    title: 'An expired offer is answered 410 (record gone)',
    requirements: ['OFFER-EXPIRED-410'],
    waitsMs: declaredExpiryWaitMs,
  },
  async ({ check, ...fixtures }) => {
    const { res, what } = await acceptExpiredOffer(check, fixtures);
    check.expectStatus(res, 410, what);
  },
);
