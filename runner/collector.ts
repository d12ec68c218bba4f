// The collector: Playwright's reporter in the runner process. It turns each
// finished test into a check result (the check's registered metadata, which
// the test carries across Playwright's processes as an annotation, with the
// outcome its after-each hook annotated: runner/annotations.ts), prints one
// progress line per check, and sends each check, whole, and each problem
// outside any check to the orchestrator as run events on the run's event
// channel (runner/check-events.ts); at the end it writes how the run ended to
// the run's results file (runner/settings.ts), with whatever the channel
// could not carry (Playwright started by other means). It judges nothing: verdicts are
// the outcome function's (src/check/outcome.ts), and the cross-cutting checks
// over all exchanges are folded in by the orchestrator (src/crosscut/).
import { writeFileSync } from 'node:fs';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import type { CheckMeta, CheckOutcome, CheckResult } from '../src/check/model.ts';
import type { CheckVerdict } from '../src/check/verdict-names.ts';
import { Redactor } from '../src/http/redact.ts';
import { writeChannelEvent, type ChannelEvent } from './check-events.ts';
import { META_ANNOTATION, OUTCOME_ANNOTATION, TARGET_ANNOTATION } from './annotations.ts';
import { counterLabel, progressLine } from './progress.ts';
import { readRunSettings } from './settings.ts';

export interface CheckRunOutput {
  checks: CheckResult[];
  /** Problems outside any check (a suite file that failed to load, a worker crash). */
  errors: string[];
  status: FullResult['status'];
  startedAt: string;
  durationMs: number;
}

/** What the collector hands over at the end: how the run ended, and the checks and problems the event channel did not carry. */
export interface CheckRunEnd extends Omit<CheckRunOutput, 'checks' | 'errors'> {
  unsent: ChannelEvent[];
}

// The collector never sees a token in the clear (checks redact before
// attaching); this catches JWT-shaped strings in Playwright's own error text.
const redactor = new Redactor();

function fallbackOutcome(result: TestResult): CheckOutcome {
  const verdict: CheckVerdict = result.status === 'skipped' ? 'SKIP' : result.status === 'passed' ? 'PASS' : 'ERROR';
  const reason = result.status === 'passed' ? undefined : redactor.redactString(result.error?.message?.split('\n')[0] ?? `test ${result.status}`);
  return { verdict, reason, findings: [], evidence: [], timeline: [] };
}

function targetOf(test: TestCase): string {
  return test.annotations.find((a) => a.type === TARGET_ANNOTATION)?.description ?? 'default';
}

function outcomeOf(result: TestResult): CheckOutcome {
  const outcome = result.annotations.find((a) => a.type === OUTCOME_ANNOTATION)?.description;
  return outcome ? (JSON.parse(outcome) as CheckOutcome) : fallbackOutcome(result);
}

export default class CheckCollector implements Reporter {
  private readonly settings = readRunSettings();
  private finished = 0;
  /** Events the channel could not carry, handed over in the results file instead: nothing is lost. */
  private readonly unsent: ChannelEvent[] = [];
  private startedAt = new Date();
  private planned = 0;
  /** Cleared when the event channel's descriptor turns out not to be open, or nobody reads it. */
  private channelOpen = true;

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    this.startedAt = new Date();
    this.planned = suite.allTests().length;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const annotation = test.annotations.find((a) => a.type === META_ANNOTATION);
    if (!annotation?.description) return;
    const meta = JSON.parse(annotation.description) as CheckMeta;
    const check: CheckResult = { ...meta, ...outcomeOf(result), target: targetOf(test), durationMs: Math.round(result.duration) };
    this.finished++;
    if (this.settings.progress) process.stdout.write(progressLine(check, counterLabel(this.finished, this.planned)));
    this.send({ kind: 'check', check, planned: this.planned });
  }

  onError(error: TestError): void {
    this.send({ kind: 'problem', message: redactor.redactString(error.message ?? String(error.value ?? 'unknown error')) });
  }

  /** To the orchestrator: on the channel while it carries, else kept for the results file. */
  private send(event: ChannelEvent): void {
    if (this.channelOpen) this.channelOpen = writeChannelEvent(event);
    if (!this.channelOpen) this.unsent.push(event);
  }

  onEnd(result: FullResult): void {
    const output: CheckRunEnd = {
      unsent: this.unsent,
      status: result.status,
      startedAt: this.startedAt.toISOString(),
      durationMs: Math.round(result.duration),
    };
    writeFileSync(this.settings.paths.results, JSON.stringify(output));
  }
}
