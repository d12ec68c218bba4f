// FLAKY wherever a verdict shows: a merged check that FAILed in one run of
// its part and passed in a later one (src/results/attempts.ts). junit.xml
// counts it a failure whose message says it is flaky and lists the attempts;
// the HTML report's data, counts and script carry it and its attempts; the
// terminal, the GitHub annotations, the baseline comparison and the trend page
// all treat it as failing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Night } from '../../reports/history-read.ts';
import { buildHistory } from '../../reports/history.ts';
import { renderHistoryHtml } from '../../reports/html/history.ts';
import { compareWithBaseline } from '../../reports/baseline.ts';
import { githubAnnotations, githubSummary } from '../../reports/github.ts';
import { renderHtml, type EmbeddedReportData } from '../../reports/html.ts';
import { unpackEvidence } from '../../reports/html/evidence-pack.ts';
import { renderJunit } from '../../reports/junit.ts';
import { terminalSummary } from '../../reports/terminal.ts';
import { flakyRun } from '../support/attempt-fixtures.ts';
import { run, SINGLE_USE, SINGLE_USE_REASON } from '../support/waiver-fixtures.ts';
import { xmlProblems } from './support/xml.ts';

const flaky = flakyRun();
const testcaseOf = (xml: string, id: string) => xml.match(new RegExp(`<testcase [^>]*name="${id.replace(/\./g, '\\.')}: [\\s\\S]*?</testcase>`))![0];

test('junit.xml: a FLAKY testcase is a failure of type FLAKY whose message says so, its text the failing attempt and every attempt', () => {
  const xml = renderJunit(flaky);
  assert.deepEqual(xmlProblems(xml), []);
  const testcase = testcaseOf(xml, SINGLE_USE);
  assert.match(testcase, /<property name="verdict" value="FLAKY"\/>/);
  assert.match(testcase, /<property name="attempt" value="attempt 1 of part 2\/2 \(run started 2026-12-31T21:00:00\.000Z, manifest sha256:111111111111…\): FAIL — refresh token reused at 21:13:47 was accepted: 200 \[kept as evidence\]"\/>/);
  assert.match(testcase, /<property name="attempt" value="attempt 2 of part 2\/2 \(run started 2026-12-31T23:30:00\.000Z, manifest sha256:222222222222…\): PASS"\/>/);
  const failure = /<failure type="FLAKY" message="([^"]*)">([\s\S]*?)<\/failure>/.exec(testcase);
  assert.ok(failure, testcase);
  assert.match(failure[1]!, /^FLAKY \(attempts: #1 FAIL, #2 PASS\): FAILed in attempt 1 of part 2\/2, then PASS in attempt 2: a fail-then-pass is not a pass\. /);
  assert.ok(failure[1]!.endsWith(SINGLE_USE_REASON), 'the failure the message names');
  assert.match(failure[2]!, /#1 second use of the refresh token: POST https:\/\/sandbox\.example\.com\/v1\/oauth\/token -&gt; 200/, 'the failing attempt\'s exchange');
  assert.doesNotMatch(failure[2]!, /re-run/, 'not the passing attempt\'s');
  assert.match(failure[2]!, /attempts \(the exchanges above are the one kept as evidence\):\n {2}attempt 1 of part 2\/2 [^\n]*FAIL[^\n]*\n {2}attempt 2 of part 2\/2 [^\n]*: PASS/);
  // Counted as a failure, in the suite and in the total: ptas verify compares these with results.json.
  assert.match(xml, /<testsuites name="ptas-conformance" tests="4" failures="1" errors="0" skipped="0"/);
  assert.match(xml, /<testsuite name="auth" tests="3" failures="1" errors="0" skipped="0"/);
});

test('the HTML report: FLAKY in its data with the attempts, a count button, a filter chip and a colour; the script draws the attempts', () => {
  const html = renderHtml(flaky);
  const data = JSON.parse(/<script type="application\/json" id="ptas-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as EmbeddedReportData;
  const evidence = /<script type="application\/gzip" data-encoding="base64" id="ptas-evidence">([A-Za-z0-9+/=]*)<\/script>/.exec(html)![1]!;
  const shown = unpackEvidence(data.results, evidence).checks.find((c) => c.id === SINGLE_USE)!;
  assert.equal(shown.verdict, 'FLAKY');
  assert.deepEqual(shown.attempts?.map((a) => [a.run.attempt, a.verdict, a.decisive]), [[1, 'FAIL', true], [2, 'PASS', false]]);
  assert.equal(shown.evidence[0]?.response?.status, 200, 'the failing attempt\'s evidence');
  assert.match(html, /<span class="verdict" id="verdict">NOT CONFORMANT<\/span><span class="verdict-why">1 check found a contradiction of the spec or of the declared profile \(1 of them flaky: failed in one attempt, passed in a later one\)/);
  assert.match(html, /<button type="button" class="count v-FLAKY" data-verdict="FLAKY"[^>]*><b>1<\/b><span>FLAKY<\/span><\/button>/);
  assert.match(html, /\.v-FLAKY \{ color: var\(--flaky\); \} \.badge\.v-FLAKY, \.chip\.v-FLAKY, \.count\.v-FLAKY \{ background: var\(--flaky-bg\); \}/);
  const script = /<script>([\s\S]*?)<\/script>\s*<\/body>/.exec(html)![1]!;
  assert.match(script, /\bVERDICTS = \[[^\]]*"FLAKY"[^\]]*\]/, 'a filter chip for FLAKY');
  assert.match(script, /\bVERDICT_ORDER = \["ERROR", "FAIL", "FLAKY",/, 'listed beside the failures');
  assert.match(script, /check\.attempts && check\.attempts\.length \? attemptsLine\(check\.attempts\)/);
  assert.match(script, /FLAKY: 3\.9, FAIL: 4/, 'the matrix ranks it as a failure');
});

test('the terminal names the FLAKY check with its attempts, and counts it', () => {
  const summary = terminalSummary(flaky);
  assert.match(summary, /^\nNOT CONFORMANT {2}https:\/\/sandbox\.example\.com\n {2}3 pass, 0 fail, 0 warn, 0 review, 0 skip, 0 error, 1 flaky in 300\.0 s/);
  assert.match(summary, /\n {2}FLAKY auth\.refresh-token-single-use \[TOKEN-REFRESH-SINGLE-USE\]: FAILed in attempt 1 of part 2\/2, then PASS in attempt 2/);
  assert.match(summary, /\n {6}attempt 1 of part 2\/2 [^\n]*: FAIL — refresh token reused[^\n]*\[kept as evidence\]\n {6}attempt 2 of part 2\/2 [^\n]*: PASS\n/);
});

test('GitHub: FLAKY is an ::error naming it flaky, with the clause and the attempts; the summary lists it among the failing checks', () => {
  const line = githubAnnotations(flaky).find((l) => l.includes(SINGLE_USE))!;
  assert.match(line, /^::error title=FLAKY auth\.refresh-token-single-use \(failed%2C then passed on retry%3A not a pass\) — TOKEN-REFRESH-SINGLE-USE — spec /);
  assert.match(line, /::FAILed in attempt 1 of part 2\/2, then PASS in attempt 2: /);
  assert.match(line, /%0Aattempts:%0Aattempt 1 of part 2\/2 [^%]*: FAIL — [^%]*\[kept as evidence\]%0Aattempt 2 of part 2\/2 [^%]*: PASS$/);
  const md = githubSummary(flaky);
  assert.match(md, /### Failing checks \(1\)/);
  assert.match(md, /\| \*\*FLAKY\*\* \| `auth\.refresh-token-single-use` \|/);
});

test('baseline and trend page: a check that becomes FLAKY is a regression; FAIL → FLAKY is not; FLAKY → PASS is newly passing', () => {
  const passing = run({ [SINGLE_USE]: 'PASS' });
  const failing = run();
  assert.deepEqual(compareWithBaseline(passing, flaky).newlyFailing.map((c) => [c.id, c.before, c.after]), [[SINGLE_USE, 'PASS', 'FLAKY']]);
  assert.equal(compareWithBaseline(failing, flaky).regressions, 0);
  assert.deepEqual(compareWithBaseline(flaky, passing).newlyPassing.map((c) => [c.id, c.before, c.after]), [[SINGLE_USE, 'FLAKY', 'PASS']]);

  const nights: Night[] = [
    { file: 'night-1/results.json', results: passing },
    { file: 'night-2/results.json', results: flaky },
  ];
  const history = buildHistory(nights);
  assert.deepEqual(history.rows.find((r) => r.id === SINGLE_USE)!.cells.map((c) => [c.verdict, c.regression]), [['PASS', false], ['FLAKY', true]]);
  assert.deepEqual(history.nights[1]!.counts.find((c) => c.verdict === 'FLAKY'), { verdict: 'FLAKY', count: 1 });
  const page = renderHistoryHtml(history);
  assert.match(page, /<td class="cell v-FLAKY regression" data-verdict="FLAKY" [^>]*>Fl<b class="mark">▲<\/b><\/td>/);
});
