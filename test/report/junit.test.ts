// junit.xml: one testcase per check, requirement ids as properties, FAIL and
// ERROR as failures and errors, SKIP as skipped; always well-formed, even
// with hostile text in reasons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderJunit } from '../../reports/junit.ts';
import { syntheticResults } from './support/synthetic.ts';
import { hostileResults } from './support/hostile.ts';
import { xmlProblems } from './support/xml.ts';

test('one testcase per check, with requirement ids, severity and verdict as properties', () => {
  const results = syntheticResults({ checks: 500 });
  const xml = renderJunit(results);
  assert.deepEqual(xmlProblems(xml), []);
  const cases = xml.match(/<testcase [\s\S]*?<\/testcase>/g) ?? [];
  assert.equal(cases.length, results.checks.length);
  for (const check of results.checks) {
    const testcase = cases.find((c) => c.includes(`name="${check.id}: `))!;
    assert.ok(testcase, `testcase for ${check.id}`);
    for (const id of check.requirements) assert.ok(testcase.includes(`<property name="requirement" value="${id}"/>`));
    assert.ok(testcase.includes(`<property name="verdict" value="${check.verdict}"/>`));
    assert.ok(testcase.includes(`<property name="severity" value="${check.severity}"/>`));
    assert.equal(testcase.includes('<failure '), check.verdict === 'FAIL', `${check.id} ${check.verdict}: failure element`);
    assert.equal(testcase.includes('<error '), check.verdict === 'ERROR', `${check.id} ${check.verdict}: error element`);
    assert.equal(testcase.includes('<skipped '), check.verdict === 'SKIP', `${check.id} ${check.verdict}: skipped element`);
  }
  const c = results.counts;
  assert.match(xml, new RegExp(`<testsuites name="ptas-conformance" tests="${results.checks.length}" failures="${c.FAIL}" errors="${c.ERROR}" skipped="${c.SKIP}"`));
  assert.ok(c.FAIL > 0 && c.ERROR > 0 && c.SKIP > 0, 'the fixture has every kind');
});

test('a failure names the exchanges and where the evidence is', () => {
  const results = syntheticResults({ checks: 50 });
  const failing = results.checks.find((c) => c.verdict === 'FAIL' && c.evidence.length > 1)!;
  const xml = renderJunit(results);
  const testcase = xml.match(new RegExp(`<testcase [^>]*name="${failing.id}: [\\s\\S]*?</testcase>`))![0];
  const last = failing.evidence[failing.evidence.length - 1]!;
  assert.ok(testcase.includes(`${last.request.method} ${last.request.url} -&gt; ${last.response?.status ?? 'no response'}`), testcase);
  assert.ok(testcase.includes(`evidence: index.html#check-${failing.id}`));
});

test('hostile reasons stay text and the file stays well-formed', () => {
  const xml = renderJunit(hostileResults());
  assert.deepEqual(xmlProblems(xml), []);
  assert.ok(!xml.includes('<script'));
  assert.ok(xml.includes('&lt;/script&gt;&lt;script&gt;window.__pwned = 1&lt;/script&gt;'));
});

test('checks of several targets get separate suites', () => {
  const results = syntheticResults({ checks: 10 });
  results.checks = [...results.checks, ...results.checks.map((c) => ({ ...c, target: 'second' }))];
  const xml = renderJunit(results);
  assert.deepEqual(xmlProblems(xml), []);
  assert.match(xml, /<testsuite name="second auth"/);
  assert.match(xml, /classname="ptas\.second\.auth"/);
  assert.match(xml, /classname="ptas\.target\.auth"/);
});
