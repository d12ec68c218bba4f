// The merge policy for re-runs, written once: when one part of a sharded run
// (ptas run --shard i/n) ran more than once — a re-run after a failed night or
// a broken machine, each run with its own manifest — `ptas merge`
// (app/merge/merge.ts) gives every check of that part the verdicts of all its
// runs as `attempts`, in the order the runs started, and one final verdict:
//
//   the attempts, oldest first                     final verdict        evidence kept
//   a FAIL, later a PASS, WARN or REVIEW           FLAKY                the latest FAIL's
//   a FAIL, later only FAILs, ERRORs, SKIPs        FAIL                 the latest FAIL's
//   no FAIL; some PASS, WARN or REVIEW             the last of those    that attempt's
//   only ERRORs and SKIPs                          the last attempt's   that attempt's
//
// ERROR (the check could not execute) and SKIP (a precondition missing)
// observed nothing about conformance, so they decide only when no attempt
// observed anything: an ERROR followed by a verdict is an infrastructure
// retry that recovered, and the later verdict stands.
//
// For certification a fail-then-pass is not a pass: the FAIL was observed
// with its evidence, and a later pass does not unsay it. FLAKY breaks
// conformance as FAIL does (src/results/verdict.ts); its name and reason tell
// the reader that a later attempt passed. A FAIL is never replaced by a later
// ERROR or SKIP either: those observed nothing.
import type { CheckResult, Verdict } from '../check/model.ts';
import type { CheckAttempt, PartRun } from './run-parts.ts';

export type { CheckAttempt, PartRun } from './run-parts.ts';

/** A check as one run of its part gave it. */
export interface RunOfCheck {
  run: PartRun;
  check: CheckResult;
}

/** Verdicts that observed nothing about conformance: the check could not execute, or a precondition was missing. */
const OBSERVED_NOTHING: ReadonlySet<Verdict> = new Set(['ERROR', 'SKIP']);
const failed = (verdict: Verdict) => verdict === 'FAIL' || verdict === 'FLAKY';

/** The policy over verdicts alone: the final verdict, and the index of the attempt whose evidence the check keeps. */
export function foldAttempts(verdicts: readonly Verdict[]): { verdict: Verdict; decisive: number } {
  if (verdicts.length === 0) throw new Error('foldAttempts: a check has at least one attempt');
  const observed = verdicts.map((_, i) => i).filter((i) => !OBSERVED_NOTHING.has(verdicts[i]!));
  if (observed.length === 0) return { verdict: verdicts.at(-1)!, decisive: verdicts.length - 1 };
  const failures = observed.filter((i) => failed(verdicts[i]!));
  if (failures.length) {
    const passedLater = observed.some((i) => i > failures[0]! && !failed(verdicts[i]!));
    return { verdict: passedLater ? 'FLAKY' : 'FAIL', decisive: failures.at(-1)! };
  }
  const last = observed.at(-1)!;
  return { verdict: verdicts[last]!, decisive: last };
}

/** The verdict and reason a check gave, before any waiver (waivers are judged again over the merged run). */
function given(check: CheckResult): CheckResult {
  if (!check.waived) return check;
  const { waived, ...rest } = check;
  return { ...rest, verdict: waived.verdict };
}

/** "attempt 2 of part 2/2 (run started …, manifest sha256:0123456789ab…)". */
export function describePartRun(run: PartRun): string {
  return `attempt ${run.attempt} of part ${run.index}/${run.total} (run started ${run.startedAt}, manifest sha256:${run.manifestSha256.slice(0, 12)}…)`;
}

/** One line per attempt, for the JUnit text, the terminal and the annotations. */
export function attemptLine(attempt: CheckAttempt): string {
  return `${describePartRun(attempt.run)}: ${attempt.verdict}${attempt.reason ? ` — ${attempt.reason}` : ''}${attempt.decisive ? ' [kept as evidence]' : ''}`;
}

function flakyReason(attempts: readonly CheckAttempt[], decisive: CheckAttempt): string {
  const failedIn = attempts.filter((a) => failed(a.verdict)).map((a) => a.run.attempt);
  const passedIn = attempts.filter((a) => a.run.attempt > failedIn[0]! && !failed(a.verdict) && !OBSERVED_NOTHING.has(a.verdict));
  const later = passedIn.map((a) => `${a.verdict} in attempt ${a.run.attempt}`).join(', ');
  const run = decisive.run;
  return (
    `FAILed in attempt${failedIn.length === 1 ? '' : 's'} ${failedIn.join(', ')} of part ${run.index}/${run.total}, then ${later}: a fail-then-pass is not a pass. ` +
    `Attempt ${run.attempt} (run started ${run.startedAt}, manifest sha256:${run.manifestSha256.slice(0, 12)}…) failed: ${decisive.reason ?? '(no reason given)'}`
  );
}

/**
 * One check from every run of its part that has it, oldest run first: the
 * attempt the policy chose, with its verdict, reason and evidence, the final
 * verdict, and every attempt. Any waiver is dropped: the merge judges the
 * waivers again over the merged run.
 */
export function mergeAttempts(runs: readonly RunOfCheck[]): CheckResult {
  const checks = runs.map((r) => given(r.check));
  const { verdict, decisive } = foldAttempts(checks.map((c) => c.verdict));
  const attempts = runs.map(
    (r, i): CheckAttempt => ({ run: r.run, verdict: checks[i]!.verdict, ...(checks[i]!.reason !== undefined ? { reason: checks[i]!.reason } : {}), durationMs: checks[i]!.durationMs, decisive: i === decisive }),
  );
  const chosen = checks[decisive]!;
  const reason = verdict === 'FLAKY' ? flakyReason(attempts, attempts[decisive]!) : chosen.reason;
  return { ...chosen, verdict, ...(reason !== undefined ? { reason } : {}), attempts };
}

/** What `ptas verify` asks of a check with attempts: its verdict (before any waiver) is what they fold to, and the decisive one is marked. */
export function attemptsDisagree(check: Pick<CheckResult, 'verdict' | 'waived' | 'attempts'>): string | undefined {
  const attempts = check.attempts;
  if (!attempts?.length) return undefined;
  const { verdict, decisive } = foldAttempts(attempts.map((a) => a.verdict));
  const gave = check.waived?.verdict ?? check.verdict;
  if (gave !== verdict) return `its attempts (${attempts.map((a) => a.verdict).join(', ')}) fold to ${verdict}, not ${gave}`;
  if (attempts.findIndex((a) => a.decisive) !== decisive || attempts.filter((a) => a.decisive).length !== 1) return `its decisive attempt is not attempt ${attempts[decisive]!.run.attempt}`;
  return undefined;
}
