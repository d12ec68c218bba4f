// The Playwright reporter of ptas: it turns each finished test into a
// CheckResult (the check's registered metadata, src/check/registry.ts, which
// the test carries across Playwright's processes as an annotation; verdict
// and evidence from the outcome the check runtime attached), prints one
// progress line per check, and writes all results as JSON to
// PTAS_CHECK_RESULTS for the orchestrator that builds the report. When every
// check has ended, it adds the cross-cutting checks of each target
// (src/crosscut/), computed from the exchanges all checks of that target
// recorded.
import { writeFileSync } from 'node:fs';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { META_ANNOTATION, OUTCOME_ATTACHMENT, type CheckMeta, type CheckOutcome, type CheckResult, type Verdict } from '../src/check/model.ts';
import { Redactor } from '../src/http/redact.ts';
import { CROSSCUT_CHECKS, crossCuttingResults } from '../src/crosscut/index.ts';
import { TARGET_ANNOTATION, targetsFromEnv } from '../src/check/run-targets.ts';

export interface CheckRunOutput {
  checks: CheckResult[];
  /** Problems outside any check (a suite file that failed to load, a worker crash). */
  errors: string[];
  status: FullResult['status'];
  startedAt: string;
  durationMs: number;
}

export const CHECK_RESULTS_ENV = 'PTAS_CHECK_RESULTS';
const PROGRESS_ENV = 'PTAS_PROGRESS';

// The reporter never sees a token in the clear (checks redact before
// attaching); this catches JWT-shaped strings in Playwright's own error text.
const redactor = new Redactor();

function fallbackOutcome(result: TestResult): CheckOutcome {
  const verdict: Verdict = result.status === 'skipped' ? 'SKIP' : result.status === 'passed' ? 'PASS' : 'ERROR';
  const reason = result.status === 'passed' ? undefined : redactor.redactString(result.error?.message?.split('\n')[0] ?? `test ${result.status}`);
  return { verdict, reason, findings: [], evidence: [], timeline: [] };
}

function targetOf(test: TestCase): string {
  return test.annotations.find((a) => a.type === TARGET_ANNOTATION)?.description ?? 'default';
}

function outcomeOf(result: TestResult): CheckOutcome {
  const attachment = result.attachments.find((a) => a.name === OUTCOME_ATTACHMENT && a.body);
  return attachment?.body ? (JSON.parse(attachment.body.toString('utf8')) as CheckOutcome) : fallbackOutcome(result);
}

export default class PtasReporter implements Reporter {
  private readonly checks: CheckResult[] = [];
  private readonly errors: string[] = [];
  private startedAt = new Date();
  private total = 0;
  /** Each target's base address, so the cross-cutting checks know which requests went to the specified operations. */
  private readonly baseUrls = new Map<string, string | undefined>();

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    this.startedAt = new Date();
    for (const target of targetsFromEnv()) this.baseUrls.set(target.name, target.profile.baseUrl);
    const targetsWithChecks = new Set(suite.allTests().map(targetOf)).size;
    this.total = suite.allTests().length + targetsWithChecks * CROSSCUT_CHECKS.length;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const annotation = test.annotations.find((a) => a.type === META_ANNOTATION);
    if (!annotation?.description) return;
    const meta = JSON.parse(annotation.description) as CheckMeta;
    const outcome = outcomeOf(result);
    const check: CheckResult = {
      ...meta,
      ...outcome,
      target: targetOf(test),
      durationMs: Math.round(result.duration),
    };
    this.add(check);
  }

  private add(check: CheckResult): void {
    this.checks.push(check);
    if (process.env[PROGRESS_ENV] !== '0') {
      const counter = `[${String(this.checks.length).padStart(String(this.total).length)}/${this.total}]`;
      const reason = check.reason && check.verdict !== 'PASS' ? `\n${' '.repeat(counter.length + 9)}${check.reason}` : '';
      process.stdout.write(`${counter} ${check.verdict.padEnd(6)} ${check.id}  ${check.title} (${check.durationMs} ms)${reason}\n`);
    }
  }

  /** The cross-cutting checks of every target some check ran against, over what those checks recorded. */
  private addCrossCuttingChecks(): void {
    const targets = [...new Set(this.checks.map((c) => c.target))];
    for (const target of targets) {
      const checks = this.checks.filter((c) => c.target === target);
      for (const result of crossCuttingResults(target, checks, this.baseUrls.get(target))) this.add(result);
    }
  }

  onError(error: TestError): void {
    this.errors.push(redactor.redactString(error.message ?? String(error.value ?? 'unknown error')));
  }

  onEnd(result: FullResult): void {
    try {
      this.addCrossCuttingChecks();
    } catch (error) {
      // A bug here must not lose the results of every other check.
      this.errors.push(`the cross-cutting checks could not run: ${redactor.redactString(error instanceof Error ? error.message : String(error))}`);
    }
    const output: CheckRunOutput = {
      checks: this.checks,
      errors: this.errors,
      status: result.status,
      startedAt: this.startedAt.toISOString(),
      durationMs: Math.round(result.duration),
    };
    const file = process.env[CHECK_RESULTS_ENV];
    if (file) writeFileSync(file, JSON.stringify(output));
  }
}
