// junit.xml: one testcase per check, grouped by area; FAIL and ERROR are
// failures, SKIP is skipped; requirement ids travel as properties.
import type { RunResults } from '../src/results/model.ts';
import type { CheckResult } from '../src/check/model.ts';
import { escapeXml } from './escape.ts';

function testcase(check: CheckResult): string {
  const props = [
    ...check.requirements.map((id) => `<property name="requirement" value="${escapeXml(id)}"/>`),
    `<property name="severity" value="${check.severity}"/>`,
    `<property name="verdict" value="${check.verdict}"/>`,
  ].join('');
  const open = `    <testcase classname="${escapeXml(`ptas.${check.area}`)}" name="${escapeXml(`${check.id}: ${check.title}`)}" time="${(check.durationMs / 1000).toFixed(3)}">`;
  const reason = escapeXml(check.reason ?? check.verdict);
  let body = `<properties>${props}</properties>`;
  if (check.verdict === 'FAIL') body += `<failure type="FAIL" message="${reason}">${reason}</failure>`;
  else if (check.verdict === 'ERROR') body += `<error type="ERROR" message="${reason}">${reason}</error>`;
  else if (check.verdict === 'SKIP') body += `<skipped message="${reason}"/>`;
  else if (check.reason) body += `<system-out>${check.verdict}: ${reason}</system-out>`;
  return `${open}${body}</testcase>`;
}

export function renderJunit(results: RunResults): string {
  const areas = [...new Set(results.checks.map((c) => c.area))];
  const suites = areas.map((area) => {
    const checks = results.checks.filter((c) => c.area === area);
    const count = (v: string) => checks.filter((c) => c.verdict === v).length;
    const time = checks.reduce((sum, c) => sum + c.durationMs, 0) / 1000;
    return [
      `  <testsuite name="${escapeXml(area)}" tests="${checks.length}" failures="${count('FAIL')}" errors="${count('ERROR')}" skipped="${count('SKIP')}" time="${time.toFixed(3)}">`,
      ...checks.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const c = results.counts;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ptas-conformance" tests="${results.checks.length}" failures="${c.FAIL}" errors="${c.ERROR}" skipped="${c.SKIP}" time="${(results.run.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
