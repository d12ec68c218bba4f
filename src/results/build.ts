// Folds check results into the run verdict, counts and traceability matrix.
import type { CheckResult } from '../check/model.ts';
import { catalogue } from '../requirements.ts';
import type { RunMetadata, RunResults, TraceabilityRow } from './model.ts';
import type { LoadSection } from './load-model.ts';
import { countVerdicts, runVerdict } from './verdict.ts';

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
    verdict: runVerdict({ checks: input.checks, interrupted: input.run.interrupted, errors }),
    counts: countVerdicts(input.checks),
    checks: input.checks,
    requirements: traceability(input.checks),
    load: input.load,
    errors,
  };
}
