// `ptas merge` with a part that ran twice (README "Certification package"):
// each run of a part is an attempt, ordered by when it started; a check that
// FAILed in the first run and passed in the re-run is FLAKY, keeping the
// failure's evidence, and the run is NOT CONFORMANT; `ptas verify` accepts the
// merged bundle and catches a FLAKY turned into a PASS. The same run given
// twice stays a refused duplicate. The parts are synthetic bundles written as
// `ptas run --shard` writes them (reports/write.ts, app/certify/write-bundle.ts),
// so no real run is needed; the merge is the real command line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CheckResult, Verdict } from '../../src/check/model.ts';
import { verdictBasis } from '../../src/check/basis.ts';
import { MANIFEST_FILE, sha256Hex } from '../../src/certify/manifest.ts';
import { CROSSCUT_CHECKS } from '../../src/crosscut/index.ts';
import { buildResults } from '../../src/results/build.ts';
import type { RunResults } from '../../src/results/model.ts';
import { countVerdicts, runVerdict, verdictInputOf } from '../../src/results/verdict.ts';
import { suiteVersion, specVersion } from '../../src/version.ts';
import { writeReport } from '../../reports/write.ts';
import { requiredCheckIds } from '../../app/certify/required-checks.ts';
import { writeBundle } from '../../app/certify/write-bundle.ts';
import { mergeShards } from '../../app/merge/merge.ts';
import { listAllChecks } from '../../app/run/list.ts';
import { verifyBundle } from '../../app/verify/verify-bundle.ts';
import { exchange } from '../support/attempt-fixtures.ts';
import { runPtas } from '../support/cli.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-merge-attempts-'));
const TARGET = 'https://sandbox.example.com';
/** FAILs in part 2's first run, passes in its re-run. */
const FLAKY = 'auth.refresh-token-single-use';
/** Could not execute in part 2's first run (ERROR), passes in its re-run. */
const RECOVERED = 'users.accept-language-accepted';
const FAIL_REASON = 'refresh token reused at 21:13:47 was accepted: 200';

const all = (await listAllChecks()).filter((c) => !CROSSCUT_CHECKS.some((x) => x.id === c.id));
const requiredChecks = await requiredCheckIds();
const partOf = (id: string, i: number) => (id === FLAKY || id === RECOVERED ? 2 : (i % 2) + 1);
const ofPart = (part: number) => all.filter((c, i) => partOf(c.id, i) === part);
/** A part-2 check the first run never reached (it was interrupted): its only attempt is the re-run's. */
const UNREACHED = ofPart(2).find((c) => c.id !== FLAKY && c.id !== RECOVERED)!.id;

function result(meta: (typeof all)[number], verdict: Verdict, reason?: string): CheckResult {
  return { ...meta, verdict, ...(reason ? { reason } : {}), findings: [], evidence: [], timeline: [], target: TARGET, durationMs: 10 };
}

/** One run of one part, as `ptas run --shard index/2 --out dir` would leave it (unsigned). */
function writePart(dir: string, index: number, startedAt: string, checks: CheckResult[], interrupted?: string): string {
  const finishedAt = new Date(Date.parse(startedAt) + 60_000).toISOString();
  const results = buildResults({
    run: { target: TARGET, suiteVersion, specVersion: specVersion(), profileHash: 'sha256:0123456789ab', startedAt, finishedAt, durationMs: 60_000, insecureTls: false, shard: { index, total: 2 }, interrupted },
    checks,
  });
  writeReport(results, dir);
  writeBundle({ dir, results, profile: { salt: 'ab', hashedSecrets: [], content: { baseUrl: TARGET } }, tlsCertificateSha256: null, requiredChecks });
  return dir;
}

const root = tmp();
// Part 1: every check passes; one recorded a JSON error answer, so the cross-cutting check has something to judge.
const part1 = writePart(path.join(root, 'part1'), 1, '2026-12-31T20:00:00.000Z', ofPart(1).map((c, i) => (i === 0 ? { ...result(c, 'PASS'), evidence: [exchange('a refused grant', 400)] } : result(c, 'PASS'))));
// Part 2, first run: the machine broke halfway; one check FAILed, one could not execute, one was never reached.
const firstRun = writePart(
  path.join(root, 'part2'),
  2,
  '2026-12-31T21:00:00.000Z',
  ofPart(2)
    .filter((c) => c.id !== UNREACHED)
    .map((c) =>
      c.id === FLAKY
        ? { ...result(c, 'FAIL', FAIL_REASON), basis: verdictBasis(c.requirements), evidence: [exchange('second use of the refresh token', 200)] }
        : c.id === RECOVERED
          ? result(c, 'ERROR', 'the connection was reset')
          : result(c, 'PASS'),
    ),
  'the machine lost power (SIGTERM)',
);
// Part 2, re-run on another machine: everything passes.
const reRun = writePart(path.join(root, 'part2-rerun'), 2, '2026-12-31T23:30:00.000Z', ofPart(2).map((c) => (c.id === FLAKY ? { ...result(c, 'PASS'), evidence: [exchange('second use, re-run', 400)] } : result(c, 'PASS'))));
const manifestSha = (dir: string) => sha256Hex(readFileSync(path.join(dir, MANIFEST_FILE)));

test('a part run twice: the fail-then-pass check is FLAKY with both attempts and the failure\'s evidence, the run NOT CONFORMANT, and ptas verify accepts the bundle', async () => {
  const merged = path.join(tmp(), 'merged');
  // The re-run given before the first run: attempts are ordered by when their runs started, not by the command line.
  const merge = await runPtas(['merge', part1, reRun, firstRun, '--out', merged]);
  assert.equal(merge.code, 1, merge.stdout + merge.stderr);
  assert.match(merge.stdout, /ptas merge: 3 bundles merged\n\nNOT CONFORMANT {2}https:\/\/sandbox\.example\.com\n.* 1 flaky in /);
  assert.match(merge.stdout, /\n {2}FLAKY auth\.refresh-token-single-use \[TOKEN-REFRESH-SINGLE-USE\]: FAILed in attempt 1 of part 2\/2, then PASS in attempt 2/);

  const results = JSON.parse(readFileSync(path.join(merged, 'results.json'), 'utf8')) as RunResults;
  const check = (id: string) => results.checks.find((c) => c.id === id)!;
  const attempts = (id: string) => check(id).attempts?.map((a) => [a.run.attempt, a.verdict, a.decisive]);
  assert.equal(results.verdict, 'NOT CONFORMANT');
  assert.equal(results.counts.FLAKY, 1);
  assert.equal(results.counts.FAIL, 0);
  assert.equal(check(FLAKY).verdict, 'FLAKY');
  assert.deepEqual(attempts(FLAKY), [[1, 'FAIL', true], [2, 'PASS', false]]);
  assert.deepEqual(check(FLAKY).attempts!.map((a) => [a.run.manifestSha256, a.run.startedAt]), [[manifestSha(firstRun), '2026-12-31T21:00:00.000Z'], [manifestSha(reRun), '2026-12-31T23:30:00.000Z']]);
  assert.deepEqual(check(FLAKY).evidence.map((e) => e.label), ['second use of the refresh token'], 'the failing attempt\'s evidence');
  assert.equal(check(FLAKY).basis?.requirement, 'TOKEN-REFRESH-SINGLE-USE');
  assert.ok(check(FLAKY).reason!.endsWith(`failed: ${FAIL_REASON}`));
  assert.equal(check(RECOVERED).verdict, 'PASS', 'an ERROR then a PASS: the infrastructure retry recovered');
  assert.deepEqual(attempts(RECOVERED), [[1, 'ERROR', false], [2, 'PASS', true]]);
  assert.deepEqual(attempts(UNREACHED), [[2, 'PASS', true]], 'only the run that reached it');
  assert.equal(check(ofPart(1)[0]!.id).attempts, undefined, 'a part run once has no attempts');
  assert.equal(check('errors.error-bodies-are-json').verdict, 'PASS');
  assert.equal(results.run.interrupted, undefined, 'the re-run supersedes the interrupted first run');
  assert.deepEqual(results.run.mergedFrom?.map((p) => `${p.index}/${p.total}#${p.attempt}`), ['1/2#1', '2/2#1', '2/2#2']);
  assert.match(readFileSync(path.join(merged, 'junit.xml'), 'utf8'), /<testsuites name="ptas-conformance" tests="\d+" failures="1" errors="0"/);

  const verified = await verifyBundle(merged);
  assert.equal(verified.problem, undefined, JSON.stringify(verified.problem));
  assert.match(verified.steps.find((s) => s.name === 'results.json')!.detail, /^NOT CONFORMANT, \d+ checks, \d+ with attempts that fold to their verdict/);
  assert.match(verified.steps.find((s) => s.name === 'junit.xml')!.detail, / 1 failures, 0 errors, as results.json/);

  // A forger turns the FLAKY into a PASS, consistently: counts, verdict, every report and the manifest's hashes.
  const forged = path.join(tmp(), 'forged');
  cpSync(merged, forged, { recursive: true });
  const checks = results.checks.map((c) => (c.id === FLAKY ? { ...c, verdict: 'PASS' as const } : c));
  const edited = { ...results, checks, counts: countVerdicts(checks) };
  const rewritten = { ...edited, verdict: runVerdict(verdictInputOf(edited)) };
  assert.equal(rewritten.verdict, 'CONFORMANT');
  writeReport(rewritten, forged);
  writeBundle({ dir: forged, results: rewritten, profile: { salt: 'ab', hashedSecrets: [], content: {} }, tlsCertificateSha256: null, requiredChecks });
  const caught = await verifyBundle(forged);
  assert.equal(caught.problem?.name, 'results.json', JSON.stringify(caught.steps));
  assert.match(caught.problem!.detail, /check auth\.refresh-token-single-use \(target https:\/\/sandbox\.example\.com\): its attempts \(FAIL, PASS\) fold to FLAKY, not PASS/);
});

test('without the re-run the same parts give a FAIL and no attempts; the same run given twice, or a copy of it, is refused as a duplicate', async () => {
  const once = mergeShards({ dirs: [part1, firstRun], outDir: path.join(tmp(), 'once') }).results;
  assert.equal(once.checks.find((c) => c.id === FLAKY)?.verdict, 'FAIL');
  assert.equal(once.checks.find((c) => c.id === FLAKY)?.attempts, undefined);
  assert.equal(once.verdict, 'INCOMPLETE', 'the part\'s only run was interrupted');

  const twice = await runPtas(['merge', part1, firstRun, firstRun, '--out', path.join(tmp(), 'm')]);
  assert.equal(twice.code, 2, twice.stdout + twice.stderr);
  assert.match(twice.stderr, /shard 2\/2 given twice: .*part2 and .*part2 are the same run \(manifest\.json sha256 [0-9a-f]{12}…\); a re-run of a part has a manifest of its own and counts as an attempt/);
  const copy = path.join(tmp(), 'copy-of-part2');
  cpSync(firstRun, copy, { recursive: true });
  assert.throws(() => mergeShards({ dirs: [part1, firstRun, reRun, copy], outDir: path.join(tmp(), 'm') }), /shard 2\/2 given twice: .*part2 and .*copy-of-part2 are the same run/);

  // Two runs of a part that started at the same instant cannot be ordered: refused rather than guessed.
  const sameInstant = writePart(path.join(tmp(), 'part2-same-instant'), 2, '2026-12-31T21:00:00.000Z', ofPart(2).map((c) => result(c, 'PASS')));
  assert.throws(() => mergeShards({ dirs: [part1, firstRun, sameInstant], outDir: path.join(tmp(), 'm') }), /two runs started at the same instant \(2026-12-31T21:00:00\.000Z\)/);
});
