// junit.xml: one testcase per check, grouped by area (and target, when a run
// has several); FAIL is a failure, ERROR an error, SKIP skipped; requirement
// ids, severity and verdict travel as properties. A failure's text names the
// exchanges so a CI log already shows what was sent and answered.
//
// WAIVED is skipped with type="WAIVED", as pytest writes an expected failure
// (xfail): not a failure, because a waiver with an owner and an expiry accepts
// it and the run's verdict already says so (CONFORMANT WITH WAIVERS), yet not
// a pass either, so CI dashboards keep it in sight. Its message says why and
// its text is the failure it would otherwise be.
//
// FLAKY (ptas merge: it FAILed in one run of its part and passed in a later
// one, src/results/attempts.ts) is a failure of type="FLAKY": for
// certification a fail-then-pass is not a pass, and the run is NOT
// CONFORMANT. Its message says it is flaky; its text is the failing attempt's
// and lists every attempt. Any check with attempts lists them as properties.
import { describeBasis } from '../src/check/basis.ts';
import { attemptLine } from '../src/results/attempts.ts';
import type { RunResults } from '../src/results/model.ts';
import type { CheckResult } from '../src/check/model.ts';
import type { TraceabilityRow } from '../src/results/model.ts';
import type { WaivedBy } from '../src/results/waiver-model.ts';
import { escapeXml } from './escape.ts';

/** Exchanges listed in a failure's text; the HTML report has them all. */
const EXCHANGES_IN_FAILURE = 10;

type Clauses = ReadonlyMap<string, TraceabilityRow>;

function failureText(check: CheckResult, multiTarget: boolean, clauses: Clauses): string {
  const requirements = check.requirements.map((id) => (clauses.get(id) ? `${id} (clause ${clauses.get(id)!.clause})` : id));
  const lines = [`${check.verdict}: ${check.reason ?? '(no reason given)'}`, `requirements: ${requirements.join(', ')}; severity ${check.severity}`];
  if (check.basis) lines.push(`basis: ${describeBasis(check.basis)}`);
  for (const e of check.evidence.slice(-EXCHANGES_IN_FAILURE)) {
    const outcome = e.response ? String(e.response.status) : `no response (${e.error?.code ?? 'unknown'})`;
    lines.push(`  #${e.id} ${e.label ? `${e.label}: ` : ''}${e.request.method} ${e.request.url} -> ${outcome}`);
  }
  if (check.evidence.length > EXCHANGES_IN_FAILURE) lines.push(`  (${check.evidence.length - EXCHANGES_IN_FAILURE} earlier exchanges in index.html)`);
  if (check.attempts?.length) lines.push('attempts (the exchanges above are the one kept as evidence):', ...check.attempts.map((a) => `  ${attemptLine(a)}`));
  // The anchor of the check's row in index.html (checkAnchor in reports/html/client/check-order.ts).
  lines.push(`evidence: index.html#check-${multiTarget ? `${check.target}--${check.id}` : check.id}`);
  return lines.join('\n');
}

/** Why a WAIVED testcase is not a failure, in one line. */
function waivedMessage(check: CheckResult, waived: WaivedBy): string {
  const w = waived.waiver;
  return `WAIVED, not a failure: the check gave ${waived.verdict}, which waiver ${w.pointer} (${w.selector.kind} ${w.selector.id}; owner ${w.owner}; tracking ${w.tracking}; valid through ${w.expires} UTC) accepts: ${w.reason}. The check's reason: ${check.reason ?? '(none given)'}`;
}

function waiverProperties(waived: WaivedBy | undefined): string[] {
  if (!waived) return [];
  const w = waived.waiver;
  return [
    `<property name="waived-verdict" value="${waived.verdict}"/>`,
    `<property name="waiver-owner" value="${escapeXml(w.owner)}"/>`,
    `<property name="waiver-tracking" value="${escapeXml(w.tracking)}"/>`,
    `<property name="waiver-expires" value="${escapeXml(w.expires)}"/>`,
  ];
}

function testcase(check: CheckResult, suitePrefix: string, multiTarget: boolean, clauses: Clauses): string {
  const props = [
    ...check.requirements.map((id) => `<property name="requirement" value="${escapeXml(id)}"/>`),
    `<property name="severity" value="${check.severity}"/>`,
    `<property name="verdict" value="${check.verdict}"/>`,
    ...waiverProperties(check.waived),
    ...(check.attempts ?? []).map((a) => `<property name="attempt" value="${escapeXml(attemptLine(a))}"/>`),
  ].join('');
  const open = `    <testcase classname="${escapeXml(`${suitePrefix}.${check.area}`)}" name="${escapeXml(`${check.id}: ${check.title}`)}" time="${(check.durationMs / 1000).toFixed(3)}">`;
  const reason = escapeXml(check.reason ?? check.verdict);
  let body = `<properties>${props}</properties>`;
  if (check.verdict === 'FAIL') body += `<failure type="FAIL" message="${reason}">${escapeXml(failureText(check, multiTarget, clauses))}</failure>`;
  else if (check.verdict === 'FLAKY') {
    const message = `FLAKY (attempts: ${(check.attempts ?? []).map((a) => `#${a.run.attempt} ${a.verdict}`).join(', ')}): ${check.reason ?? ''}`;
    body += `<failure type="FLAKY" message="${escapeXml(message)}">${escapeXml(failureText(check, multiTarget, clauses))}</failure>`;
  }
  else if (check.verdict === 'ERROR') body += `<error type="ERROR" message="${reason}">${escapeXml(failureText(check, multiTarget, clauses))}</error>`;
  else if (check.verdict === 'SKIP') body += `<skipped message="${reason}"/>`;
  else if (check.verdict === 'WAIVED' && check.waived) {
    body += `<skipped type="WAIVED" message="${escapeXml(waivedMessage(check, check.waived))}">${escapeXml(failureText({ ...check, verdict: check.waived.verdict }, multiTarget, clauses))}</skipped>`;
  }
  else if (check.reason) body += `<system-out>${check.verdict}: ${reason}</system-out>`;
  return `${open}${body}</testcase>`;
}

export function renderJunit(results: RunResults): string {
  const clauses: Clauses = new Map(results.requirements.map((r) => [r.id, r]));
  const targets = [...new Set(results.checks.map((c) => c.target))];
  const groups = targets.flatMap((target) => [...new Set(results.checks.filter((c) => c.target === target).map((c) => c.area))].map((area) => ({ target, area })));
  const suites = groups.map(({ target, area }) => {
    const prefix = targets.length > 1 ? `ptas.${target}` : 'ptas';
    const checks = results.checks.filter((c) => c.area === area && c.target === target);
    const count = (v: string) => checks.filter((c) => c.verdict === v).length;
    // A WAIVED testcase is written as skipped, a FLAKY one as a failure: the counts say so too, so tests = passed + failures + errors + skipped.
    const time = checks.reduce((sum, c) => sum + c.durationMs, 0) / 1000;
    const name = targets.length > 1 ? `${target} ${area}` : area;
    return [
      `  <testsuite name="${escapeXml(name)}" tests="${checks.length}" failures="${count('FAIL') + count('FLAKY')}" errors="${count('ERROR')}" skipped="${count('SKIP') + count('WAIVED')}" time="${time.toFixed(3)}">`,
      ...checks.map((c) => testcase(c, prefix, targets.length > 1, clauses)),
      '  </testsuite>',
    ].join('\n');
  });
  const c = results.counts;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ptas-conformance" tests="${results.checks.length}" failures="${c.FAIL + (c.FLAKY ?? 0)}" errors="${c.ERROR}" skipped="${c.SKIP + (c.WAIVED ?? 0)}" time="${(results.run.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
