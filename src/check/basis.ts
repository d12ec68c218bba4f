// The basis of a FAIL: the spec sentence of the check's (first) requirement,
// quoted from the catalogue, and the profile key when the behaviour was
// declared by the implementation profile rather than stated by the spec.
import { requirementById } from '../requirements.ts';
import type { VerdictBasis } from './model.ts';

export function verdictBasis(requirements: readonly string[], declaredBy?: string): VerdictBasis | undefined {
  const requirement = requirements.map(requirementById).find((r) => r !== undefined);
  if (!requirement) return undefined;
  return {
    kind: declaredBy ? 'profile-declared' : 'spec',
    requirement: requirement.id,
    clause: requirement.clause,
    quote: requirement.quote,
    ...(declaredBy ? { profileKey: declaredBy } : {}),
  };
}

/** The basis as one line, for the terminal and JUnit: `spec 4.1 rule 2: "…"` or `profile-declared (trading.fastProcessingMs); spec 8: "…"`. */
export function describeBasis(basis: VerdictBasis): string {
  const spec = `spec ${basis.clause}: "${basis.quote}"`;
  return basis.kind === 'profile-declared' ? `profile-declared (${basis.profileKey}); ${spec}` : spec;
}
