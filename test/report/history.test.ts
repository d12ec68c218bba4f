// `ptas report --history`: three nights written as results.json files (out of
// order, one in a folder of nights), read back, ordered by their start, the
// grid of checks × nights with regressions marked, checks that appear and
// disappear, a verdict this version does not know, and the load figures
// drawn per night.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compareWithBaseline } from '../../reports/baseline.ts';
import { buildHistory, isRegression } from '../../reports/history.ts';
import { historyFiles, readHistory } from '../../reports/history-read.ts';
import { cspHash } from '../../reports/html/embed.ts';
import { renderHistoryHtml } from '../../reports/html/history.ts';
import { ResultsFileError } from '../../reports/read-results.ts';
import type { RunResults } from '../../src/results/model.ts';
import { run } from './support/nights.ts';

const NIGHT_1 = run(
  '2026-11-20T02:17:00.000Z',
  [
    { id: 'auth.a', verdict: 'PASS' },
    { id: 'auth.b', verdict: 'PASS' },
    { id: 'auth.c', verdict: 'FAIL', reason: 'failing from the start' },
    { id: 'auth.d', verdict: 'PASS' },
  ],
  { onsetRps: 120, smallest413: 65_537, p95Ms: 12 },
);
const NIGHT_2 = run(
  '2026-11-21T02:17:00.000Z',
  [
    { id: 'auth.a', verdict: 'PASS' },
    { id: 'auth.b', verdict: 'FAIL', reason: 'broke on the 21st' },
    { id: 'auth.c', verdict: 'FAIL', reason: 'still failing' },
    { id: 'auth.e', verdict: 'PASS' },
  ],
  { onsetRps: 80, smallest413: 65_537 },
);
const NIGHT_3 = run(
  '2026-11-22T02:17:00.000Z',
  [
    { id: 'auth.a', verdict: 'ERROR', reason: 'reset on the 22nd' },
    { id: 'auth.b', verdict: 'PASS' },
    { id: 'auth.c', verdict: 'FAIL', reason: 'still failing' },
    { id: 'auth.e', verdict: 'FAIL', reason: 'new check failing on the 22nd' },
    { id: 'auth.f', verdict: 'QUARANTINED', reason: 'a verdict from a newer ptas' },
  ],
  { onsetRps: 100, smallest413: 1_048_577, p95Ms: 30 },
);

/** The three nights on disk: the last one first, two as report folders, one inside a folder of nights. */
function writeNights(dir: string): string[] {
  const put = (rel: string, results: RunResults) => {
    mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), JSON.stringify(results));
  };
  put('tonight/results.json', NIGHT_3);
  put('kept/2026-11-20/results.json', NIGHT_1);
  put('kept/2026-11-21/results.json', NIGHT_2);
  writeFileSync(path.join(dir, 'kept', 'not-a-night.txt'), 'ignored');
  return [path.join(dir, 'tonight'), path.join(dir, 'kept')];
}

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-history-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('nights are found in files and folders and ordered by their start, not by how they were named', (t) => {
  const dir = tempDir(t);
  const inputs = writeNights(dir);
  assert.equal(historyFiles([...inputs, path.join(dir, 'tonight', 'results.json')]).length, 3, 'a night named twice counts once');
  const nights = readHistory(inputs);
  assert.deepEqual(nights.map((n) => n.results.run.startedAt), [NIGHT_1.run.startedAt, NIGHT_2.run.startedAt, NIGHT_3.run.startedAt]);
});

test('the grid marks regressions, and a check that appears or disappears shows as absent', (t) => {
  const history = buildHistory(readHistory(writeNights(tempDir(t))));
  const row = (id: string) => history.rows.find((r) => r.id === id)!;
  const cells = (id: string) => row(id).cells.map((c) => `${c.verdict ?? '-'}${c.regression ? '!' : ''}`).join(' ');
  assert.equal(cells('auth.a'), 'PASS PASS ERROR!');
  assert.equal(cells('auth.b'), 'PASS FAIL! PASS');
  assert.equal(cells('auth.c'), 'FAIL FAIL FAIL', 'a check failing from the first night never regresses');
  assert.equal(cells('auth.d'), 'PASS - -', 'gone after the first night');
  assert.equal(cells('auth.e'), '- PASS FAIL!', 'new on the second night, regressed on the third');
  assert.equal(cells('auth.f'), '- - QUARANTINED', 'an unknown verdict is kept as written');
  assert.deepEqual(history.nights.map((n) => n.regressions), [0, 1, 2]);
  assert.deepEqual(history.rows.slice(0, 3).map((r) => r.id).sort(), ['auth.a', 'auth.b', 'auth.e'], 'regressed rows come first');
  assert.deepEqual(row('auth.c').tally, [{ verdict: 'FAIL', count: 3 }]);
  assert.deepEqual(history.nights[2]!.counts.find((c) => c.verdict === 'QUARANTINED'), { verdict: 'QUARANTINED', count: 1 });
});

test('a regression on the page is what the baseline comparison gates on', () => {
  for (const [before, after] of [[NIGHT_1, NIGHT_2], [NIGHT_2, NIGHT_3]] as const) {
    const gate = compareWithBaseline(before, after).newlyFailing.map((c) => c.id).sort();
    const beforeOf = new Map(before.checks.map((c) => [c.id, c.verdict as string]));
    const page = after.checks.filter((c) => isRegression(beforeOf.get(c.id), c.verdict)).map((c) => c.id).sort();
    assert.deepEqual(page, gate);
  }
});

test('the load figures per night: 429 onset, 413 boundary and p95 latency, with a gap where a night did not measure', (t) => {
  const history = buildHistory(readHistory(writeNights(tempDir(t))));
  const series = (figure: string) => history.figures.find((f) => f.figure === figure)!.values;
  assert.deepEqual(series('429 onset'), [120, 80, 100]);
  assert.deepEqual(series('smallest 413 body'), [65_537, 65_537, 1_048_577]);
  assert.deepEqual(series('p95 latency'), [12, undefined, 30]);
});

test('history.html: self-contained, regressions seen at a glance, load charts drawn', (t) => {
  const html = renderHistoryHtml(buildHistory(readHistory(writeNights(tempDir(t)))));
  const style = html.match(/<style>([\s\S]*?)<\/style>/)![1]!;
  assert.ok(html.includes(`style-src ${cspHash(style)}`), 'the CSP allows exactly the inline style');
  assert.ok(html.includes("default-src 'none'"));
  assert.ok(!/<script|\ssrc=|href="(?!#)|url\(|@import/i.test(html), 'no script, no external asset');
  assert.match(html, /<span class="verdict" id="verdict">NOT CONFORMANT<\/span><span class="verdict-why">latest night · 3 nights, .* · 2 regressions in the latest night/);
  // The latest night's regressions on top, the earlier ones folded.
  const listed = (id: string) => [...html.match(new RegExp(`<ol class="regression-list" id="${id}">([\\s\\S]*?)</ol>`))![1]!.matchAll(/<li data-check="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(listed('latest-regressions'), ['auth.a', 'auth.e']);
  assert.deepEqual(listed('earlier-regressions'), ['auth.b']);
  assert.match(html, /2026-11-21 02:17<\/span> <span class="regression-mark">▲<\/span> <b>FAIL<\/b> <span class="check-id">auth\.b<\/span> \[[A-Z-]+\] \(was PASS\): <span class="reason">broke on the 21st/);
  // The grid: the regressed cell outlined and marked, absent cells, the unknown verdict neutral.
  const rowOf = (id: string) => html.match(new RegExp(`<tr[^>]*data-check="${id.replace('.', '\\.')}">([\\s\\S]*?)</tr>`))![1]!;
  assert.match(rowOf('auth.b'), /<td class="cell v-PASS" [^>]*>P<\/td><td class="cell v-FAIL regression" [^>]*>F<b class="mark">▲<\/b><\/td><td class="cell v-PASS"/);
  assert.match(rowOf('auth.d'), /<td class="cell v-PASS"[^>]*>P<\/td><td class="cell absent"[^>]*>·<\/td><td class="cell absent"/);
  assert.match(rowOf('auth.f'), /<td class="cell v-other" data-verdict="QUARANTINED" [^>]*>QUA<\/td>/);
  assert.ok(!rowOf('auth.c').includes('regression'), 'a check failing every night is not a regression');
  // Counts per night, with the regressions row.
  assert.match(html, /<tr><th class="v-FAIL">FAIL<\/th><td>1<\/td><td>2<\/td><td>2<\/td><\/tr>/);
  assert.match(html, /<tr><th class="regression-mark">Regressions<\/th><td>—<\/td><td>1<\/td><td>2<\/td><\/tr>/);
  // Load charts: one per figure, a point per measured night, a gap where none.
  const chart = (label: string) => html.match(new RegExp(`<svg class="chart trend"[^>]*aria-label="${label}"[\\s\\S]*?</svg>`))?.[0] ?? '';
  const onset = chart('429 onset: load\\.token-rate-limit \\(POST /v1/oauth/token\\)');
  assert.deepEqual([...onset.matchAll(/<circle[^>]*><title>([^<]+)<\/title>/g)].map((m) => m[1]), ['2026-11-20 02:17: 120 req/s', '2026-11-21 02:17: 80 req/s', '2026-11-22 02:17: 100 req/s']);
  assert.match(onset, /<path class="trend-line" d="M[\d.]+ [\d.]+ L[\d.]+ [\d.]+ L[\d.]+ [\d.]+"\/>/);
  assert.match(chart('smallest 413 body: load\\.token-body-size-limit \\(POST /v1/oauth/token\\)'), /1048577 B/);
  const p95 = chart('p95 latency: profile smoke \\(GET /v2/users/\\{id\\}\\)');
  assert.match(p95, /<path class="trend-line" d="M[\d.]+ [\d.]+ M[\d.]+ [\d.]+"\/>/, 'the night without a load profile breaks the line');
  assert.equal([...p95.matchAll(/<circle/g)].length, 2);
});

test('hostile text is escaped on the page', () => {
  const evil = run('2026-11-22T02:17:00.000Z', [{ id: 'auth.<img src=x>', verdict: 'FAIL', reason: '"><script>alert(1)</script>' }]);
  const before = run('2026-11-21T02:17:00.000Z', [{ id: 'auth.<img src=x>', verdict: 'PASS' }]);
  const html = renderHistoryHtml(buildHistory([{ file: 'a', results: before }, { file: 'b', results: evil }]));
  assert.ok(!html.includes('<script>') && !html.includes('<img'), 'no markup from the run');
  assert.ok(html.includes('&quot;&gt;&lt;script&gt;'));
});

test('a night that is not a results file is refused, naming the file and the field', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify({ ...NIGHT_1, run: { ...NIGHT_1.run, startedAt: 'yesterday' } }));
  assert.throws(() => readHistory([file]), (e: Error) => e instanceof ResultsFileError && e.message.includes('bad.json') && e.message.includes('run.startedAt'));
  writeFileSync(file, JSON.stringify({ ...NIGHT_1, checks: [{ id: 'auth.a' }] }));
  assert.throws(() => readHistory([file]), /checks\[0\]\.verdict must be a non-empty string/);
  writeFileSync(file, '{"schemaVersion": 1,');
  assert.throws(() => readHistory([file]), /bad\.json is not JSON/);
  mkdirSync(path.join(dir, 'empty'));
  assert.throws(() => readHistory([path.join(dir, 'empty')]), /empty holds no results\.json/);
  assert.throws(() => readHistory([path.join(dir, 'nowhere')]), /no results file or folder at .*nowhere/);
});

test('a night written by an older ptas, without the fields the page does not draw, is still read', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'old.json');
  writeFileSync(file, JSON.stringify({ run: { startedAt: '2026-01-01T00:00:00Z' }, verdict: 'CONFORMANT', checks: [{ id: 'auth.a', verdict: 'PASS' }] }));
  const history = buildHistory(readHistory([file]));
  assert.equal(history.rows[0]!.cells[0]!.verdict, 'PASS');
  assert.match(renderHistoryHtml(history), /<p class="muted">No night measured/);
});
