// Folds check results into the run verdict, counts and traceability matrix.
import { breaksConformance, VERDICTS, type CheckResult, type Verdict } from '../check/model.ts';
import { catalogue } from '../requirements.ts';
import type { RunMetadata, RunResults, RunVerdict, TraceabilityRow } from './model.ts';
import type { LoadSection } from './load-model.ts';

export function countVerdicts(checks: readonly CheckResult[]): Record<Verdict, number> {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const check of checks) counts[check.verdict]++;
  return counts;
}

export function runVerdict(checks: readonly CheckResult[], interrupted: boolean, errors: readonly string[]): RunVerdict {
  if (interrupted) return 'INCOMPLETE';
  if (checks.some(breaksConformance)) return 'NOT CONFORMANT';
  // A suite that could not load some checks has not shown conformance.
  if (errors.length || checks.length === 0) return 'INCOMPLETE';
  return 'CONFORMANT';
}

export function traceability(checks: readonly CheckResult[]): TraceabilityRow[] {
  return catalogue().requirements.map((requirement) => ({
    ...requirement,
    checks: [...new Set(checks.filter((c) => c.requirements.includes(requirement.id)).map((c) => c.id))],
  }));
}

export function buildResults(input: {
  run: RunMetadata;
  checks: CheckResult[];
  load?: LoadSection;
  errors?: string[];
}): RunResults {
  const errors = input.errors ?? [];
  return {
    schemaVersion: 1,
    run: input.run,
    verdict: runVerdict(input.checks, Boolean(input.run.interrupted), errors),
    counts: countVerdicts(input.checks),
    checks: input.checks,
    requirements: traceability(input.checks),
    load: input.load,
    errors,
  };
}
