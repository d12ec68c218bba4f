// The one outcome function: every check's verdict — conformance checks, the
// cross-cutting checks and the load probes alike — is decided here from what
// the check claims, so the basis rules live in one place (README "Verdicts"):
//
//  1. a transient answer (429; 502, 503, 504: src/spec/answer-class.ts) or no
//     answer at all is never the basis of a FAIL or WARN: the claim becomes
//     ERROR "not observed" (the HTTP client has already retried, honouring
//     Retry-After, within its budget, where the method allows);
//  2. a wait that ran out is a profile-declared FAIL when the profile declared
//     it, else ERROR "not observed" after the generous default;
//  3. a FAIL rests on a sentence (spec, a standard the spec names, or the
//     profile's declaration); a claim without one is at most WARN;
//  4. an answer to input the suite invented outside the operation's domain,
//     with a code outside the operation's section 7 list, is at most WARN
//     (HTML or not: an intermediary may answer it before the service does);
//  5. in a race, a loser's answer is at most WARN: a race is judged by what
//     it did (executions, trade ids, token successors);
//  6. a spec or standard FAIL of a SHOULD or REVIEW check is a WARN (its
//     severity); a profile-declared FAIL stays FAIL whatever the severity.
//
// The check's verdict is then its worst finding (FAIL above ERROR: a
// contradiction shown with its sentence stands even if something else could
// not be observed), or SKIP when a precondition was missing.
import { OPERATION_NAMES, SECTION_7_CODES } from '../spec/status-codes.ts';
import { TRANSIENT_STATUSES } from '../spec/answer-class.ts';
import type { BasisRef, CheckOutcome, Finding, Observation, Severity, VerdictBasis } from './model.ts';

export type { Observation } from './model.ts';

/** What a check says before the rules decide it. */
export interface Claim {
  level: Finding['level'];
  message: string;
  details?: Record<string, unknown>;
  basis?: VerdictBasis;
  /** The basis by reference, as the check's record keeps it (src/check/record.ts): the judgment resolves it again. */
  rests?: BasisRef;
  observed?: Observation;
}

const withoutBasis = (finding: Finding): Finding => {
  const { basis: _basis, ...rest } = finding;
  return rest;
};

function notObserved(claim: Claim, why: string): Finding {
  return withoutBasis({ ...claim, level: 'ERROR', message: `not observed: ${claim.message} — ${why}` });
}

function atMostWarn(claim: Claim, why: string): Finding {
  return claim.level === 'FAIL' ? { ...claim, level: 'WARN', message: `${claim.message} (${why})` } : claim;
}

/** Rules 1, 2, 4 and 5: what the observation allows the claim to be. */
function judgeObservation(claim: Claim, observed: Observation): Finding | undefined {
  switch (observed.kind) {
    case 'answer': {
      if (TRANSIENT_STATUSES.has(observed.status)) {
        return notObserved(claim, `the answer was ${observed.status}, a transient answer that decides no rule`);
      }
      const listed = observed.operation ? (SECTION_7_CODES[observed.operation] as readonly number[]) : undefined;
      if (observed.input === 'invented' && listed && !listed.includes(observed.status)) {
        return atMostWarn(claim, `an answer with a code outside the list section 7 gives for ${OPERATION_NAMES[observed.operation!]}, to input the suite made up outside the operation's domain, which an intermediary may have given`);
      }
      return undefined;
    }
    case 'no-answer':
      return notObserved(claim, `no answer came (${observed.failure})`);
    case 'late':
      if (observed.declaredBy) return { ...claim, level: 'FAIL' };
      return notObserved(claim, `nothing within the default wait of ${observed.waitedMs} ms; declare the wait in the profile to make lateness a finding`);
    case 'race-loser':
      return atMostWarn(claim, `the answer of a request that lost a race: the race is judged by what it did`);
    case 'effect':
      return undefined;
  }
}

/** The rules applied to one claim. INFO, REVIEW and ERROR claims stand as they are. */
export function decideFinding(claim: Claim, severity: Severity): Finding {
  const { observed, rests: _rests, ...said } = claim;
  if (said.level !== 'FAIL' && said.level !== 'WARN') return said;
  const judged = observed ? judgeObservation(said, observed) : undefined;
  if (judged && judged.level !== 'FAIL') return judged;
  const finding = judged ?? said;
  if (finding.level !== 'FAIL') return finding;
  if (!finding.basis) return atMostWarn(finding, 'no sentence of the spec, of a standard it names or of the profile to rest a FAIL on');
  if (finding.basis.kind !== 'profile-declared' && severity !== 'MUST') return { ...finding, level: 'WARN' };
  return finding;
}

/** Findings ranked for the check's verdict: a FAIL shown with its sentence outranks an ERROR beside it. */
const RANK: Record<Finding['level'], number> = { INFO: 0, REVIEW: 1, WARN: 2, ERROR: 3, FAIL: 4 };

export interface OutcomeInput {
  severity: Severity;
  claims: readonly Claim[];
  /** A precondition was missing: the check did not run to a verdict. */
  skipped?: { reason: string; configKey?: string };
  /** The check could not run to its end: why (a thrown error, its time limit). */
  stoppedBy?: string;
  /**
   * The run was stopped (Ctrl-C, a cancelled run) while the check was still
   * observing: why. Its findings so far are kept, but none decides: a wait cut
   * short looks like an answer that never came, which is the run's doing, not
   * the implementation's.
   */
  interrupted?: string;
}

export type DecidedOutcome = Pick<CheckOutcome, 'verdict' | 'reason' | 'basis' | 'details' | 'findings' | 'configKey'>;

/** The verdict of a check from its claims. */
export function decideOutcome(input: OutcomeInput): DecidedOutcome {
  const findings = input.claims.map((claim) => decideFinding(claim, input.severity));
  if (input.stoppedBy !== undefined) findings.push({ level: 'ERROR', message: input.stoppedBy });
  if (input.interrupted !== undefined) return { verdict: 'ERROR', reason: input.interrupted, findings: [...findings, { level: 'ERROR', message: input.interrupted }] };
  const worst = findings.reduce<Finding | undefined>((w, f) => (f.level !== 'INFO' && (!w || RANK[f.level] > RANK[w.level]) ? f : w), undefined);
  if (input.skipped && (!worst || RANK[worst.level] < RANK.ERROR)) {
    const { reason, configKey } = input.skipped;
    return { verdict: 'SKIP', reason, findings, ...(configKey ? { configKey } : {}) };
  }
  if (!worst) return { verdict: 'PASS', findings };
  return { verdict: worst.level as Exclude<Finding['level'], 'INFO'>, reason: worst.message, findings, ...(worst.basis ? { basis: worst.basis } : {}), ...(worst.details ? { details: worst.details } : {}) };
}
