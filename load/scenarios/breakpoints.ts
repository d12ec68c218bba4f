// The 429 breakpoint scenarios: the token endpoint (spec 4.1) and accept-offer
// (spec 4.4), both rate-limited with a value the spec does not show (8).
import { acceptRequest, tokenRequest } from './operations.ts';
import { planClimb, recoveryStep, RECOVERY_SHARE, staircaseScenarios } from './staircase.ts';
import type { LoadScenario, PlannedStep, ScenarioParams } from './types.ts';

/** Default in-flight bound (k6 maxVUs) of one step. */
export const DEFAULT_MAX_IN_FLIGHT = 512;
/** k6 cannot read Retry-After across VUs, so its static plan waits this long before the recovery step. */
export const DEFAULT_BACKOFF_SEC = 2;

/** Climb, back off, recover: the static plan k6 runs (the embedded engine stops the climb early and waits for Retry-After). */
export function breakpointSteps(params: ScenarioParams): PlannedStep[] {
  const climb = planClimb({
    capRps: params.capRps,
    maxDurationSec: params.maxDurationSec,
    expectedRps: params.expectedRps,
    burst: params.burst,
    stepSec: params.stepSec,
    latencyMs: params.latencyMs,
  });
  const last = climb[climb.length - 1];
  const climbEnd = last ? last.startSec + last.durationSec : 0;
  const recoveryRate = RECOVERY_SHARE * (params.expectedRps ?? climb[0]?.rate ?? 1);
  return [...climb, recoveryStep(climb.length, Math.min(params.capRps, recoveryRate), climbEnd + (params.backoffSec ?? DEFAULT_BACKOFF_SEC))];
}

export function tokenRateBreakpoint(params: ScenarioParams, maxInFlight = DEFAULT_MAX_IN_FLIGHT): LoadScenario {
  const steps = breakpointSteps(params);
  return {
    name: 'token-rate-breakpoint',
    description: 'Staircase of constant arrival rates on POST /v1/oauth/token until 429s appear; estimates the limit, then backs off and checks recovery.',
    operation: 'token',
    kind: 'rate-breakpoint',
    iteration: [tokenRequest()],
    needs: { accessToken: false },
    steps,
    ...(params.latencyMs !== undefined ? { latencyMs: params.latencyMs } : {}),
    ...staircaseScenarios(steps, maxInFlight, params.latencyMs),
  };
}

/**
 * Every iteration creates an offer (set-up, not measured: the profile's
 * trading.createOffer) and accepts it, so each accept is one the service
 * would execute: a 429 then means the limiter refused it, and the offers of
 * refused accepts can be read back to prove they did not execute.
 */
export function acceptRateBreakpoint(params: ScenarioParams, maxInFlight = DEFAULT_MAX_IN_FLIGHT): LoadScenario {
  if (!params.trading) throw new Error('accept-rate-breakpoint needs trading.userId and trading.createOffer in the profile');
  const steps = breakpointSteps(params);
  return {
    name: 'accept-rate-breakpoint',
    description: 'Staircase of constant arrival rates on PATCH /v1/offers/{id}/accept until 429s appear; estimates the limit, then backs off and checks recovery.',
    operation: 'accept',
    kind: 'rate-breakpoint',
    iteration: [params.trading.createOffer, acceptRequest(params.trading.userIdHeader)],
    needs: { accessToken: true },
    steps,
    ...(params.latencyMs !== undefined ? { latencyMs: params.latencyMs } : {}),
    ...staircaseScenarios(steps, maxInFlight, params.latencyMs),
  };
}
