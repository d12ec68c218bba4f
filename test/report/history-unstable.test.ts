// `ptas report --history` marks unstable checks (src/results/instability.ts)
// as `ptas serve` does: a check whose verdict differs between nights of the
// same suite version and profile hash is listed with both nights'
// observations side by side and marked in the grid, attributed to the
// implementation, or on the bundled reference to the suite; a night of
// another profile is not compared; the command names each on the terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildHistory } from '../../reports/history.ts';
import { readHistory } from '../../reports/history-read.ts';
import { renderHistoryHtml } from '../../reports/html/history.ts';
import type { RunResults } from '../../src/results/model.ts';
import { runPtas } from '../support/cli.ts';
import { PASS_CLAIM, STEADY, UNSTABLE, UNSTABLE_REASON, unstableRun } from '../support/unstable-runs.ts';

const CLEAN = { faults: [], variants: [], conditions: [] };

/** Nights as a folder of nights (NIGHTS/<night>/results.json). */
function nightsFolder(t: { after: (fn: () => void) => void }, nights: Record<string, RunResults>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-history-unstable-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, results] of Object.entries(nights)) {
    mkdirSync(path.join(dir, 'nights', name), { recursive: true });
    writeFileSync(path.join(dir, 'nights', name, 'results.json'), JSON.stringify(results));
  }
  return dir;
}

const IMPLEMENTATION_NIGHTS = {
  '2027-01-01': unstableRun({ startedAt: '2027-01-01T02:17:00.000Z', verdict: 'PASS' }),
  '2027-01-02': unstableRun({ startedAt: '2027-01-02T02:17:00.000Z', verdict: 'FAIL' }),
  // Another profile: compared with neither night, though its verdict differs from the first.
  '2027-01-03': unstableRun({ startedAt: '2027-01-03T02:17:00.000Z', verdict: 'FAIL', profileHash: 'sha256:ffffffffffff' }),
};

const section = (html: string) => html.match(/<section id="unstable">([\s\S]*?)<\/section>/)![1]!;
const rowOf = (html: string, id: string) => html.match(new RegExp(`<tr[^>]*data-check="${id.replaceAll('.', '\\.')}">[\\s\\S]*?</tr>`))![0];

test('the trend page lists an unstable check with both nights side by side, the implementation’s, and marks its row in the grid', (t) => {
  const dir = nightsFolder(t, IMPLEMENTATION_NIGHTS);
  const history = buildHistory(readHistory([path.join(dir, 'nights')]));
  assert.deepEqual(history.unstable.map((u) => [u.id, u.attribution, path.basename(path.dirname(u.observations.earlier.run)), path.basename(path.dirname(u.observations.later.run))]), [
    [UNSTABLE, 'implementation', '2027-01-01', '2027-01-02'],
  ]);
  assert.deepEqual(history.rows.filter((r) => r.unstable).map((r) => r.id), [UNSTABLE]);

  const html = renderHistoryHtml(history);
  const unstable = section(html);
  assert.match(unstable, new RegExp(`<div class="unstable-check attribution-implementation" data-check="${UNSTABLE.replaceAll('.', '\\.')}" data-attribution="implementation">`));
  assert.match(unstable, /<p class="attribution">Whose: the implementation&#39;s: it answered differently to the same checks\.<\/p>/);
  assert.match(unstable, /FAIL 1×, PASS 1× over the nights of ptas 0\.1\.0, profile sha256:0123456789ab\./);
  assert.match(unstable, /<th title="[^"]*2027-01-01[^"]*">Before: 2027-01-01 02:17<\/th><th title="[^"]*2027-01-02[^"]*">Latest: 2027-01-02 02:17<\/th>/);
  assert.match(unstable, /<tr><th>Verdict<\/th><td><span class="badge v-PASS">PASS<\/span><\/td><td><span class="badge v-FAIL">FAIL<\/span><\/td><\/tr>/);
  assert.ok(unstable.includes(`<tr><th>Reason</th><td><span class="muted">—</span></td><td>${UNSTABLE_REASON}</td></tr>`));
  assert.match(unstable, /<tr><th>Rests on<\/th><td><span class="muted">—<\/span><\/td><td>spec 4\.1 rule 2, 5 rule 2: &quot;It is exchanged with client_id/);
  assert.ok(unstable.includes(`<tr><th>The check said</th><td><ul><li><b>INFO</b> ${PASS_CLAIM}</li></ul></td><td><ul><li><b>FAIL</b> ${UNSTABLE_REASON}</li></ul></td></tr>`));
  assert.match(unstable, /<code>refresh with the used refresh token: POST https:\/\/sandbox\.acme\.example\/v1\/oauth\/token → 400<\/code>[\s\S]*<code>[^<]*→ 200<\/code>/);
  // A PASS then a FAIL is also a regression: the row is both.
  assert.match(rowOf(html, UNSTABLE), /^<tr class="regressed unstable" data-check="[^"]+"><th><span class="check-id">auth\.refresh-token-single-use<\/span> <span class="unstable-mark"[^>]*>≈ unstable<\/span>/);
  assert.doesNotMatch(rowOf(html, STEADY), /unstable/);
  assert.match(html, /<span class="verdict-why">latest night · 3 nights, .* · 1 unstable check<\/span>/);
  assert.ok(html.includes('<a href="#unstable">Unstable checks</a>'));
});

test('on the bundled reference the page says it is a defect of the suite; nights that agree show none', (t) => {
  const reference = nightsFolder(t, {
    a: unstableRun({ startedAt: '2027-01-01T02:17:00.000Z', verdict: 'FAIL', reference: CLEAN, profileHash: 'sha256:aaaaaaaaaaaa' }),
    b: unstableRun({ startedAt: '2027-01-02T02:17:00.000Z', verdict: 'PASS', reference: CLEAN, profileHash: 'sha256:bbbbbbbbbbbb' }),
  });
  const html = renderHistoryHtml(buildHistory(readHistory([path.join(reference, 'nights')])));
  assert.match(section(html), /data-attribution="suite"><h3>[\s\S]*<p class="attribution">Whose: the bundled reference: a defect of the suite \(a check must give one verdict on one implementation\)\.<\/p>/);

  const steady = nightsFolder(t, { a: IMPLEMENTATION_NIGHTS['2027-01-02'], b: IMPLEMENTATION_NIGHTS['2027-01-03'] });
  const calm = renderHistoryHtml(buildHistory(readHistory([path.join(steady, 'nights')])));
  assert.match(section(calm), /<p id="no-unstable">No check gave two verdicts across nights of one suite version and profile\.<\/p>/);
  assert.doesNotMatch(calm, /unstable check</);
});

test('ptas report --history names each unstable check on the terminal, and its page marks it', async (t) => {
  const dir = nightsFolder(t, IMPLEMENTATION_NIGHTS);
  const out = path.join(dir, 'history');
  const result = await runPtas(['report', '--history', path.join(dir, 'nights'), '--out', out]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /history of 3 nights, .*: latest NOT CONFORMANT, 0 regressions since the night before, 1 unstable check\n/);
  assert.ok(
    result.stdout.includes(`  unstable ${UNSTABLE}: PASS (2027-01-01T02:17:00.000Z), then FAIL (2027-01-02T02:17:00.000Z); the implementation's: it answered differently to the same checks\n`),
    result.stdout,
  );
  assert.match(readFileSync(path.join(out, 'history.html'), 'utf8'), /<div class="unstable-check attribution-implementation" data-check="auth\.refresh-token-single-use"/);
});
