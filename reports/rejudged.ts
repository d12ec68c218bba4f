// What `ptas rejudge` prints for each stored run judged again: the suite
// versions, the run's verdict and certifiability before and after, and every
// check whose verdict or basis changed, with the sentence each judgment rested
// on; then the checks that could not be judged again, and why.
import { describeBasis } from '../src/check/basis.ts';
import type { CheckResult } from '../src/check/model.ts';
import type { RunResults } from '../src/results/model.ts';
import { describeNotJudged, type RejudgedRun, type VerdictChange } from '../src/results/rejudge.ts';

export interface RejudgedForReport extends RejudgedRun {
  source: string;
  before: RunResults;
  changes: VerdictChange[];
  written?: { dir: string; manifestPath?: string };
}

const certifies = (results: RunResults) => (results.certification ? (results.certification.certifiable ? 'yes' : 'no') : 'not recorded');

function side(label: string, judged: Pick<CheckResult, 'verdict' | 'reason' | 'basis'> | undefined): string {
  if (!judged) return `      ${label} no verdict (the check is not in that suite)\n`;
  const on = judged.basis ? `; on ${describeBasis(judged.basis)}` : '';
  return `      ${label} ${judged.verdict}${judged.reason ? `: ${judged.reason}` : ''}${on}\n`;
}

function changeLines(change: VerdictChange): string {
  const arrow = `${change.before?.verdict ?? '(new)'} → ${change.after?.verdict ?? '(gone)'}`;
  const basisOnly = change.before && change.after && change.before.verdict === change.after.verdict ? ' (its basis changed)' : '';
  return `    ${arrow.padEnd(16)} ${change.id} [${change.target}]${basisOnly}\n` + side('before:', change.before) + side('after: ', change.after);
}

/** The account of one stored run judged again. */
export function rejudgedText(run: RejudgedForReport): string {
  const was = run.before.run.suiteVersion;
  const now = run.results.run.suiteVersion;
  const changed = run.changes.length;
  let text = `ptas rejudge: ${run.source} (judged by suite ${was}, now by ${now}; nothing sent to the implementation)\n`;
  text += `  ${run.results.checks.length} checks, ${changed} changed: ${run.before.verdict} → ${run.results.verdict}; certifiable ${certifies(run.before)} → ${certifies(run.results)}\n`;
  if (changed) text += run.changes.map(changeLines).join('');
  const notJudged = new Map<string, string[]>();
  for (const n of run.notJudged) notJudged.set(n.why, [...(notJudged.get(n.why) ?? []), n.id]);
  for (const [why, ids] of notJudged) {
    const named = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');
    text += `  not judged again, ${ids.length}: ${describeNotJudged(why as Parameters<typeof describeNotJudged>[0])} (${named})\n`;
  }
  if (run.newChecks.length) {
    const named = run.newChecks.slice(0, 5).map((c) => `${c.id} (since ${c.since})`).join(', ') + (run.newChecks.length > 5 ? ` and ${run.newChecks.length - 5} more` : '');
    text += `  new in this suite, never observed in this run (run them live): ${run.newChecks.length}: ${named}\n`;
  }
  if (run.results.certification && !run.results.certification.certifiable) {
    text += run.results.certification.gaps.slice(0, 3).map((g) => `  would not verify: ${g.problem}\n`).join('');
  }
  if (run.written) text += `  written: ${run.written.dir}${run.written.manifestPath ? ` (a new bundle: ${run.written.manifestPath}, unsigned unless --sign-key)` : ' (a report: the source was a results.json, not a bundle)'}\n`;
  return text;
}

/** The same, as JSON for CI. */
export function rejudgedJson(run: RejudgedForReport): unknown {
  return {
    source: run.source,
    before: { suiteVersion: run.before.run.suiteVersion, verdict: run.before.verdict, certifiable: run.before.certification?.certifiable ?? null },
    after: { suiteVersion: run.results.run.suiteVersion, verdict: run.results.verdict, certifiable: run.results.certification?.certifiable ?? null },
    changes: run.changes,
    notJudged: run.notJudged,
    newChecks: run.newChecks,
    ...(run.written ? { written: run.written } : {}),
  };
}
