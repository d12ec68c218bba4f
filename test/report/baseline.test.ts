// `ptas report`: re-rendering saved results, the comparison with a baseline
// (newly failing, newly passing, changed load figures) and its exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compareWithBaseline } from '../../reports/baseline.ts';
import { terminalSummary } from '../../reports/terminal.ts';
import { renderHtml } from '../../reports/html.ts';
import { buildResults } from '../../src/results/build.ts';
import type { RunResults } from '../../src/results/model.ts';
import type { Verdict } from '../../src/check/model.ts';
import { fromRoot } from '../../src/paths.ts';
import { syntheticResults } from './support/synthetic.ts';

/** The same run with some verdicts changed, the verdict and counts recomputed. */
function withVerdicts(base: RunResults, changes: Record<string, Verdict>): RunResults {
  const checks = base.checks.map((c) => (changes[c.id] ? { ...c, verdict: changes[c.id]!, reason: `now ${changes[c.id]}` } : c));
  return buildResults({ run: base.run, checks, load: base.load, errors: base.errors });
}

const base = syntheticResults({ checks: 60, loadRequests: 100_000, seed: 3 });
const passing = base.checks.filter((c) => c.verdict === 'PASS').map((c) => c.id);
const failing = base.checks.filter((c) => c.verdict === 'FAIL').map((c) => c.id);

test('newly failing, newly passing and other verdict changes are told apart', () => {
  const now = withVerdicts(base, { [passing[0]!]: 'FAIL', [passing[1]!]: 'ERROR', [passing[2]!]: 'WARN', [failing[0]!]: 'PASS', [failing[1]!]: 'ERROR' });
  const diff = compareWithBaseline(base, now);
  assert.deepEqual(diff.newlyFailing.map((c) => [c.id, c.before, c.after]), [
    [passing[0], 'PASS', 'FAIL'],
    [passing[1], 'PASS', 'ERROR'],
  ].sort((a, b) => now.checks.findIndex((c) => c.id === a[0]) - now.checks.findIndex((c) => c.id === b[0])));
  assert.deepEqual(diff.newlyPassing.map((c) => [c.id, c.before, c.after]), [[failing[0], 'FAIL', 'PASS']]);
  assert.deepEqual(diff.otherChanges.map((c) => [c.id, c.before, c.after]).sort(), [[failing[1], 'FAIL', 'ERROR'], [passing[2], 'PASS', 'WARN']].sort());
  assert.equal(diff.regressions, 2);
  assert.deepEqual(diff.load, [], 'same load section, no changed figure');
  assert.deepEqual(diff.notes, []);
});

test('a check that appears failing is a regression; one that disappears is a change', () => {
  const now = structuredClone(base);
  const gone = now.checks.shift()!;
  now.checks.push({ ...structuredClone(gone), id: 'auth.brand-new-check', verdict: 'FAIL', reason: 'new and failing' });
  const diff = compareWithBaseline(base, buildResults({ run: now.run, checks: now.checks, load: now.load }));
  assert.deepEqual(diff.newlyFailing.map((c) => [c.id, c.before]), [['auth.brand-new-check', undefined]]);
  assert.deepEqual(diff.otherChanges.map((c) => [c.id, c.before, c.after]), [[gone.id, gone.verdict, undefined]]);
  assert.equal(diff.regressions, 1);
});

test('load figures are compared beyond their noise, with the direction that is worse', () => {
  const now = structuredClone(base);
  const probe = now.load!.probes.find((p) => p.kind === 'rate-limit')!;
  if (probe.kind !== 'rate-limit') throw new Error('fixture');
  probe.onsetRps = probe.onsetRps! - 20;
  const size = now.load!.probes.find((p) => p.kind === 'body-size')!;
  if (size.kind !== 'body-size') throw new Error('fixture');
  size.smallestRejectedBytes = size.smallestRejectedBytes! * 2;
  const [first, second] = now.load!.profiles;
  first!.latency = { ...first!.latency, p95Ms: first!.latency.p95Ms * 1.5, p99Ms: first!.latency.p99Ms * 1.05 };
  second!.achievedRps = second!.achievedRps * 0.5;
  const diff = compareWithBaseline(base, now);
  const seen = diff.load.map((c) => `${c.subject} | ${c.figure} | ${c.change}`).sort();
  assert.deepEqual(seen, [
    `load.token-rate-limit (POST /v1/oauth/token) | 429 onset | changed`,
    `load.token-body-size-limit (POST /v1/oauth/token) | smallest 413 body | changed`,
    `profile ${first!.scenario} (${first!.operation}) | p95 latency | worse`,
    `profile ${second!.scenario} (${second!.operation}) | achieved rate | worse`,
  ].sort());
  const p95 = diff.load.find((c) => c.figure === 'p95 latency')!;
  assert.ok(Math.abs(p95.relative! - 0.5) < 1e-9);
  assert.equal(diff.regressions, 0, 'load figures inform; failing checks are the regressions');
});

test('the comparison notes another target, spec or profile', () => {
  const other = structuredClone(base);
  other.run.target = 'https://elsewhere.example';
  other.run.profileHash = 'sha256:ffffffffffff';
  const diff = compareWithBaseline(other, base);
  assert.equal(diff.notes.length, 2);
});

test('the terminal summary and the page carry the comparison', () => {
  const now = withVerdicts(base, { [passing[0]!]: 'FAIL', [failing[0]!]: 'PASS' });
  const diff = compareWithBaseline(base, now);
  const summary = terminalSummary(now, undefined, diff);
  assert.match(summary, /1 newly failing, 1 newly passing, 0 other changes, 0 load figures changed; 1 regression/);
  assert.ok(summary.includes(`newly failing  FAIL ${passing[0]} `));
  assert.ok(summary.includes(`newly passing  PASS ${failing[0]} `));
  const html = renderHtml(now, { diff });
  assert.match(html, /<section id="baseline">/);
  assert.ok(html.includes(`"newlyFailing":[{"id":"${passing[0]}"`));
});

// ---- the command ---------------------------------------------------------

function ptas(...args: string[]) {
  const result = spawnSync(process.execPath, [fromRoot('bin', 'ptas.js'), ...args], { cwd: fromRoot(), encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('ptas report re-renders, compares and exits by the rules', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-report-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const before = path.join(dir, 'before.json');
  const after = path.join(dir, 'after.json');
  writeFileSync(before, JSON.stringify(base));
  writeFileSync(after, JSON.stringify(withVerdicts(base, { [passing[0]!]: 'FAIL' })));

  const plain = ptas('report', before, '--out', path.join(dir, 'plain'));
  assert.equal(plain.code, 0, plain.stderr);
  assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'plain', 'results.json'), 'utf8')), JSON.parse(JSON.stringify(base)));
  assert.match(readFileSync(path.join(dir, 'plain', 'index.html'), 'utf8'), /id="verdict">NOT CONFORMANT</);
  assert.match(readFileSync(path.join(dir, 'plain', 'junit.xml'), 'utf8'), /<testsuites /);

  const compared = ptas('report', after, '--baseline', before, '--out', path.join(dir, 'compared'));
  assert.equal(compared.code, 0, 'without --fail-on-regression a regression is reported, not an exit code');
  assert.ok(compared.stdout.includes(`newly failing  FAIL ${passing[0]}`), compared.stdout);
  assert.match(readFileSync(path.join(dir, 'compared', 'index.html'), 'utf8'), /<section id="baseline">/);

  assert.equal(ptas('report', after, '--baseline', before, '--out', path.join(dir, 'gate'), '--fail-on-regression').code, 1);
  assert.equal(ptas('report', before, '--baseline', after, '--out', path.join(dir, 'better'), '--fail-on-regression').code, 0, 'only improvements');

  const missing = ptas('report', path.join(dir, 'nope.json'));
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no results file at .*nope\.json/);
  writeFileSync(path.join(dir, 'garbage.json'), '{"schemaVersion": 1, "checks": "no"');
  const garbage = ptas('report', path.join(dir, 'garbage.json'));
  assert.equal(garbage.code, 2);
  assert.match(garbage.stderr, /garbage\.json is not JSON/);
  const wrongShape = { ...base, verdict: 'GREAT' };
  writeFileSync(path.join(dir, 'shape.json'), JSON.stringify(wrongShape));
  const shape = ptas('report', path.join(dir, 'shape.json'));
  assert.equal(shape.code, 2);
  assert.match(shape.stderr, /shape\.json is not a ptas results file .*\/verdict must be equal to one of the allowed values/);
  const badBaseline = ptas('report', after, '--baseline', path.join(dir, 'nope.json'));
  assert.equal(badBaseline.code, 2);
});
