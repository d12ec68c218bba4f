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
//
//   run verdict     rule (first that applies)
//   INCOMPLETE      the run was cut short
//   NOT CONFORMANT  a check FAILed
//   INCOMPLETE      a check is ERROR, a suite file did not load, or no check ran
//   CONFORMANT      otherwise (WARN, REVIEW and SKIP do not change it)
import { VERDICTS, type CheckResult, type Verdict } from '../check/model.ts';
import { EXIT } from '../exit-codes.ts';
import type { RunVerdict } from './model.ts';

/** What the fold looks at. */
export interface VerdictInput {
  checks: ReadonlyArray<Pick<CheckResult, 'verdict'>>;
  /** Set when the run was cut short (SIGINT). */
  interrupted?: string;
  /** Problems outside any check (a suite file that failed to load). */
  errors: readonly string[];
}

/** A FAIL is a contradiction of the spec's text or of the profile's declaration: either makes the run NOT CONFORMANT. */
export function breaksConformance(check: Pick<CheckResult, 'verdict'>): boolean {
  return check.verdict === 'FAIL';
}

/** A check that could not execute leaves the run unable to certify anything about what it covers. */
export function leavesRunIncomplete(check: Pick<CheckResult, 'verdict'>): boolean {
  return check.verdict === 'ERROR';
}

export function runVerdict(input: VerdictInput): RunVerdict {
  if (input.interrupted) return 'INCOMPLETE';
  if (input.checks.some(breaksConformance)) return 'NOT CONFORMANT';
  if (input.checks.some(leavesRunIncomplete) || input.errors.length || input.checks.length === 0) return 'INCOMPLETE';
  return 'CONFORMANT';
}

export function countVerdicts(checks: ReadonlyArray<Pick<CheckResult, 'verdict'>>): Record<Verdict, number> {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const check of checks) counts[check.verdict]++;
  return counts;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line that says why the run got its verdict (banner, terminal). */
export function explainRunVerdict(input: VerdictInput): string {
  const verdict = runVerdict(input);
  const counts = countVerdicts(input.checks);
  if (verdict === 'NOT CONFORMANT') return `${plural(counts.FAIL, 'check')} found a contradiction of the spec or of the declared profile`;
  if (verdict === 'INCOMPLETE') {
    if (input.interrupted) return `the run was cut short: ${input.interrupted}`;
    if (input.checks.length === 0) return 'no check ran';
    const parts = [counts.ERROR && `${plural(counts.ERROR, 'check')} could not run`, input.errors.length && `${plural(input.errors.length, 'problem')} outside any check`];
    return `${parts.filter(Boolean).join(' and ')}: nothing was found wrong, but not everything could be checked`;
  }
  const notes = [counts.WARN && plural(counts.WARN, 'warning'), counts.REVIEW && `${counts.REVIEW} to review`, counts.SKIP && `${counts.SKIP} skipped`].filter(Boolean);
  return `no check found a contradiction of the spec${notes.length ? `; ${notes.join(', ')}` : ''}`;
}

/** The exit code of `ptas run` for a verdict (documented in --help and the README). */
export function exitCodeFor(verdict: RunVerdict, interrupted: boolean): number {
  if (verdict === 'CONFORMANT') return EXIT.CONFORMANT;
  if (verdict === 'NOT CONFORMANT') return EXIT.NOT_CONFORMANT;
  return interrupted ? EXIT.INTERRUPTED : EXIT.INCOMPLETE;
}
