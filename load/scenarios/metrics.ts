// The metrics both engines record, under the same names and tags, so one
// analysis reads either engine's result. In k6 they are custom metrics
// tagged by phase (the k6 scenario) and outcome; thresholds name their
// sub-metrics ("ptas_answers{phase:step-02,outcome:429}").

/** Counter: one per measured answer (or transport failure), tagged phase and outcome. */
export const ANSWERS = 'ptas_answers';
/** Trend (time): latency of measured requests, tagged phase and outcome. */
export const LATENCY = 'ptas_latency';
/** Rate: 1 for a measured request whose outcome the scenario does not expect. */
export const FAILED = 'ptas_failed';
/** Counter added once at the end of k6's setup(): when the instance's scenarios start (its clock's origin). */
export const INSTANCE_START = 'ptas_instance_start';
/** k6's own counter of arrivals no VU was free for (the embedded engine counts the same). */
export const DROPPED = 'dropped_iterations';

export const OUTCOMES = ['2xx', '3xx', '4xx', '429', '5xx', 'transport'] as const;
/** 4xx means a client error other than 429; transport is a reset, refused connection or timeout (k6 status 0). */
export type Outcome = (typeof OUTCOMES)[number];

export function outcomeOf(status: number): Outcome {
  if (status === 0) return 'transport';
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  return '2xx';
}

/** Outcomes that count as success: a breakpoint expects 429 as well (it is what it looks for). */
export function expectedOutcomes(rateLimitExpected: boolean): Outcome[] {
  return rateLimitExpected ? ['2xx', '3xx', '429'] : ['2xx', '3xx'];
}

/** The no-op thresholds that make k6 put a phase's sub-metrics into its summary. */
export function phaseSubmetricThresholds(phase: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const outcome of OUTCOMES) out[`${ANSWERS}{phase:${phase},outcome:${outcome}}`] = ['count>=0'];
  out[`${LATENCY}{phase:${phase},outcome:2xx}`] = ['p(95)>=0'];
  out[`${LATENCY}{phase:${phase},outcome:429}`] = ['p(95)>=0'];
  out[`${LATENCY}{phase:${phase}}`] = ['p(95)>=0'];
  out[`${DROPPED}{scenario:${phase}}`] = ['count>=0'];
  return out;
}

/** Trend statistics both engines report (k6: summaryTrendStats). */
export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(95)', 'p(99)', 'count'];
