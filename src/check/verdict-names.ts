// The check verdicts, by name: what every model of a result refers to
// (src/check/model.ts re-exports them). A module of its own, importing
// nothing, so the models of waivers and attempts can name a verdict without
// an import that runs back to the check model.
export type Verdict = 'PASS' | 'FAIL' | 'WARN' | 'REVIEW' | 'SKIP' | 'ERROR' | 'WAIVED' | 'FLAKY';
export const VERDICTS: readonly Verdict[] = ['PASS', 'FAIL', 'WARN', 'REVIEW', 'SKIP', 'ERROR', 'WAIVED', 'FLAKY'];
