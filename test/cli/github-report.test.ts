// `ptas report --reporter github` and `ptas report --history` as real
// processes: annotations on stdout, the job summary appended to the file
// GITHUB_STEP_SUMMARY names, history.html written, and the usage errors when
// neither or both modes are given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPtas } from '../support/cli.ts';
import { REQ, run } from '../report/support/nights.ts';

const BEFORE = run('2026-11-21T02:17:00.000Z', [{ id: 'auth.a', verdict: 'PASS' }, { id: 'auth.b', verdict: 'FAIL', reason: 'old failure' }], { onsetRps: 120, smallest413: 65_537 });
const HOSTILE = 'accepted 100% of reused tokens: first, second\nthird line';
const AFTER = run('2026-11-22T02:17:00.000Z', [{ id: 'auth.a', verdict: 'FAIL', reason: HOSTILE, requirements: [REQ[0], REQ[1]] }, { id: 'auth.b', verdict: 'FAIL', reason: 'old failure' }], { onsetRps: 80, smallest413: 65_537 });

function setUp(t: { after: (fn: () => void) => void }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-gh-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, results: unknown) => {
    mkdirSync(path.join(dir, path.dirname(name)), { recursive: true });
    writeFileSync(path.join(dir, name), JSON.stringify(results));
    return path.join(dir, name);
  };
  return { dir, before: file('previous/results.json', BEFORE), after: file('bundle/results.json', AFTER) };
}

test('ptas report --reporter github: annotations on stdout, the summary appended to $GITHUB_STEP_SUMMARY', async (t) => {
  const { dir, before, after } = setUp(t);
  const summary = path.join(dir, 'step-summary.md');
  writeFileSync(summary, 'an earlier step of this job wrote this\n');
  const bundleBytes = readFileSync(after, 'utf8');
  const result = await runPtas(['report', after, '--baseline', before, '--reporter', 'github', '--out', path.join(dir, 'compared')], { env: { GITHUB_STEP_SUMMARY: summary } });
  assert.equal(result.code, 0, result.stderr);
  const annotations = result.stdout.split('\n').filter((l) => l.startsWith('::'));
  const errors = annotations.filter((l) => l.startsWith('::error '));
  assert.equal(errors.length, 2, `one ::error per FAIL:\n${annotations.join('\n')}`);
  assert.ok(errors[0]!.startsWith(`::error title=REGRESSION FAIL auth.a — ${REQ[0]}%2C ${REQ[1]} — spec `), errors[0]);
  assert.ok(errors[0]!.includes('::accepted 100%25 of reused tokens: first, second%0Athird line%0Aspec '), errors[0]);
  assert.ok(errors[1]!.startsWith('::error title=FAIL auth.b — '), 'the old failure is not a regression');
  assert.match(annotations.at(-1)!, /^::notice title=ptas%3A NOT CONFORMANT::2 checks found a contradiction .*; 1 regression since the baseline/);
  assert.match(result.stdout, /^NOT CONFORMANT {2}http:\/\/127\.0\.0\.1:40123$/m, 'the terminal summary is still printed');

  const md = readFileSync(summary, 'utf8');
  assert.ok(md.startsWith('an earlier step of this job wrote this\n## ptas: NOT CONFORMANT, compared with the baseline\n'), md.slice(0, 200));
  assert.match(md, /\| PASS \| FAIL \| WARN \| REVIEW \| SKIP \| ERROR \|[^\n]*\n[^\n]*\n\| 0 \| 2 \| 0 \| 0 \| 0 \| 0 \|/);
  assert.match(md, /### Failing checks \(2\)/);
  assert.match(md, /\| \*\*FAIL\*\* \| `auth.a` \| `[A-Z-]+`, `[A-Z-]+` \| .* \| accepted 100% of reused tokens: first, second third line \|/);
  assert.match(md, /#### Regressions: newly failing\n\n[^\n]*\n[^\n]*\n\| `auth.a` \| .* \| PASS \| FAIL \|/);
  assert.match(md, /\| 429 onset \| 80 req\/s \|/);
  assert.ok(existsSync(path.join(dir, 'compared', 'index.html')));
  assert.equal(readFileSync(after, 'utf8'), bundleBytes, '--out elsewhere leaves the bundle untouched');

  const gate = await runPtas(['report', after, '--baseline', before, '--reporter', 'github', '--fail-on-regression', '--out', path.join(dir, 'gate')], { env: { GITHUB_STEP_SUMMARY: '' } });
  assert.equal(gate.code, 1, 'a regression still fails the gate with the github reporter');
  assert.match(gate.stdout, /^::error title=REGRESSION FAIL auth\.a/m);
});

test('ptas report --history writes history.html over nights given as folders and files', async (t) => {
  const { dir, before, after } = setUp(t);
  const kept = path.join(dir, 'kept');
  const nightZero = run('2026-11-20T02:17:00.000Z', [{ id: 'auth.a', verdict: 'PASS' }, { id: 'auth.b', verdict: 'PASS' }], { onsetRps: 130, smallest413: 65_537 });
  mkdirSync(path.join(kept, '2026-11-20'), { recursive: true });
  writeFileSync(path.join(kept, '2026-11-20', 'results.json'), JSON.stringify(nightZero));
  const out = path.join(dir, 'history');
  const result = await runPtas(['report', '--history', after, kept, path.dirname(before), '--out', out]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /history of 3 nights, 2026-11-20T02:17:00\.000Z to 2026-11-22T02:17:00\.000Z: latest NOT CONFORMANT, 1 regression since the night before/);
  const html = readFileSync(path.join(out, 'history.html'), 'utf8');
  assert.match(html, /<ol class="regression-list" id="latest-regressions"><li data-check="auth\.a">/);
  assert.match(html, /<ol class="regression-list" id="earlier-regressions"><li data-check="auth\.b">/);
  assert.match(html, /<svg class="chart trend"[^>]*aria-label="429 onset: load\.token-rate-limit/);
  assert.ok(html.includes('2026-11-22 02:17: 80 req/s'));
});

test('ptas report refuses neither mode, both modes, and what only one mode reads', async (t) => {
  const { dir, after } = setUp(t);
  const cases: Array<[string[], RegExp]> = [
    [['report'], /name a saved run \(ptas report RESULTS\) or the nights of a history/],
    [['report', '--history', after], /--history needs --out DIR/],
    [['report', '--history', '--out', dir], /--history needs at least one night/],
    [['report', '--history', after, '--out', dir, '--reporter', 'github'], /--reporter github applies to one saved run, not to --history/],
    [['report', '--history', after, '--out', dir, '--baseline', after], /--baseline applies to one saved run/],
    [['report', after, '--reporter', 'teamcity'], /Invalid values:[\s\S]*reporter/],
  ];
  for (const [args, message] of cases) {
    const result = await runPtas(args);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
  }
  // `ptas report RESULTS --history …`: the positional is taken by --history's list, which reads every night.
  const both = await runPtas(['report', after, '--history', after, '--out', dir]);
  assert.match(both.stderr, /give a saved run .* or --history, not both/);
  writeFileSync(path.join(dir, 'broken.json'), '{"run": {}}');
  const broken = await runPtas(['report', '--history', path.join(dir, 'broken.json'), '--out', dir]);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /ptas report: .*broken\.json is not a ptas results file: run\.startedAt must be a date-time/);
});
