// Waivers wherever a verdict shows: the HTML report's "Waivers" section and
// banner, a WAIVED testcase in junit.xml (skipped, not a failure, saying why),
// the terminal summary, the baseline comparison (WAIVED is no regression, an
// expired waiver's FAIL is) and `ptas report`, which re-renders a saved
// results.json with its waivers intact.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../src/paths.ts';
import type { RunResults } from '../../src/results/model.ts';
import { applyWaivers } from '../../src/results/waivers.ts';
import { compareWithBaseline } from '../../reports/baseline.ts';
import { renderHtml } from '../../reports/html.ts';
import { renderJunit } from '../../reports/junit.ts';
import { terminalSummary } from '../../reports/terminal.ts';
import { xmlProblems } from './support/xml.ts';
import { FIRST_EXPIRED_INSTANT, LANGUAGES, LAST_VALID_INSTANT, run, SINGLE_USE, SINGLE_USE_REASON, waiverFile } from '../support/waiver-fixtures.ts';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-waivers-report-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** One waiver of each status: applied, expired, stale (the check passes), unmatched. */
const file = waiverFile(
  { check: SINGLE_USE, reason: 'single-use refresh tokens ship in release 4.2 <b>soon</b>', owner: 'payments-api team', tracking: 'https://tracker.example.com/PAY-1234' },
  { check: SINGLE_USE, expires: '2026-06-30', owner: 'old owner', tracking: 'https://tracker.example.com/PAY-1000' },
  { check: LANGUAGES, owner: 'users team', tracking: 'https://tracker.example.com/USR-77' },
  { check: 'users.no-such-check', owner: 'nobody', tracking: 'https://tracker.example.com/X-1' },
);
const waived = applyWaivers(run(), file, { strict: false, now: LAST_VALID_INSTANT });
const testcaseOf = (xml: string, id: string) => xml.match(new RegExp(`<testcase [^>]*name="${id.replace(/\./g, '\\.')}: [\\s\\S]*?</testcase>`))![0];

test('the HTML report lists every waiver with selector, reason, owner, tracking link, expiry and status', () => {
  assert.equal(waived.verdict, 'CONFORMANT WITH WAIVERS');
  const html = renderHtml(waived);
  const section = html.match(/<section id="waivers">[\s\S]*?<\/section>/)?.[0];
  assert.ok(section, 'a Waivers section');
  assert.match(section, /<h2>Waivers<\/h2>/);
  assert.match(section, /sha256 <code>a{64}<\/code>/);
  const rows = section.match(/<tr class="waiver [\s\S]*?<\/tr>/g) ?? [];
  assert.deepEqual(
    rows.map((r) => /data-status="(\w+)"/.exec(r)![1]),
    ['applied', 'expired', 'stale', 'unmatched'],
  );
  const [applied, expired, stale, unmatched] = rows as [string, string, string, string];
  assert.match(applied, /<code class="waiver-selector">auth\.refresh-token-single-use<\/code>/);
  assert.ok(applied.includes('single-use refresh tokens ship in release 4.2 &lt;b&gt;soon&lt;/b&gt;'), 'the reason, escaped');
  assert.match(applied, /<td class="waiver-owner">payments-api team<\/td>/);
  assert.match(applied, /<a class="tracking" href="https:\/\/tracker\.example\.com\/PAY-1234" rel="noopener noreferrer" target="_blank">/);
  assert.match(applied, /<td class="waiver-expires">2026-12-31 /);
  assert.match(applied, /<a href="#check-auth\.refresh-token-single-use" class="check-link">auth\.refresh-token-single-use<\/a> <span class="muted small">gave<\/span> <span class="badge v-FAIL">FAIL<\/span>/);
  assert.match(expired, /expired at the end of 2026-06-30/);
  assert.match(stale, /gave PASS instead of the expected FAIL[\s\S]*<code class="waiver-selector">users\.accept-language-accepted<\/code>[\s\S]*<span class="badge v-PASS">PASS<\/span>/);
  assert.match(unmatched, /none in this run/);
  assert.match(html, /<span class="verdict" id="verdict">CONFORMANT WITH WAIVERS<\/span><span class="verdict-why">1 check waived/);
  assert.match(html, /<div class="notice notice-warn" id="notice-waivers"><b>1 check waived<\/b> by 1 of 4 waivers; 1 expired, 1 stale, 1 unmatched\./);
  assert.match(html, /<nav class="toc"><a href="#waivers">Waivers<\/a>/);
  assert.match(html, /data-verdict="WAIVED"[^>]*><b>1<\/b>/);
});

test('the HTML report shows no waivers section for a run without a waiver file, and never links a non-http tracking address', () => {
  const plain = renderHtml(run());
  assert.doesNotMatch(plain, /id="waivers"|id="notice-waivers"/);
  const tampered = structuredClone(waived);
  tampered.waivers!.outcomes[0]!.waiver.tracking = 'javascript:alert(1)';
  const html = renderHtml(tampered);
  assert.doesNotMatch(html, /href="javascript:/);
  assert.match(html, /<td><code>javascript:alert\(1\)<\/code><\/td>/);
});

test('the page script draws a WAIVED check with the verdict it gave and its waiver', () => {
  const script = /<script>([\s\S]*?)<\/script>\s*<\/body>/.exec(renderHtml(waived))![1]!;
  // The rendering itself runs in Chromium (waivers-browser.test.ts); here: the script knows the verdict and the line.
  assert.match(script, /\bVERDICTS = \[[^\]]*"WAIVED"[^\]]*\]/);
  assert.match(script, /function waivedLine\(waived\)/);
  assert.match(script, /`gave \$\{check\.waived\.verdict\}`/);
});

test('junit.xml: a WAIVED testcase is skipped, not a failure, and its message says why; after expiry it is a failure again', () => {
  const xml = renderJunit(waived);
  assert.deepEqual(xmlProblems(xml), []);
  const testcase = testcaseOf(xml, SINGLE_USE);
  assert.doesNotMatch(testcase, /<failure /);
  assert.match(testcase, /<property name="verdict" value="WAIVED"\/><property name="waived-verdict" value="FAIL"\/><property name="waiver-owner" value="payments-api team"\/>/);
  assert.match(
    testcase,
    /<skipped type="WAIVED" message="WAIVED, not a failure: the check gave FAIL, which waiver \/waivers\/0 \(check auth\.refresh-token-single-use; owner payments-api team; tracking https:\/\/tracker\.example\.com\/PAY-1234; valid through 2026-12-31 UTC\) accepts: single-use refresh tokens ship in release 4\.2 &lt;b&gt;soon&lt;\/b&gt;\. The check&#39;s reason: refresh token reused at 21:13:47 was accepted: 200">FAIL: refresh token reused/,
  );
  assert.match(xml, /<testsuites name="ptas-conformance" tests="4" failures="0" errors="0" skipped="1"/);

  const expired = applyWaivers(run(), file, { strict: false, now: FIRST_EXPIRED_INSTANT });
  const expiredXml = renderJunit(expired);
  assert.match(testcaseOf(expiredXml, SINGLE_USE), /<failure type="FAIL" message="refresh token reused at 21:13:47 was accepted: 200">/);
  assert.doesNotMatch(testcaseOf(expiredXml, SINGLE_USE), /<skipped/);
  assert.match(expiredXml, /failures="1" errors="0" skipped="0"/);
});

test('the terminal summary names each waived check with the verdict it gave, and the waivers that did not apply', () => {
  const summary = terminalSummary(waived);
  assert.match(summary, /^\nCONFORMANT WITH WAIVERS  https:\/\/sandbox\.example\.com\n/);
  assert.match(summary, / 0 error, 1 waived in 300\.0 s/);
  assert.ok(summary.includes(`  WAIVED ${SINGLE_USE} [TOKEN-REFRESH-SINGLE-USE] (gave FAIL): ${SINGLE_USE_REASON}\n      waiver /waivers/0: single-use refresh tokens ship`), summary);
  assert.match(summary, /  waivers waivers\.json \(sha256 aaaaaaaaaaaa\): 1 applied, 1 expired, 1 stale, 1 unmatched/);
  assert.match(summary, /    expired   \/waivers\/1 check auth\.refresh-token-single-use \(old owner\): expired at the end of 2026-06-30/);
  assert.match(summary, /    stale     \/waivers\/2 check users\.accept-language-accepted \(users team\): its checks ran and gave PASS/);
  assert.match(summary, /    unmatched \/waivers\/3 check users\.no-such-check \(nobody\): no check of this run/);
  assert.doesNotMatch(terminalSummary(run()), /waive/i, 'nothing about waivers without a waiver file');
});

test('baseline: a check that becomes WAIVED is no regression; a waiver that expired since turns it back into FAIL, which is one', () => {
  const lastNightUnwaived = run();
  const lastNight = applyWaivers(run(), waiverFile({ check: SINGLE_USE }), { strict: false, now: LAST_VALID_INSTANT });
  const tonight = applyWaivers(run(), waiverFile({ check: SINGLE_USE }), { strict: false, now: FIRST_EXPIRED_INSTANT });

  const nowWaived = compareWithBaseline(lastNightUnwaived, lastNight);
  assert.equal(nowWaived.regressions, 0);
  assert.deepEqual(nowWaived.otherChanges.map((c) => [c.id, c.before, c.after]), [[SINGLE_USE, 'FAIL', 'WAIVED']]);
  assert.deepEqual(nowWaived.notes, ['The baseline ran without a waiver file.']);

  const expiredTonight = compareWithBaseline(lastNight, tonight);
  assert.equal(expiredTonight.regressions, 1);
  assert.deepEqual(expiredTonight.newlyFailing.map((c) => [c.id, c.before, c.after]), [[SINGLE_USE, 'WAIVED', 'FAIL']]);
  assert.deepEqual(expiredTonight.verdict, { before: 'CONFORMANT WITH WAIVERS', after: 'NOT CONFORMANT' });

  const fixed = applyWaivers(run({ [SINGLE_USE]: 'PASS' }), waiverFile({ check: SINGLE_USE }), { strict: false, now: LAST_VALID_INSTANT });
  assert.deepEqual(compareWithBaseline(lastNight, fixed).newlyPassing.map((c) => [c.id, c.before, c.after]), [[SINGLE_USE, 'WAIVED', 'PASS']]);
});

function ptasReport(...args: string[]) {
  return spawnSync(process.execPath, [fromRoot('bin', 'ptas.js'), 'report', ...args], { cwd: fromRoot(), encoding: 'utf8', timeout: 60_000 });
}

test('`ptas report` re-renders a saved results.json with its waivers intact', () => {
  const saved = path.join(scratch, 'saved');
  const out = path.join(scratch, 'rendered');
  spawnSync('mkdir', ['-p', saved]);
  writeFileSync(path.join(saved, 'results.json'), JSON.stringify(waived));
  const result = ptasReport(path.join(saved, 'results.json'), '--out', out);
  assert.equal(result.status, 0, result.stderr);
  const rendered = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  assert.deepEqual(rendered.waivers, waived.waivers);
  assert.deepEqual(rendered.checks.find((c) => c.id === SINGLE_USE)?.waived, waived.checks.find((c) => c.id === SINGLE_USE)?.waived);
  assert.equal(rendered.verdict, 'CONFORMANT WITH WAIVERS');
  assert.match(readFileSync(path.join(out, 'index.html'), 'utf8'), /<section id="waivers"><h2>Waivers<\/h2>/);
  assert.match(readFileSync(path.join(out, 'junit.xml'), 'utf8'), /<skipped type="WAIVED" /);
  assert.match(result.stdout, /WAIVED auth\.refresh-token-single-use/);
});

test('`ptas report` still reads a results.json written before waivers existed (no WAIVED count)', () => {
  const old = structuredClone(run());
  delete (old.counts as Partial<typeof old.counts>).WAIVED;
  const dir = path.join(scratch, 'old');
  spawnSync('mkdir', ['-p', dir]);
  writeFileSync(path.join(dir, 'results.json'), JSON.stringify(old));
  const result = ptasReport(path.join(dir, 'results.json'));
  assert.equal(result.status, 0, result.stderr);
  assert.match(readFileSync(path.join(dir, 'index.html'), 'utf8'), /data-verdict="WAIVED"[^>]*><b>0<\/b>/);
  assert.match(readFileSync(path.join(dir, 'junit.xml'), 'utf8'), /failures="1" errors="0" skipped="0"/);
});
