// How a check's metadata, target and outcome cross Playwright's processes:
// the test carries the check's registered metadata and its target as
// annotations (declared in the worker, read by the collector in the runner
// process), and the after-each hook attaches the decided outcome.
export const META_ANNOTATION = 'ptas.check';
/** Names the target a test runs against: the collector groups results by it. */
export const TARGET_ANNOTATION = 'ptas.target';
export const OUTCOME_ATTACHMENT = 'ptas-check-outcome';
