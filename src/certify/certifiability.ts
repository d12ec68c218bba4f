// Whether `ptas verify` would accept a run's bundle, and if not, why and
// what fixes it: one function for the verifier and for every place a run's
// verdict is shown (terminal, report, results.json, API, console), so a
// green CONFORMANT never hides a bundle that verify refuses.
//
// A certification needs exactly one final verdict for every check the
// catalogue requires (every MUST check, app/certify/required-checks.ts),
// none SKIP (a profile key is missing) and none ERROR (the check could not
// observe what it needs).
import type { CheckResult } from '../check/model.ts';
import type { Certification, CertificationGap } from '../results/certification-model.ts';
import type { RunResults } from '../results/model.ts';

/** How many gaps a rendering lists before it says how many more there are. */
export const GAPS_SHOWN = 5;

const NOT_RUN = '(not run: --grep, --no-load or an interrupted run cannot certify)';

function missingFix(check: string): string {
  return check.startsWith('load.')
    ? 'run the load stage: leave out --no-load (with --shard, part 1 runs it; join the parts with ptas merge)'
    : 'run every check to the end: no --grep, and the parts of a --shard run joined with ptas merge';
}

function gapOf(id: string, verdicts: CheckResult[]): CertificationGap | undefined {
  if (verdicts.length === 0) {
    return { check: id, problem: `required check ${id} has no verdict ${NOT_RUN}`, fix: missingFix(id) };
  }
  if (verdicts.length > 1) return { check: id, problem: `required check ${id} has ${verdicts.length} verdicts, not one`, fix: 'one verdict per check: join the parts of a run with ptas merge' };
  const [only] = verdicts as [CheckResult];
  if (only.verdict === 'SKIP') {
    return {
      check: id,
      problem: `required check ${id} was skipped (${only.reason ?? 'no reason'}); the catalogue requires it`,
      fix: only.configKey ? `set ${only.configKey} in the profile` : 'give the profile what its reason names',
    };
  }
  if (only.verdict === 'ERROR') {
    return { check: id, problem: `required check ${id} is ERROR (${only.reason ?? 'no reason'}): it could not observe what it needs`, fix: 'run again once what its reason names is fixed' };
  }
  return undefined;
}

/** Whether a bundle of these results would verify against this list of required checks. */
export function certifiability(results: Pick<RunResults, 'checks'>, requiredChecks: readonly string[]): Certification {
  const gaps = requiredChecks.map((id) => gapOf(id, results.checks.filter((c) => c.id === id))).filter((g): g is CertificationGap => g !== undefined);
  return { certifiable: gaps.length === 0, required: requiredChecks.length, gaps };
}

/** The statement every rendering shows: "certifiable: …" or "not certifiable: …" with the first gaps and their fixes. */
export function certificationLines(certification: Certification): string[] {
  if (certification.certifiable) return [`certifiable: all ${certification.required} required checks have one final verdict, none SKIP or ERROR (ptas verify accepts the bundle)`];
  const { gaps } = certification;
  // Nothing required ran at all (`ptas explore`, a --grep of one area): one line says so, not a list of every check.
  if (gaps.length === certification.required && gaps.every((gap) => gap.problem.endsWith(NOT_RUN))) {
    return [`NOT CERTIFIABLE: none of the ${certification.required} required checks ran (an exploration or a --grep run certifies nothing): run ptas run, with --explore to explore in the same run`];
  }
  const lines = [`NOT CERTIFIABLE: ptas verify refuses the bundle: ${gaps.length} of ${certification.required} required checks`];
  for (const gap of gaps.slice(0, GAPS_SHOWN)) lines.push(`  ${gap.problem}: ${gap.fix}`);
  if (gaps.length > GAPS_SHOWN) lines.push(`  … and ${gaps.length - GAPS_SHOWN} more (results.json, "certification")`);
  return lines;
}
