// Unstable checks: a check that gave one implementation two verdicts under
// one suite version and one profile. A check must give one verdict on one
// implementation. When it does not, either the implementation answered the
// same checks differently (its timing, its state), or — on the bundled
// reference, which answers the same way every time — the suite is at fault (a
// race in a check, a wait too short for a loaded machine). `ptas serve`
// (app/serve/unstable-checks.ts) and `ptas report --history`
// (reports/history.ts) find them here, from a light summary of each run
// (observedRun), so neither keeps whole results beside the ones it has.
import { describeBasis } from '../check/basis.ts';
import type { CheckResult, Finding, RecordedJudgment, RuleObservation } from '../check/model.ts';
import { judgmentNamed } from '../check/judgments.ts';
import type { RunMetadata, RunResults } from './model.ts';

/** What one run said about one check: enough to set two runs side by side. */
export interface Observation {
  /** The run: a `ptas serve` run id, or the results file of a night of a history. */
  run: string;
  startedAt: string;
  /** The verdict the check gave, before any waiver. */
  verdict: string;
  reason?: string;
  /** The sentence the verdict rests on, as one line (describeBasis). */
  basis?: string;
  /** What the check said and read: its record's claims, and each answer a rule of its judged. */
  claims: Array<{ level: string; message: string }>;
  /** Its first exchanges, one line each. */
  evidence: string[];
}

/** One check of an observed run. */
export interface ObservedCheck extends Omit<Observation, 'run' | 'startedAt'> {
  id: string;
  target: string;
  title: string;
}

/** A run as far as instability needs it (observedRun makes one from results.json). */
export interface ObservedRun {
  id: string;
  startedAt: string;
  /** Absent in a night written by an older ptas: such a run is compared with none. */
  suiteVersion?: string;
  profileHash?: string;
  reference?: RunMetadata['reference'];
  checks: ObservedCheck[];
}

/** Whose the instability is: the bundled reference's is the suite's own defect. */
export type Attribution = 'suite' | 'implementation';

export const ATTRIBUTIONS: Record<Attribution, string> = {
  suite: 'the bundled reference: a defect of the suite (a check must give one verdict on one implementation)',
  implementation: "the implementation's: it answered differently to the same checks",
};

export interface UnstableCheck {
  id: string;
  target: string;
  title: string;
  attribution: Attribution;
  /** The attribution in words (ATTRIBUTIONS). */
  attributed: string;
  /** What the compared runs share: the suite version, and the profile hash or the reference's faults, variants and conditions. */
  sameRuns: string;
  /** How often each verdict was given over those runs, the most frequent first. */
  verdicts: Array<{ verdict: string; count: number }>;
  /** Side by side: the latest run's observation, and before it that of the latest run that gave another verdict. */
  observations: { earlier: Observation; later: Observation };
}

/** How many of a check's exchanges an observation keeps: the start of what it did, not its whole evidence. */
const EVIDENCE_LINES = 3;

function exchangeLine(exchange: CheckResult['evidence'][number]): string {
  const answer = exchange.response ? String(exchange.response.status) : exchange.error ? exchange.error.code : 'no answer';
  const what = `${exchange.incoming ? 'received ' : ''}${exchange.request.method} ${exchange.request.url} → ${answer}`;
  return exchange.label ? `${exchange.label}: ${what}` : what;
}

/** A rule the check applied, as the answer it read (its claims are the judgment's, made again from it). */
function ruleLine(rule: RuleObservation): { level: Finding['level']; message: string } {
  return { level: 'INFO', message: `${rule.what} was answered ${rule.status}${rule.bodyHint} (the ${rule.rule} rule)` };
}

/** A named judgment shown by what it says of its input (src/check/judgments.ts), or by its name where this suite no longer has it. */
function judgmentLines(entry: RecordedJudgment): Array<{ level: Finding['level']; message: string }> {
  const said = judgmentNamed(entry.judgment)?.judge(entry.input).claims;
  return said?.length ? said.map(({ level, message }) => ({ level, message })) : [{ level: 'INFO', message: `judged by ${entry.judgment}` }];
}

function observedCheck(check: CheckResult): ObservedCheck {
  // A night written before checks kept their record has its findings, the claims as decided; older still, neither.
  const claims = check.record?.claims ?? check.findings ?? [];
  return {
    id: check.id,
    target: check.target,
    title: check.title,
    verdict: check.waived?.verdict ?? check.verdict,
    ...(check.reason !== undefined ? { reason: check.reason } : {}),
    ...(check.basis ? { basis: describeBasis(check.basis) } : {}),
    claims: claims.flatMap((entry) => ('rule' in entry ? [ruleLine(entry.rule)] : 'judgment' in entry ? judgmentLines(entry) : [{ level: entry.level, message: entry.message }])),
    evidence: (check.evidence ?? []).slice(0, EVIDENCE_LINES).map(exchangeLine),
  };
}

/**
 * The light summary of a run's results. A check the run's interruption cut
 * short is left out: its verdict is the run's doing, not the implementation's
 * (src/check/outcome.ts).
 */
export function observedRun(id: string, results: RunResults): ObservedRun {
  const { suiteVersion, profileHash, reference, startedAt } = results.run;
  return {
    id,
    startedAt,
    ...(suiteVersion ? { suiteVersion } : {}),
    ...(profileHash ? { profileHash } : {}),
    ...(reference ? { reference } : {}),
    checks: results.checks.filter((check) => check.record?.interrupted === undefined).map(observedCheck),
  };
}

const listed = (names: readonly string[] | undefined): string => (names?.length ? [...names].sort().join(', ') : 'none');

/**
 * Which runs a run is compared with, in words, or undefined for none. The
 * bundled reference's profile is made for each run at the address it was
 * started on, so its hash changes from run to run: two runs of it are the
 * same implementation when they name the same faults, variants and
 * conditions (as `ptas merge` holds the parts of one run, app/merge/shards.ts).
 */
function sameRunsOf(run: ObservedRun): string | undefined {
  if (!run.suiteVersion) return undefined;
  if (run.reference) {
    const { faults, variants, conditions } = run.reference;
    return `ptas ${run.suiteVersion}, the bundled reference (faults: ${listed(faults)}; variants: ${listed(variants)}; conditions: ${listed(conditions)})`;
  }
  return run.profileHash ? `ptas ${run.suiteVersion}, profile ${run.profileHash}` : undefined;
}

interface Seen {
  check: ObservedCheck;
  sameRuns: string;
  reference: boolean;
  observations: Observation[];
}

function tally(observations: readonly Observation[]): UnstableCheck['verdicts'] {
  const counts = new Map<string, number>();
  for (const { verdict } of observations) counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
  return [...counts].map(([verdict, count]) => ({ verdict, count })).sort((a, b) => b.count - a.count || a.verdict.localeCompare(b.verdict));
}

const byStart = (a: Observation, b: Observation): number => a.startedAt.localeCompare(b.startedAt) || a.run.localeCompare(b.run);

/** The checks whose verdict differs between runs with the same suite version and profile, the latest change first. */
export function unstableChecks(runs: readonly ObservedRun[]): UnstableCheck[] {
  const seen = new Map<string, Seen>();
  for (const run of runs) {
    const sameRuns = sameRunsOf(run);
    if (!sameRuns) continue;
    for (const check of run.checks) {
      const key = `${sameRuns}\u0000${check.target}\u0000${check.id}`;
      const { id: _id, target: _target, title: _title, ...said } = check;
      const observation: Observation = { run: run.id, startedAt: run.startedAt, ...said };
      const entry = seen.get(key);
      if (entry) entry.observations.push(observation);
      else seen.set(key, { check, sameRuns, reference: run.reference !== undefined, observations: [observation] });
    }
  }
  const unstable: UnstableCheck[] = [];
  for (const { check, sameRuns, reference, observations } of seen.values()) {
    const ordered = [...observations].sort(byStart);
    const later = ordered[ordered.length - 1]!;
    const earlier = ordered.findLast((o) => o.verdict !== later.verdict);
    if (!earlier) continue;
    const attribution: Attribution = reference ? 'suite' : 'implementation';
    unstable.push({
      id: check.id,
      target: check.target,
      title: check.title,
      attribution,
      attributed: ATTRIBUTIONS[attribution],
      sameRuns,
      verdicts: tally(ordered),
      observations: { earlier, later },
    });
  }
  return unstable.sort((a, b) => byStart(b.observations.later, a.observations.later) || a.id.localeCompare(b.id) || a.target.localeCompare(b.target));
}
