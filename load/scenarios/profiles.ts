// Load profiles (smoke, average-load, stress, spike, soak) for the token,
// user-details and accept operations, as k6 ramping-arrival-rate scenarios.
// Shapes follow the usual k6 test types; stage lengths are the full ones and
// shrink in proportion when the run's duration cap is shorter.
import { formatDuration } from './duration.ts';
import { DROPPED, FAILED, LATENCY } from './metrics.ts';
import { acceptRequest, tokenRequest, userDetailsRequest } from './operations.ts';
import type { LoadScenario, OperationName, RampingArrivalRate, RequestTemplate, RunNeeds, ScenarioParams, Thresholds } from './types.ts';

export const PROFILE_KINDS = ['smoke', 'average-load', 'stress', 'spike', 'soak'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];
export const PROFILE_OPERATIONS: readonly OperationName[] = ['token', 'user-details', 'accept'];

interface Shape {
  description: string;
  /** Start rate and stages as multiples of the target rate, lengths in seconds. */
  startShare: number;
  stages: Array<{ share: number; sec: number }>;
  p95Ms: number;
  maxFailedShare: number;
}

const SHAPES: Record<ProfileKind, Shape> = {
  smoke: { description: 'a trickle to prove the script and the target work', startShare: 0.05, stages: [{ share: 0.05, sec: 30 }], p95Ms: 500, maxFailedShare: 0.01 },
  'average-load': {
    description: 'ramp to the target rate, hold it, ramp down',
    startShare: 0,
    stages: [{ share: 1, sec: 60 }, { share: 1, sec: 300 }, { share: 0, sec: 30 }],
    p95Ms: 500,
    maxFailedShare: 0.01,
  },
  stress: {
    description: 'ramp to 1.5 × the target rate and hold it',
    startShare: 0,
    stages: [{ share: 1.5, sec: 120 }, { share: 1.5, sec: 300 }, { share: 0, sec: 60 }],
    p95Ms: 1000,
    maxFailedShare: 0.01,
  },
  spike: {
    description: 'jump to 3 × the target rate in seconds, hold a minute, drop',
    startShare: 0,
    stages: [{ share: 3, sec: 10 }, { share: 3, sec: 60 }, { share: 0, sec: 10 }],
    p95Ms: 2000,
    maxFailedShare: 0.05,
  },
  soak: {
    description: 'the target rate for an hour, for leaks and slow degradation',
    startShare: 0,
    stages: [{ share: 1, sec: 120 }, { share: 1, sec: 3600 }, { share: 0, sec: 60 }],
    p95Ms: 500,
    maxFailedShare: 0.01,
  },
};

export function profileScenarioName(kind: ProfileKind, operation: OperationName): string {
  return `${operation}-${kind}`;
}

function iterationFor(operation: OperationName, params: ScenarioParams): { iteration: RequestTemplate[]; needs: RunNeeds } {
  switch (operation) {
    case 'token':
      return { iteration: [tokenRequest()], needs: { accessToken: false } };
    case 'user-details':
      return { iteration: [userDetailsRequest()], needs: { accessToken: true } };
    case 'accept':
      // Each iteration accepts a fresh offer: creating it is set-up, not measured.
      if (!params.trading) throw new Error('the accept profiles need trading.userId and trading.createOffer in the profile');
      return { iteration: [params.trading.createOffer, acceptRequest(params.trading.userIdHeader)], needs: { accessToken: true } };
  }
}

/** The default target: a third of the expected limit (so spike stays near it), else a quarter of the cap. */
export function defaultTargetRps(params: ScenarioParams): number {
  return params.targetRps ?? (params.expectedRps ? params.expectedRps * 0.3 : params.capRps / 4);
}

export function profileScenario(kind: ProfileKind, operation: OperationName, params: ScenarioParams, maxInFlight = 256): LoadScenario {
  const shape = SHAPES[kind];
  const target = defaultTargetRps(params);
  const fullSec = shape.stages.reduce((sum, s) => sum + s.sec, 0);
  const scale = Math.min(1, params.maxDurationSec / fullSec);
  const rate = (share: number) => Math.min(params.capRps, Math.max(share > 0 ? 1 : 0, Math.round(share * target)));
  const peak = Math.max(...shape.stages.map((s) => rate(s.share)), rate(shape.startShare));
  const main: RampingArrivalRate = {
    executor: 'ramping-arrival-rate',
    startRate: rate(shape.startShare),
    timeUnit: '1s',
    stages: shape.stages.map((s) => ({ target: rate(s.share), duration: formatDuration(Math.max(0.1, s.sec * scale)) })),
    preAllocatedVUs: Math.min(maxInFlight, Math.ceil(peak / 20) + 2),
    maxVUs: Math.min(maxInFlight, Math.ceil(peak * 0.25) + 10),
    gracefulStop: '5s',
    tags: { phase: 'main' },
  };
  const thresholds: Thresholds = {
    [`${LATENCY}{outcome:2xx}`]: [`p(95)<${shape.p95Ms}`],
    [FAILED]: [`rate<${shape.maxFailedShare}`],
    [DROPPED]: ['count==0'],
  };
  const { iteration, needs } = iterationFor(operation, params);
  return {
    name: profileScenarioName(kind, operation),
    description: `${kind} on ${operation}: ${shape.description}${scale < 1 ? ` (stages scaled to ${Math.round(scale * 1000) / 10} % to fit ${params.maxDurationSec} s)` : ''}`,
    operation,
    kind: 'profile',
    iteration,
    needs,
    scenarios: { main },
    thresholds,
  };
}
