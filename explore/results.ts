// What an area's exploration tells the run: one check result per rule of the
// area, judged from a record like every other check's (so reports, bundles,
// waivers, `ptas rejudge` and `ptas verify` take them as they are):
//   - a rule a shrunk case contradicted, twice more: that case's record — its
//     exchanges, the judgments made of them, a note naming the case, its
//     seed and its replay file;
//   - a rule cases reached and never contradicted: PASS, with how many; or
//     REVIEW, with the first cases of each kind that the spec leaves to a
//     human (their exchanges kept as evidence);
//   - a rule cases reached but never saw answered: ERROR, with why;
//   - a rule no case reached: SKIP, saying so (the traceability view shows
//     it as a rule no generated case exercised).
import { CheckContext, CheckFailure, CheckSkip } from '../src/check/context.ts';
import type { CheckMeta, CheckResult } from '../src/check/model.ts';
import { outcomeOfRecord } from '../src/check/record.ts';
import type { Redactor } from '../src/http/redact.ts';
import type { AreaExploration } from './engine.ts';

/** The run's one target (app/run/run.ts names it so). */
const TARGET = 'target';

function resultOf(meta: CheckMeta, check: CheckContext, durationMs: number): CheckResult {
  const outcome = outcomeOfRecord(meta, { claims: check.entries, ...(check.skipped ? { skipped: check.skipped } : {}) }, check);
  return { ...meta, ...outcome, target: TARGET, durationMs };
}

/** A rule's result said by `say` into a fresh context (its FAIL, ERROR or SKIP ends it, as in a check). */
function said(meta: CheckMeta, redactor: Redactor, durationMs: number, say: (check: CheckContext) => void): CheckResult {
  const check = new CheckContext(redactor, { requirements: meta.requirements });
  try {
    say(check);
  } catch (error) {
    if (!(error instanceof CheckFailure || error instanceof CheckSkip)) throw error;
  }
  return resultOf(meta, check, durationMs);
}

export function explorationResults(exploration: AreaExploration, redactor: Redactor, durationMs: number): CheckResult[] {
  const { area, seed, cases, unexplorable } = exploration;
  return exploration.rules.map((meta) => {
    const finding = exploration.findings.find((f) => f.rule.id === meta.id);
    if (finding) return { ...meta, ...finding.run.outcome(meta), target: TARGET, durationMs };
    const tally = exploration.tallies.get(meta.id);
    const unreproduced = exploration.unreproduced.filter((u) => u.rule.id === meta.id);
    return said(meta, redactor, durationMs, (check) => {
      if (unexplorable) check.skip(`${area} was not explored: ${unexplorable.unexplorable}`, unexplorable.configKey);
      for (const u of unreproduced) {
        check.note(`a generated case contradicted this rule once but not when it was run twice more (a transient answer or timing decides no rule): ${u.description}`);
      }
      if (!tally || (!tally.judged && !tally.inconclusive)) {
        check.skip(`no generated case reached this rule: ${cases} case(s) of ${area} were run (seed ${seed})${exploration.stopped ? `; ${exploration.stopped}` : ''}`);
      }
      if (!tally!.judged) {
        check.notObserved(`the ${tally!.inconclusive} generated case(s) that reached this rule saw nothing to judge by: ${tally!.lastInconclusive ?? 'no answer'}`);
      }
      for (const recorded of tally!.recorded) {
        for (const exchange of recorded.evidence) check.record(exchange);
        for (const finding of recorded.findings) check.review(`${recorded.description}: ${finding.message}`, finding.details);
      }
      check.note(
        `${tally!.judged} generated case(s) exercised this rule and none contradicted it (${cases} case(s) of ${area}, seed ${seed}${tally!.inconclusive ? `; ${tally!.inconclusive} more reached it but saw nothing to judge by` : ''})`,
        { seed, cases, judged: tally!.judged, inconclusive: tally!.inconclusive },
      );
    });
  });
}
