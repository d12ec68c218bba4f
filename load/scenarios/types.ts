// The vocabulary of a load scenario, in k6's own option names (executor,
// rate, timeUnit, stages, preAllocatedVUs, maxVUs, startTime, thresholds) so
// a k6 script can hand the scenarios to k6 unchanged and the embedded engine
// reads the same data. Pure data and pure functions only: this folder is
// loaded by k6 (no Node imports) and by Node (no k6 imports).

/** A k6 duration: "500ms", "1.5s", "2m", "1h30m". */
export type Duration = string;

export interface Stage {
  target: number;
  duration: Duration;
}

interface ExecutorCommon {
  startTime?: Duration;
  gracefulStop?: Duration;
  preAllocatedVUs: number;
  maxVUs?: number;
  timeUnit?: Duration;
  /** Tags k6 adds to every metric of this scenario; the embedded engine keeps them on the phase. */
  tags?: Record<string, string>;
  exec?: string;
}

export interface ConstantArrivalRate extends ExecutorCommon {
  executor: 'constant-arrival-rate';
  rate: number;
  duration: Duration;
}

export interface RampingArrivalRate extends ExecutorCommon {
  executor: 'ramping-arrival-rate';
  startRate?: number;
  stages: Stage[];
}

export type ArrivalExecutor = ConstantArrivalRate | RampingArrivalRate;

/** k6 thresholds: metric (or sub-metric "name{tag:value}") → expressions such as "p(95)<500". */
export type Thresholds = Record<string, string[]>;

export type OperationName = 'token' | 'user-details' | 'accept';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One HTTP request of an iteration. {name} placeholders in path, query,
 * headers and body are filled from the run's variables (clientId,
 * clientSecret, userId, offerId, values extracted by earlier requests).
 */
export interface RequestTemplate {
  /** Becomes the k6 `name` tag and the label in results. */
  name: string;
  method: HttpMethod;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A JSON body; a string that is exactly "{name}" takes the variable's own JSON type. */
  json?: unknown;
  /** Send the run's access token as a bearer credential. */
  bearer?: boolean;
  /** Variables to extract from the JSON answer by JSON Pointer, for the requests that follow. */
  extract?: Record<string, string>;
  /** Set-up requests (creating the offer an accept needs) are sent but not counted in the statistics. */
  setup?: boolean;
}

/** What the set-up of a run must provide before the first arrival. */
export interface RunNeeds {
  /** An access token (client_credentials) obtained once, as k6's setup() does. */
  accessToken: boolean;
}

/** One constant-rate step of a rate-limit staircase, as planned. */
export interface PlannedStep {
  /** The k6 scenario name of this step: "step-01". */
  name: string;
  /** climb: rising steps until 429s appear; recovery: after backing off, below the estimated limit. */
  role: 'climb' | 'recovery';
  rate: number;
  durationSec: number;
  startSec: number;
}

export interface LoadScenario {
  name: string;
  description: string;
  operation: OperationName;
  kind: 'rate-breakpoint' | 'profile';
  /** The requests of one iteration, in order. */
  iteration: RequestTemplate[];
  needs: RunNeeds;
  /** k6 scenarios by name; the embedded engine runs them as phases, by startTime. */
  scenarios: Record<string, ArrivalExecutor>;
  thresholds: Thresholds;
  /** Steps of a breakpoint staircase (the analysis reads their tags from the result). */
  steps?: PlannedStep[];
  /** What the steps were sized for: how long an answer takes (ScenarioParams.latencyMs); steps planned later (a plateau, the recovery) use it too. */
  latencyMs?: number;
}

/** Everything a scenario builder may use; the profile supplies the operations the spec does not show. */
export interface ScenarioParams {
  /** Never offer more than this many requests per second. */
  capRps: number;
  /** Never run longer than this (seconds), all phases together. */
  maxDurationSec: number;
  /** The rate limit the profile expects (breakpoints aim their steps at it). */
  expectedRps?: number;
  /** The burst the profile expects the limiter to allow. */
  burst?: number;
  /** Seconds per staircase step when the limit is unknown. */
  stepSec?: number;
  /** How long an answer takes (observed before the climb, else declared): steps last longer and keep more in flight (staircase.ts). */
  latencyMs?: number;
  /** Seconds to wait between the climb and the recovery step (k6 cannot read Retry-After across VUs). */
  backoffSec?: number;
  /** Target rate of profile scenarios (smoke, average-load, …). */
  targetRps?: number;
  /** Trading: the user the offers belong to, and the create-offer operation of the profile. */
  /** createOffer is the profile's standard offer recipe; userIdHeader the target's user-id header (spec 5 rule 4). */
  trading?: { userId: string; createOffer: RequestTemplate; userIdHeader?: string };
  /** Users: an existing user id for user details. */
  userId?: string;
}
