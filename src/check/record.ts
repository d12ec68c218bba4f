// Observe, then judge. What a check observed and said is kept as its record
// (results.json, each check's `record`): its claims, each naming the sentence
// it rests on by reference — a catalogue id, or a profile key with the value
// the profile declared — never by the words; the rules it applied to answers,
// with what each read (src/check/rules.ts); the named judgments of its suite
// it applied to what it observed, with their input (src/check/judgments.ts);
// whether a precondition was
// missing; why it stopped early. Its verdict is the judgment of that record:
// a pure function of the record, the check's metadata (severity and
// requirements, from the catalogue) and the catalogue's sentences, which
// sends no request and reads no clock. The live run and `ptas rejudge`
// (app/rejudge/) call the same judgeRecord, so a stored run judged
// again by the same suite gives the same verdicts, and by another suite the
// verdicts that suite's rules give.
import { declaredBasis, specBasis } from './basis.ts';
import type { BasisRef, CheckMeta, CheckOutcome, CheckRecord, RecordEntry, RecordedClaim, RecordedJudgment, RecordedRule, VerdictBasis } from './model.ts';
import { judgeRule, type RuleJudgment } from './rules.ts';
import { judgmentNamed } from './judgments.ts';
import { decideOutcome, type Claim, type DecidedOutcome } from './outcome.ts';

export type { BasisRef, CheckRecord, RecordEntry, RecordedClaim, RecordedJudgment, RecordedRule } from './model.ts';

/** The basis a reference names, in the words of the installed catalogue. */
export function resolveBasis(requirements: readonly string[], ref: BasisRef): VerdictBasis | undefined {
  return ref.kind === 'sentence' ? specBasis(requirements, ref.on) : declaredBasis(requirements, ref.profileKey, ref.declaredValue);
}

/** A claim for the outcome function: its reference resolved; a reference the catalogue no longer holds is the suite's error, not the implementation's. */
function resolvedClaim(requirements: readonly string[], recorded: RecordedClaim): Claim {
  const { rests, ...claim } = recorded;
  if (!rests) return claim;
  try {
    const basis = resolveBasis(requirements, rests);
    return basis ? { ...claim, basis } : claim;
  } catch (error) {
    return { level: 'ERROR', message: `not judged: ${claim.message} — ${(error as Error).message}` };
  }
}

/**
 * The record of what a load probe or a cross-cutting check said, from the
 * claims it built: each claim's basis by its reference only (the judgment
 * looks the words up). A claim with words and no reference is a bug in the
 * suite: it could not be judged again. (A conformance check's context keeps
 * its record as it goes: CheckContext.entries.)
 */
export function recordOf(input: Omit<CheckRecord, 'claims'> & { claims: readonly Claim[] }): CheckRecord {
  const claims = input.claims.map(({ basis, ...claim }) => {
    if (basis && !claim.rests) throw new Error(`suite bug: the claim "${claim.message}" has a basis without its reference (rests)`);
    return claim;
  });
  return { ...input, claims };
}

/**
 * The claims of a record: its own, and those each rule it applied makes of
 * its answer by the rules of this suite. Where this suite's rule ends the
 * check, what the check observed after it is not judged (this suite would
 * not have gone on); where the rule ended the check when it was observed and
 * this suite's would go on, what would have followed was never observed: the
 * record cannot be judged to the end, which is ERROR, not a verdict on the
 * implementation.
 */
function claimsOf(requirements: readonly string[], entries: readonly RecordEntry[]): Claim[] {
  const claims: Claim[] = [];
  for (const [i, entry] of entries.entries()) {
    if (!('rule' in entry) && !('judgment' in entry)) {
      claims.push(resolvedClaim(requirements, entry));
      continue;
    }
    const judged = judgeEntry(entry);
    claims.push(...judged.claims.map((claim) => resolvedClaim(requirements, claim)));
    if (judged.ends && i < entries.length - 1) break;
    if (!judged.ends && entry.ended) {
      const where = 'rule' in entry ? `at "${entry.rule.what}" (answered ${entry.rule.status})` : `by the judgment ${entry.judgment}`;
      claims.push({ level: 'ERROR', message: `not judged to the end: this check was ended ${where} by the rules of the suite that observed it, and this suite's would go on to what was never observed: run the check again` });
      break;
    }
  }
  return claims;
}

/** A rule or a named judgment applied again by this suite; a judgment this suite no longer has cannot judge (ERROR, the suite's doing). */
function judgeEntry(entry: RecordedRule | RecordedJudgment): RuleJudgment {
  if ('rule' in entry) return judgeRule(entry.rule);
  const named = judgmentNamed(entry.judgment);
  if (named) return named.judge(entry.input);
  return { claims: [{ level: 'ERROR', message: `not judged: this suite has no judgment ${entry.judgment}, which the check applied when it was observed` }], ends: true };
}

/** The verdict of a check from its record: the one judgment, live and offline. */
export function judgeRecord(meta: Pick<CheckMeta, 'severity' | 'requirements'>, record: CheckRecord): DecidedOutcome {
  const decided = decideOutcome({
    severity: meta.severity,
    claims: claimsOf(meta.requirements, record.claims),
    ...(record.skipped ? { skipped: record.skipped } : {}),
    ...(record.stoppedBy !== undefined ? { stoppedBy: record.stoppedBy } : {}),
    ...(record.interrupted !== undefined ? { interrupted: record.interrupted } : {}),
  });
  if (record.measured === undefined && record.details === undefined) return decided;
  // A probe's PASS says what it measured, and a WARN beside it too, as a conformance check's reason does.
  const { measured } = record;
  const reason = decided.verdict === 'PASS' ? measured : decided.verdict === 'WARN' && measured ? `${decided.reason} (${measured})` : decided.reason;
  const { reason: _reason, details: _details, ...rest } = decided;
  const details = record.details ?? decided.details;
  return { ...rest, ...(reason !== undefined ? { reason } : {}), ...(details ? { details } : {}) };
}

/** The outcome of a record, with the evidence and timeline the check kept beside it. */
export function outcomeOfRecord(meta: Pick<CheckMeta, 'severity' | 'requirements'>, record: CheckRecord, kept: Pick<CheckOutcome, 'evidence' | 'timeline'>): CheckOutcome {
  return { ...judgeRecord(meta, record), evidence: kept.evidence, timeline: kept.timeline, record };
}
