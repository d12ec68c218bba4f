// What `ptas rejudge` prints for each stored run judged again
// (src/results/rejudge-preview.ts, as the console's Re-judge page shows it):
// the suite versions, the run's verdict and certifiability before and after,
// every check whose verdict or basis changed with the sentence each judgment
// rested on (a check new in this suite version marked so), the checks never
// observed because they are new, and those not judged again, and why.
import type { ChangedCheck, JudgedSide, RejudgePreview } from '../src/results/rejudge-preview.ts';

export interface RejudgedForReport {
  source: string;
  preview: RejudgePreview;
  /** The suite judging now. */
  suiteVersion: string;
  written?: { dir: string; manifestPath?: string };
}

const certifies = (value: boolean | null) => (value === null ? 'not recorded' : value ? 'yes' : 'no');

function side(label: string, judged: JudgedSide | undefined): string {
  if (!judged) return `      ${label} no verdict (the check is not in that suite)\n`;
  return `      ${label} ${judged.verdict}${judged.reason ? `: ${judged.reason}` : ''}${judged.basis ? `; on ${judged.basis}` : ''}\n`;
}

function changeLines(change: ChangedCheck): string {
  const arrow = `${change.before?.verdict ?? '(none)'} → ${change.after?.verdict ?? '(gone)'}`;
  const notes = [change.new && `new in ${change.since}`, change.before && change.after && change.before.verdict === change.after.verdict && 'its basis changed'].filter(Boolean);
  return `    ${arrow.padEnd(16)} ${change.id} [${change.target}]${notes.length ? ` (${notes.join('; ')})` : ''}\n` + side('before:', change.before) + side('after: ', change.after);
}

const named = (ids: readonly string[]) => ids.slice(0, 5).join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');

/** The account of one stored run judged again. */
export function rejudgedText(run: RejudgedForReport): string {
  const { preview } = run;
  let text = `ptas rejudge: ${run.source} (judged by suite ${preview.judgedBy}, now by ${run.suiteVersion}; nothing sent to the implementation)\n`;
  text += `  ${preview.checks.length} changed: ${preview.verdict.before} → ${preview.verdict.after}; certifiable ${certifies(preview.certifiable.before)} → ${certifies(preview.certifiable.after)}\n`;
  text += preview.checks.map(changeLines).join('');
  if (preview.newChecks.length) {
    text += `  new in this suite, never observed in this run (run them live): ${preview.newChecks.length}: ${named(preview.newChecks.map((c) => `${c.id} (since ${c.since})`))}\n`;
  }
  for (const group of preview.notJudged) text += `  not judged again, ${group.checks.length}: ${group.description} (${named(group.checks)})\n`;
  text += preview.gaps.slice(0, 3).map((g) => `  would not verify: ${g.problem}\n`).join('');
  if (preview.gaps.length > 3) text += `  would not verify: and ${preview.gaps.length - 3} more gaps\n`;
  if (run.written) text += `  written: ${run.written.dir}${run.written.manifestPath ? ` (a new bundle: ${run.written.manifestPath}, unsigned unless --sign-key)` : ' (a report: the source was a results.json, not a bundle)'}\n`;
  return text;
}

/** The same as JSON for CI: the console's Re-judge shape, with where it came from and where it went. */
export function rejudgedJson(run: RejudgedForReport): unknown {
  return { source: run.source, suiteVersion: run.suiteVersion, ...run.preview, ...(run.written ? { written: run.written } : {}) };
}
