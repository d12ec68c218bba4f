// Scenario parameters from an implementation profile plus command-line (or
// k6 -e) overrides, for both engines: caps bound everything, the profile's
// expectations aim the staircases, its trading/users sections supply ids
// and the operations the spec does not show.
import { userIdHeaderOf, type Profile } from '../../src/config/profile.ts';
import { offerRecipes } from '../../src/config/sections/offer-recipes.ts';
import type { RateLimitExpectation } from '../../src/config/sections/load.ts';
import { fromProfileOperation, type ProfileOperation } from './operations.ts';
import type { OperationName, ScenarioParams } from './types.ts';

export interface ParamOverrides {
  capRps?: number;
  maxDurationSec?: number;
  targetRps?: number;
  expectedRps?: number;
  burst?: number;
}

/** Without caps or flags: four times the expected limit, else this. */
export const DEFAULT_BLIND_CAP_RPS = 2000;
/** Without caps or flags, a probe runs at most this long (profiles keep their full length on loopback). */
export const DEFAULT_PROBE_DURATION_SEC = 15;

export function expectationFor(operation: OperationName, profile: Profile): RateLimitExpectation | undefined {
  if (operation === 'token') return profile.load?.tokenRateLimit;
  if (operation === 'accept') return profile.load?.acceptRateLimit;
  return undefined;
}

export function scenarioParams(operation: OperationName, profile: Profile, overrides: ParamOverrides = {}, profileLengthSec = DEFAULT_PROBE_DURATION_SEC): ScenarioParams {
  const expectation = expectationFor(operation, profile);
  const caps = profile.load?.caps;
  const expectedRps = overrides.expectedRps ?? expectation?.expectedRps;
  const wanted = overrides.capRps ?? expectation?.capRps ?? caps?.rps ?? (expectedRps ? 4 * expectedRps : DEFAULT_BLIND_CAP_RPS);
  const trading = profile.trading;
  // Load makes the offers every check makes: the standard recipe (fast, where the profile declares one).
  const recipe = offerRecipes(trading)?.standard;
  const createOffer = recipe?.template as ProfileOperation | undefined;
  return {
    capRps: Math.min(wanted, caps?.rps ?? Infinity),
    maxDurationSec: Math.min(overrides.maxDurationSec ?? caps?.durationSeconds ?? profileLengthSec, caps?.durationSeconds ?? Infinity),
    expectedRps,
    burst: overrides.burst ?? expectation?.burst,
    stepSec: expectation?.stepSeconds,
    targetRps: overrides.targetRps,
    trading: trading?.userId && createOffer ? { userId: trading.userId, createOffer: fromProfileOperation('create-offer', createOffer, true), userIdHeader: userIdHeaderOf(profile) } : undefined,
    userId: profile.users?.existingUserId,
  };
}

/** Placeholder values the templates use, from the profile (the access token comes from set-up). */
export function profileVariables(operation: OperationName, profile: Profile): Record<string, string | number | undefined> {
  return {
    clientId: profile.credentials?.clientId,
    clientSecret: profile.credentials?.clientSecret,
    // {userId} is the user whose details are read, or the user offers are made for.
    userId: operation === 'user-details' ? profile.users?.existingUserId : profile.trading?.userId,
    ...standardRecipeValues(profile),
  };
}

/** The placeholder values of the standard offer recipe ({processingMs}, {validitySeconds}, or the recipe's own), as template variables. */
export function standardRecipeValues(profile: Profile): Record<string, string | number | undefined> {
  const values = offerRecipes(profile.trading)?.standard.values ?? { validitySeconds: profile.trading?.validitySeconds };
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string | number | undefined] => ['string', 'number', 'undefined'].includes(typeof entry[1])));
}
