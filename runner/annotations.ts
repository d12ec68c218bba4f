// How a check's metadata, target and outcome cross Playwright's processes:
// the test carries the check's registered metadata and its target as
// annotations (declared in the worker, read by the collector in the runner
// process), and the after-each hook adds the decided outcome as one more
// annotation (an attachment would be a step, with a source-mapped stack
// captured for its location, in each of a self-test's thousands of tests).
export const META_ANNOTATION = 'ptas.check';
/** Names the target a test runs against: the collector groups results by it. */
export const TARGET_ANNOTATION = 'ptas.target';
export const OUTCOME_ANNOTATION = 'ptas.outcome';
