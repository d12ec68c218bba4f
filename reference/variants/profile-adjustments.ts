// The profiles a certification team would write for the reference under the
// variants that change how it is called, not only what it answers: offers
// made slow by a value in the body (offer-slow-by-body-value) and a
// product-specific user-id header (user-id-header-renamed).
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { OfferRecipe } from '../../src/config/sections/trading.ts';
import type { ReferenceOptions } from '../options.ts';
import { SPEC_USER_ID_HEADER } from '../options.ts';
import { renamedUserHeader } from '../trading/renamed-user-header.ts';

const FAST_OFFER = { amount: '10.00', currency: 'EUR' };
/** At or above the reference's SLOW_AMOUNT (reference/trading/offer-request.ts), written out so the two are compared, not shared. */
const SLOW_OFFER = { amount: '9999.00', currency: 'EUR' };

/**
 * offer-slow-by-body-value: the offer kinds as recipes with the deployed
 * API's kind of body instead of processing times. createOffer's own body
 * becomes a fast offer too, so a plain createOffer call is one the
 * implementation takes (the reference's body with {processingMs} would be a 422).
 */
export function offersByAmount(profile: ResolvedProfile): ResolvedProfile {
  if (!profile.trading) return profile;
  const { fastProcessingMs: _fast, slowProcessingMs: _slow, expiryValiditySeconds: _expiry, ...trading } = profile.trading;
  const offerRecipes: Record<string, OfferRecipe> = {
    fast: { body: FAST_OFFER, acceptAnswers: 200 },
    slow: { body: SLOW_OFFER, acceptAnswers: 202 },
    expiring: { body: { ...FAST_OFFER, validity_seconds: 1 }, expiresAfterSeconds: 1 },
    expiringSlow: { body: { ...SLOW_OFFER, validity_seconds: 1 }, acceptAnswers: 202, expiresAfterSeconds: 1 },
  };
  const createOffer = trading.createOffer && { ...trading.createOffer, body: FAST_OFFER };
  return { ...profile, trading: { ...trading, ...(createOffer ? { createOffer } : {}), offerRecipes } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every template's headers (any object's `headers` member, at any depth) with svc-user-id sent as `name`. */
function renameHeaderEverywhere(value: unknown, name: string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameHeaderEverywhere(item, name));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => {
      if (key !== 'headers' || !isObject(member)) return [key, renameHeaderEverywhere(member, name)];
      return [key, Object.fromEntries(Object.entries(member).map(([header, v]) => [header.toLowerCase() === SPEC_USER_ID_HEADER ? name : header, v]))];
    }),
  );
}

/**
 * user-id-header-renamed: the profile names the edition's header
 * (userIdHeader), which the checks send wherever the spec says svc-user-id,
 * and every template that sends svc-user-id sends it under that name.
 */
export function withUserIdHeader(profile: ResolvedProfile, options?: ReferenceOptions): ResolvedProfile {
  const name = renamedUserHeader(options);
  return { ...(renameHeaderEverywhere(profile, name) as ResolvedProfile), userIdHeader: name };
}
