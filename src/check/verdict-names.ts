// The check verdicts, by name: what every model of a result refers to
// (src/check/model.ts re-exports them). A module of its own, importing
// nothing, so the models of waivers and attempts can name a verdict without
// an import that runs back to the check model.

/** What a check itself can give: decided by the outcome function (src/check/outcome.ts). */
export type CheckVerdict = 'PASS' | 'FAIL' | 'WARN' | 'REVIEW' | 'SKIP' | 'ERROR';

/**
 * What a check's result can show: its own verdict, or one only the run's
 * folding gives — WAIVED (a waiver expected the verdict, src/results/waivers.ts)
 * and FLAKY (`ptas merge`: failed in one run of its part, passed in a later
 * one, src/results/attempts.ts).
 */
export type Verdict = CheckVerdict | 'WAIVED' | 'FLAKY';
export const VERDICTS: readonly Verdict[] = ['PASS', 'FAIL', 'WARN', 'REVIEW', 'SKIP', 'ERROR', 'WAIVED', 'FLAKY'];

/**
 * Verdicts a re-run of what failed or did not run tries again (app/run/rerun.ts,
 * and the console's "Run again only these"): a contradiction, which a re-run
 * can only confirm or show FLAKY, or nothing observed.
 */
export const RERUN_VERDICTS: readonly Verdict[] = ['FAIL', 'FLAKY', 'ERROR', 'SKIP'];
