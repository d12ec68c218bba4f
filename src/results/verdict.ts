// The verdict policy, written once (the README's "Verdicts" table states it for users). Every place
// that states a run's verdict — results.json, the terminal summary, the HTML
// banner, JUnit, the exit code — asks this module, never decides itself.
//
//   check verdict  when it may be given
//   FAIL           the spec's text is contradicted (the check quotes the sentence),
//                  or a behaviour the implementation profile declares is contradicted
//                  ("profile-declared", naming the profile key)
//   WARN           a deviation from what the spec implies or recommends (a code outside
//                  the operation's section 7 list, a SHOULD), or a MUST-shaped
//                  expectation where the spec is silent
//   REVIEW         the spec says "not shown": what was observed, for a human
//   SKIP           a precondition or profile entry is missing (the reason names the key)
//   ERROR          the check could not execute (set-up of an unspecified operation
//                  failed, no usable response)
//   WAIVED         never given by a check: a FAIL, ERROR or WARN that an unexpired
//                  waiver expected (--waivers, src/results/waivers.ts); the check keeps
//                  the verdict it gave, and its reason
//   FLAKY          never given by a check: `ptas merge` gives it to a check whose part
//                  ran more than once when it FAILed in one run and gave PASS, WARN or
//                  REVIEW in a later one (src/results/attempts.ts states the whole
//                  policy); the check keeps the failing attempt's reason, basis and
//                  evidence, and every attempt
//
//   run verdict              rule (first that applies)
//   INCOMPLETE               the run was cut short
//   NOT CONFORMANT           a check FAILed, or is FLAKY: a contradiction of the spec was
//                            observed with its evidence, and a later pass does not unsay it
//   INCOMPLETE               a check is ERROR, a suite file did not load, no check ran,
//                            or (--strict-waivers) a waiver is stale or unmatched
//   CONFORMANT WITH WAIVERS  otherwise, when a check is WAIVED
//   CONFORMANT               otherwise (WARN, REVIEW and SKIP do not change it)
import { VERDICTS, type CheckResult, type Verdict } from '../check/model.ts';
import { EXIT } from '../exit-codes.ts';
import type { RunResults, RunVerdict } from './model.ts';
import type { WaiverOutcome } from './waiver-model.ts';

/** What the fold looks at. */
export interface VerdictInput {
  checks: ReadonlyArray<Pick<CheckResult, 'verdict'>>;
  /** Set when the run was cut short (SIGINT). */
  interrupted?: string;
  /** Problems outside any check (a suite file that failed to load). */
  errors: readonly string[];
  /** Waivers that fail the run (waiversFailingTheRun): stale or unmatched under --strict-waivers. */
  waiverProblems?: readonly string[];
}

/**
 * A FAIL is a contradiction of the spec's text or of the profile's declaration: either makes the run NOT CONFORMANT.
 * So does a FLAKY check: it FAILed in one attempt, and for certification a fail-then-pass is not a pass.
 */
export function breaksConformance(check: Pick<CheckResult, 'verdict'>): boolean {
  return check.verdict === 'FAIL' || check.verdict === 'FLAKY';
}

/** A check that could not execute leaves the run unable to certify anything about what it covers. */
export function leavesRunIncomplete(check: Pick<CheckResult, 'verdict'>): boolean {
  return check.verdict === 'ERROR';
}

/**
 * Under --strict-waivers, a stale waiver (its checks no longer fail as it
 * says) or an unmatched one (it selects no check of the run) fails the run.
 * Not NOT CONFORMANT: the implementation contradicted nothing, the waiver
 * file did. Not a separate run verdict either: the run is INCOMPLETE, as when
 * a check could not run, because its verdict cannot be certified as stated —
 * the waiver file handed over with it claims failures that did not happen, or
 * names checks that did not run — until the file is brought up to date.
 * Expired waivers do not count here: they already waive nothing, so the FAIL
 * they no longer cover decides the verdict. In one part of a sharded run
 * (--shard) an unmatched waiver does not count either: its checks may have
 * run in another part, and `ptas merge` judges the waivers again over the
 * whole run (src/results/waivers.ts waiverFileOf).
 */
export function waiversFailingTheRun(results: Pick<RunResults, 'run' | 'waivers'>): WaiverOutcome[] {
  const section = results.waivers;
  if (!section?.strict) return [];
  return section.outcomes.filter((o) => o.status === 'stale' || (o.status === 'unmatched' && !results.run.shard));
}

/** The fold's input for saved results: every renderer asks with this, so they agree with results.verdict. */
export function verdictInputOf(results: Pick<RunResults, 'checks' | 'run' | 'errors' | 'waivers'>): VerdictInput {
  return {
    checks: results.checks,
    interrupted: results.run.interrupted,
    errors: results.errors,
    waiverProblems: waiversFailingTheRun(results).map((o) => `${o.status} waiver ${o.waiver.pointer} (${o.waiver.selector.kind} ${o.waiver.selector.id}): ${o.note}`),
  };
}

export function runVerdict(input: VerdictInput): RunVerdict {
  if (input.interrupted) return 'INCOMPLETE';
  if (input.checks.some(breaksConformance)) return 'NOT CONFORMANT';
  if (input.checks.some(leavesRunIncomplete) || input.errors.length || input.waiverProblems?.length || input.checks.length === 0) return 'INCOMPLETE';
  if (input.checks.some((check) => check.verdict === 'WAIVED')) return 'CONFORMANT WITH WAIVERS';
  return 'CONFORMANT';
}

export function countVerdicts(checks: ReadonlyArray<Pick<CheckResult, 'verdict'>>): Record<Verdict, number> {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const check of checks) counts[check.verdict]++;
  return counts;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function explainIncomplete(input: VerdictInput, counts: Record<Verdict, number>): string {
  if (input.interrupted) return `the run was cut short: ${input.interrupted}`;
  if (input.checks.length === 0) return 'no check ran';
  const notChecked = [counts.ERROR && `${plural(counts.ERROR, 'check')} could not run`, input.errors.length && `${plural(input.errors.length, 'problem')} outside any check`].filter(Boolean);
  const stale = input.waiverProblems?.length ?? 0;
  const waivers = stale
    ? `${plural(stale, 'waiver')} no longer ${stale === 1 ? 'matches' : 'match'} this run (stale or unmatched) and --strict-waivers is on: update the waiver file`
    : '';
  if (!notChecked.length) return waivers;
  return `${notChecked.join(' and ')}: nothing was found wrong, but not everything could be checked${waivers ? `; ${waivers}` : ''}`;
}

/** One line that says why the run got its verdict (banner, terminal). */
export function explainRunVerdict(input: VerdictInput): string {
  const verdict = runVerdict(input);
  const counts = countVerdicts(input.checks);
  const waived = counts.WAIVED ? `${plural(counts.WAIVED, 'check')} waived (known failures with an owner and an expiry)` : '';
  // ?? 0: a results.json written before FLAKY existed has no count for it.
  const flaky = counts.FLAKY ?? 0;
  const flakyNote = flaky ? ` (${flaky} of them flaky: failed in one attempt, passed in a later one)` : '';
  if (verdict === 'NOT CONFORMANT') return `${plural(counts.FAIL + flaky, 'check')} found a contradiction of the spec or of the declared profile${flakyNote}${waived ? `; ${waived}` : ''}`;
  if (verdict === 'INCOMPLETE') return `${explainIncomplete(input, counts)}${waived && !input.interrupted ? `; ${waived}` : ''}`;
  const notes = [counts.WARN && plural(counts.WARN, 'warning'), counts.REVIEW && `${counts.REVIEW} to review`, counts.SKIP && `${counts.SKIP} skipped`].filter(Boolean);
  if (verdict === 'CONFORMANT WITH WAIVERS') return `${waived}; no other check found a contradiction of the spec${notes.length ? `; ${notes.join(', ')}` : ''}`;
  return `no check found a contradiction of the spec${notes.length ? `; ${notes.join(', ')}` : ''}`;
}

/** The exit code of `ptas run` for a verdict (documented in --help and the README). */
export function exitCodeFor(verdict: RunVerdict, interrupted: boolean): number {
  if (verdict === 'CONFORMANT') return EXIT.CONFORMANT;
  if (verdict === 'CONFORMANT WITH WAIVERS') return EXIT.CONFORMANT_WITH_WAIVERS;
  if (verdict === 'NOT CONFORMANT') return EXIT.NOT_CONFORMANT;
  return interrupted ? EXIT.INTERRUPTED : EXIT.INCOMPLETE;
}
