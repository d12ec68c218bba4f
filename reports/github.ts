// `--reporter github`: what a run says to GitHub Actions. Workflow commands
// on stdout become annotations on the run's page; the Markdown job summary
// (reports/github-summary.ts) is appended to the file GitHub names in
// GITHUB_STEP_SUMMARY.
//
//   check verdict  what it emits                       why
//   FAIL           ::error, titled with the check id,   the finding a certifier must see: the
//                  its requirement ids and the clause  contradicted clause (or the profile key)
//                  (or the profile key); message: the  names what to fix
//                  reason and the spec's own words
//   FLAKY          ::error "flaky", titled as a FAIL,    a failure that passed on retry is not a
//                  its message the failing attempt's   pass: the run is NOT CONFORMANT; the
//                  reason and every attempt            attempts show which run passed
//   ERROR          ::error "could not run"             the run is INCOMPLETE because of it
//   WARN           ::warning                           a deviation, not a failure
//   WAIVED         ::notice "waived"                   a known failure, accepted with a reason
//   PASS, REVIEW,  nothing                             counted in the summary; annotations for
//   SKIP, others                                       them would bury the failures (GitHub shows
//                                                      at most 10 errors and 10 warnings per step)
//
// Plus one ::error per problem outside any check (results.errors), one
// annotation per waiver that waived nothing (expired, stale, unmatched: an
// error when --strict-waivers makes it fail the run) and one ::notice with
// the run verdict and why. With a baseline diff, the title of
// a newly failing check starts with REGRESSION.
import { appendFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { CheckResult, VerdictBasis } from '../src/check/model.ts';
import { basisSource, describeBasis, verdictBasis } from '../src/check/basis.ts';
import { attemptLine } from '../src/results/attempts.ts';
import { explainRunVerdict, verdictInputOf } from '../src/results/verdict.ts';
import type { RunResults } from '../src/results/model.ts';
import type { BaselineDiff } from './baseline.ts';
import { githubSummary } from './github-summary.ts';

export { githubSummary } from './github-summary.ts';

type AnnotationLevel = 'error' | 'warning' | 'notice';

/**
 * Workflow-command data (the message after `::`): %, CR and LF are
 * percent-encoded, % first so an encoded sequence is never encoded twice.
 * The rule is the one GitHub's own toolkit applies (actions/toolkit,
 * packages/core/src/command.ts, escapeData).
 */
export function escapeCommandData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A workflow-command property value (`title=…`): as data, and also `:` and `,`, which end a value (escapeProperty there). */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

export function workflowCommand(level: AnnotationLevel, properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeCommandProperty(value)}`)
    .join(',');
  return `::${level}${props ? ` ${props}` : ''}::${escapeCommandData(message)}`;
}

/** The clause a FAIL contradicts: the check's own basis, or its first requirement's from the catalogue. */
function basisOf(check: CheckResult): VerdictBasis | undefined {
  return check.basis ?? verdictBasis(check.requirements);
}

function clauseOf(basis: VerdictBasis | undefined): string {
  return basis ? basisSource(basis) : 'no clause in the catalogue';
}

function requirementsOf(check: CheckResult): string {
  return check.requirements.length ? check.requirements.join(', ') : 'no requirement';
}

/** The target is named only when the run had several (the reference's self-test); one target is the run's. */
function messageOf(check: CheckResult, basis: VerdictBasis | undefined, manyTargets: boolean): string {
  const lines = [check.reason ?? check.title];
  if (basis) lines.push(describeBasis(basis));
  if (manyTargets) lines.push(`target: ${check.target}`);
  return lines.join('\n');
}

function checkAnnotation(check: CheckResult, regression: boolean, manyTargets: boolean): string | undefined {
  const prefix = regression ? 'REGRESSION ' : '';
  const verdict = check.verdict as string;
  if (verdict === 'FAIL') {
    const basis = basisOf(check);
    return workflowCommand('error', { title: `${prefix}FAIL ${check.id} — ${requirementsOf(check)} — ${clauseOf(basis)}` }, messageOf(check, basis, manyTargets));
  }
  if (verdict === 'FLAKY') {
    const basis = basisOf(check);
    const attempts = (check.attempts ?? []).map(attemptLine).join('\n');
    return workflowCommand(
      'error',
      { title: `${prefix}FLAKY ${check.id} (failed, then passed on retry: not a pass) — ${requirementsOf(check)} — ${clauseOf(basis)}` },
      messageOf(check, basis, manyTargets) + (attempts ? `\nattempts:\n${attempts}` : ''),
    );
  }
  if (verdict === 'ERROR') {
    return workflowCommand('error', { title: `${prefix}ERROR ${check.id} could not run — ${requirementsOf(check)}` }, messageOf(check, undefined, manyTargets));
  }
  if (verdict === 'WARN') {
    return workflowCommand('warning', { title: `WARN ${check.id} — ${requirementsOf(check)} — ${clauseOf(basisOf(check))}` }, messageOf(check, check.basis, manyTargets));
  }
  if (verdict === 'WAIVED') {
    const waiver = check.waived?.waiver;
    const by = waiver ? `\nwaived ${check.waived!.verdict}: ${waiver.reason} (owner ${waiver.owner}, until ${waiver.expires}, ${waiver.tracking})` : '';
    return workflowCommand('notice', { title: `WAIVED ${check.id} — ${requirementsOf(check)}` }, messageOf(check, undefined, manyTargets) + by);
  }
  return undefined;
}

/** A waiver that no longer does its job (expired, stale, unmatched): an error when --strict-waivers made it fail the run, else a warning. */
function waiverAnnotations(results: RunResults): string[] {
  const section = results.waivers;
  if (!section) return [];
  return section.outcomes
    .filter((o) => o.status !== 'applied')
    .map((o) => {
      const failsRun = section.strict && (o.status === 'stale' || o.status === 'unmatched');
      return workflowCommand(failsRun ? 'error' : 'warning', { title: `${o.status} waiver ${o.waiver.pointer} (${o.waiver.selector.kind} ${o.waiver.selector.id})` }, `${o.note}\nfile: ${section.file}`);
    });
}

/** Every annotation of a run, one line each (no trailing newline). */
export function githubAnnotations(results: RunResults, diff?: BaselineDiff): string[] {
  const regressions = new Set((diff?.newlyFailing ?? []).map((c) => `${c.target}\u0000${c.id}`));
  const manyTargets = new Set(results.checks.map((c) => c.target)).size > 1;
  const lines: string[] = [];
  for (const check of results.checks) {
    const line = checkAnnotation(check, regressions.has(`${check.target}\u0000${check.id}`), manyTargets);
    if (line) lines.push(line);
  }
  for (const error of results.errors) lines.push(workflowCommand('error', { title: 'ptas: problem outside any check' }, error));
  lines.push(...waiverAnnotations(results));
  const why = explainRunVerdict(verdictInputOf(results));
  const compared = diff ? `; ${diff.regressions} regression${diff.regressions === 1 ? '' : 's'} since the baseline` : '';
  lines.push(workflowCommand('notice', { title: `ptas: ${results.verdict}` }, `${why}${compared} (${results.run.target})`));
  return lines;
}

export interface GithubReportOptions {
  /** Where the workflow commands go: the step's log (process.stdout). */
  stdout: Writable;
  /** The job summary file: process.env.GITHUB_STEP_SUMMARY; absent outside Actions, then no summary is written. */
  summaryFile?: string;
  /** A comparison with the previous night (`ptas report --baseline`). */
  diff?: BaselineDiff;
}

/**
 * Prints the annotations and appends the job summary. Appends, never
 * overwrites: GitHub gives each step one summary file, and other tools of the
 * same step may have written to it. A summary file that cannot be written
 * becomes a ::warning, never an exception. Resolves once stdout took the text.
 */
export async function emitGithubReport(results: RunResults, options: GithubReportOptions): Promise<void> {
  const lines = githubAnnotations(results, options.diff);
  if (options.summaryFile) {
    try {
      appendFileSync(options.summaryFile, githubSummary(results, options.diff));
    } catch (error) {
      // The annotations and the exit code still say everything; a summary that cannot be written must not change the verdict.
      lines.push(workflowCommand('warning', { title: 'ptas: no job summary' }, `cannot append to ${options.summaryFile} (GITHUB_STEP_SUMMARY): ${(error as Error).message}`));
    }
  }
  const text = lines.join('\n') + '\n';
  await new Promise<void>((resolve, reject) => options.stdout.write(text, (error) => (error ? reject(error) : resolve())));
}
