// The sentence a finding rests on (VerdictBasis), built from the catalogue:
// the check's requirement's own quote, another sentence the requirement lists
// (a sentence of a standard the spec names), any other sentence of the spec
// in the catalogue, or a profile declaration. A check names a sentence by its
// catalogue id; naming a standard's its requirements do not list is a bug in
// the suite, caught the first time the finding is made.
import { requirementById, sentenceById, type Requirement } from '../requirements.ts';
import type { VerdictBasis } from './model.ts';
import { SERVER_ERROR_CLASS } from './server-error.ts';

/**
 * Standard sentences named for every operation rather than for one field:
 * section 7 names "500 (server error)" in the rows, so RFC 9110 15.6 (the 5xx
 * class) is what any finding about a server error may rest on.
 */
const NAMED_FOR_EVERY_OPERATION: ReadonlySet<string> = new Set([SERVER_ERROR_CLASS]);

function requirementsOf(ids: readonly string[]): Requirement[] {
  return ids.map(requirementById).filter((r): r is Requirement => r !== undefined);
}

/**
 * The basis of a finding of a check with these requirements: `on` names a
 * requirement id (its quote) or a sentence id the requirements list; without
 * it, the first requirement's quote.
 */
export function specBasis(requirementIds: readonly string[], on?: string): VerdictBasis | undefined {
  const requirements = requirementsOf(requirementIds);
  if (!requirements.length) return undefined;
  const own = requirements.find((r) => r.id === (on ?? requirements[0]!.id));
  if (own) return { kind: 'spec', requirement: own.id, clause: own.clause, quote: own.quote };
  const sentence = sentenceById(on!);
  // Any sentence of the spec may be quoted; a standard's only where a requirement names it for its field or exchange, or section 7 for every operation.
  const listing = sentence?.source === 'spec' || NAMED_FOR_EVERY_OPERATION.has(on!) ? requirements[0] : requirements.find((r) => r.sentences?.includes(on!));
  if (!listing || !sentence) {
    throw new Error(`suite bug: a finding rests on "${on}", which is no sentence of schemas/requirements.json that ${requirementIds.join(', ')} may rest on`);
  }
  if (sentence.source === 'spec') return { kind: 'spec', requirement: listing.id, clause: sentence.clause, quote: sentence.quote };
  return {
    kind: 'standard',
    requirement: listing.id,
    standard: sentence.source,
    clause: sentence.clause,
    quote: sentence.quote,
    ...(sentence.namedBy ? { namedBy: sentence.namedBy } : {}),
  };
}

/** The longest a declared value is quoted in a basis (a whole operation template says less than its start). */
const DECLARED_VALUE_LIMIT = 200;

function clipped(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  return text.length <= DECLARED_VALUE_LIMIT ? value : `${text.slice(0, DECLARED_VALUE_LIMIT)}…`;
}

/**
 * A profile declaration as basis: the key, its value, and the requirement's
 * own clause and quote (which say what the spec leaves open).
 */
export function declaredBasis(requirementIds: readonly string[], profileKey: string, declaredValue?: unknown): VerdictBasis | undefined {
  const requirement = requirementsOf(requirementIds)[0];
  if (!requirement) return undefined;
  const value = clipped(declaredValue);
  return {
    kind: 'profile-declared',
    requirement: requirement.id,
    clause: requirement.clause,
    quote: requirement.quote,
    profileKey,
    ...(value === undefined ? {} : { declaredValue: value }),
  };
}

/** The basis of a finding that names no sentence: the first requirement's quote, or with `declaredBy` that profile key. */
export function verdictBasis(requirementIds: readonly string[], declaredBy?: string, declaredValue?: unknown): VerdictBasis | undefined {
  return declaredBy ? declaredBasis(requirementIds, declaredBy, declaredValue) : specBasis(requirementIds);
}

/** Where the words come from, without them: `spec 4.1 rule 2`, `RFC 9530 section 2`, `profile-declared webhooks.retryDelaysMs = [100]`. */
export function basisSource(basis: VerdictBasis): string {
  if (basis.kind === 'standard') return `${basis.standard} section ${basis.clause}${basis.namedBy ? ` (the spec names ${basis.namedBy})` : ''}`;
  if (basis.kind === 'profile-declared') {
    const value = basis.declaredValue === undefined ? '' : ` = ${typeof basis.declaredValue === 'string' ? basis.declaredValue : JSON.stringify(basis.declaredValue)}`;
    return `profile-declared ${basis.profileKey}${value}; spec ${basis.clause}`;
  }
  return `spec ${basis.clause}`;
}

/** The basis as one line, for the terminal, JUnit and GitHub: `spec 4.1 rule 2: "…"`, `RFC 9530 section 2 (…): "…"`. */
export function describeBasis(basis: VerdictBasis): string {
  return `${basisSource(basis)}: "${basis.quote}"`;
}
