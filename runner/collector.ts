// The collector: Playwright's reporter in the runner process. It turns each
// finished test into a check result (the check's registered metadata, which
// the test carries across Playwright's processes as an annotation, with the
// outcome its after-each hook annotated: runner/annotations.ts), prints one
// progress line per check (and, when the settings ask, one JSON line on the
// run's event channel: runner/check-events.ts), and writes every result to the run's results file
// (runner/settings.ts) for the orchestrator. It judges nothing: verdicts are
// the outcome function's (src/check/outcome.ts), and the cross-cutting checks
// over all exchanges are folded in by the orchestrator (src/crosscut/).
import { writeFileSync } from 'node:fs';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import type { CheckMeta, CheckOutcome, CheckResult } from '../src/check/model.ts';
import type { CheckVerdict } from '../src/check/verdict-names.ts';
import { Redactor } from '../src/http/redact.ts';
import { finishedCheck } from '../src/run-events/events.ts';
import { writeCheckEvent } from './check-events.ts';
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
  private readonly checks: CheckResult[] = [];
  private readonly errors: string[] = [];
  private startedAt = new Date();
  private planned = 0;
  /** Cleared when the event channel's descriptor turns out not to be open. */
  private checkEvents = Boolean(this.settings.checkEvents);

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
    this.checks.push(check);
    if (this.settings.progress) process.stdout.write(progressLine(check, counterLabel(this.checks.length, this.planned)));
    if (this.checkEvents) this.checkEvents = writeCheckEvent(finishedCheck(check, this.planned));
  }

  onError(error: TestError): void {
    this.errors.push(redactor.redactString(error.message ?? String(error.value ?? 'unknown error')));
  }

  onEnd(result: FullResult): void {
    const output: CheckRunOutput = {
      checks: this.checks,
      errors: this.errors,
      status: result.status,
      startedAt: this.startedAt.toISOString(),
      durationMs: Math.round(result.duration),
    };
    writeFileSync(this.settings.paths.results, JSON.stringify(output));
  }
}
