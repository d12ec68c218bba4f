// Running again only what failed or did not run (README "Certification
// package", `ptas run --rerun-of`): the plan picks FAIL, FLAKY, ERROR, SKIP
// and the checks of the run's selection that have no verdict, nothing else;
// `ptas merge` joins the run and its re-run as two attempts of one part, a
// check the re-run left alone keeps its one attempt, and the merged bundle is
// what `ptas verify` accepts. The first test merges synthetic bundles written
// as `ptas run` writes them; the second walks the command line on the
// embedded reference with a fault, narrowed to the auth checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CheckResult, Verdict } from '../../src/check/model.ts';
import { MANIFEST_FILE, type Manifest } from '../../src/certify/manifest.ts';
import { CROSSCUT_CHECKS } from '../../src/crosscut/index.ts';
import { LOAD_CHECKS } from '../../load/checks.ts';
import { buildResults } from '../../src/results/build.ts';
import type { RunResults } from '../../src/results/model.ts';
import { suiteVersion, specVersion } from '../../src/version.ts';
import { writeReport } from '../../reports/write.ts';
import { requiredCheckIds } from '../../app/certify/required-checks.ts';
import { writeBundle } from '../../app/certify/write-bundle.ts';
import { listAllChecks, listConformanceChecks } from '../../app/run/list.ts';
import { readRerunBase, rerunPlan } from '../../app/run/rerun.ts';
import { targetSelects } from '../../runner/run-targets.ts';
import { checkTags } from '../../runner/define.ts';
import { verifyBundle } from '../../app/verify/verify-bundle.ts';
import { exchange } from '../support/attempt-fixtures.ts';
import { runPtas } from '../support/cli.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-rerun-'));
const TARGET = 'https://sandbox.example.com';
const all = (await listAllChecks()).filter((c) => !CROSSCUT_CHECKS.some((x) => x.id === c.id));
const conformance = await listConformanceChecks();
const requiredChecks = await requiredCheckIds();

/** The base run's checks that did not observe the implementation, and one its interruption left without a verdict. */
const ERRORED = 'users.accept-language-accepted';
const SKIPPED = 'trading.accepted-202-reaches-terminal-status';
const UNREACHED = 'webhooks.retry-after-timeout';
/** A prefix of another check's id: the re-run's grep must select the one and not the other. */
const PREFIX = 'auth.refresh-token-single-use';

function result(id: string, verdict: Verdict, reason?: string): CheckResult {
  const meta = all.find((c) => c.id === id)!;
  return { ...meta, verdict, ...(reason ? { reason } : {}), findings: [], evidence: [], timeline: [], target: TARGET, durationMs: 10 };
}

/** A whole run (no --shard), as `ptas run --out dir` would leave it (unsigned). */
function writeRun(dir: string, startedAt: string, checks: CheckResult[], extra: { grep?: string; interrupted?: string } = {}): string {
  const finishedAt = new Date(Date.parse(startedAt) + 60_000).toISOString();
  const results = buildResults({
    run: { target: TARGET, suiteVersion, specVersion: specVersion(), profileHash: 'sha256:0123456789ab', startedAt, finishedAt, durationMs: 60_000, insecureTls: false, interrupted: extra.interrupted },
    checks,
  });
  writeReport(results, dir);
  writeBundle({ dir, results, profile: { salt: 'ab', hashedSecrets: [], content: { baseUrl: TARGET } }, tlsCertificateSha256: null, requiredChecks, ...(extra.grep ? { grep: extra.grep } : {}) });
  return dir;
}

test('a run whose checks ERRORed, SKIPped or were never reached: the re-run plan picks exactly those, and the merge with the re-run is CONFORMANT, certifiable and verified', async () => {
  const root = tmp();
  const base = writeRun(
    path.join(root, 'night'),
    '2026-12-31T20:00:00.000Z',
    all
      .filter((c) => c.id !== UNREACHED)
      .map((c) => (c.id === ERRORED ? result(c.id, 'ERROR', 'the connection was reset') : c.id === SKIPPED ? result(c.id, 'SKIP', 'set trading.pollDeadlineMs') : result(c.id, c.id === 'auth.tokens-verify-against-jwks' ? 'REVIEW' : 'PASS')))
      // One JSON error answer recorded, so the cross-cutting check the merge judges again has something to judge.
      .map((c) => (c.id === 'auth.client-id-required' ? { ...c, evidence: [exchange('a refused grant', 400)] } : c)),
    { interrupted: 'interrupted (SIGINT)' },
  );
  const { results, manifest } = readRerunBase(base);
  const plan = rerunPlan(results, manifest, conformance);
  assert.deepEqual(plan.checkIds.sort(), [ERRORED, SKIPPED, UNREACHED].sort(), 'FAIL, FLAKY, ERROR, SKIP and no verdict; never PASS, WARN or REVIEW');
  assert.equal(plan.load, false, 'every load check has a verdict that observed the implementation');
  const selected = conformance.filter((meta) => targetSelects({ grep: plan.grep }, meta.title, checkTags(meta))).map((m) => m.id);
  assert.deepEqual(selected.sort(), plan.checkIds.sort(), 'the grep selects exactly the planned checks');

  // The re-run, later, of those three only: each passes.
  const again = writeRun(path.join(root, 'night-again'), '2026-12-31T22:00:00.000Z', plan.checkIds.map((id) => result(id, 'PASS')), { grep: plan.grep });
  const merged = path.join(root, 'merged');
  const merge = await runPtas(['merge', base, again, '--out', merged]);
  assert.equal(merge.code, 0, merge.stdout + merge.stderr);
  assert.match(merge.stdout, /ptas merge: 2 bundles merged\n\nCONFORMANT {2}https:\/\/sandbox\.example\.com\n/);
  const mergedResults = JSON.parse(readFileSync(path.join(merged, 'results.json'), 'utf8')) as RunResults;
  const attempts = (id: string) => mergedResults.checks.find((c) => c.id === id)?.attempts?.map((a) => [a.run.attempt, a.verdict, a.decisive]);
  assert.deepEqual(attempts(ERRORED), [[1, 'ERROR', false], [2, 'PASS', true]]);
  assert.deepEqual(attempts(SKIPPED), [[1, 'SKIP', false], [2, 'PASS', true]]);
  assert.deepEqual(attempts(UNREACHED), [[2, 'PASS', true]], 'only the re-run reached it');
  assert.deepEqual(attempts('auth.client-id-required'), [[1, 'PASS', true]], 'a check the re-run left alone keeps its one attempt');
  assert.equal(mergedResults.run.interrupted, undefined, 'the re-run supersedes the interruption');
  assert.deepEqual(mergedResults.run.mergedFrom?.map((p) => `${p.index}/${p.total}#${p.attempt}`), ['1/1#1', '1/1#2']);
  assert.deepEqual(mergedResults.certification?.gaps, [], 'certifiable');
  const verified = await verifyBundle(merged);
  assert.equal(verified.problem, undefined, JSON.stringify(verified.problem));

  // A merged bundle is not merged again: its runs are.
  const twice = await runPtas(['merge', merged, again, '--out', path.join(root, 'merged-again')]);
  assert.equal(twice.code, 2, twice.stdout + twice.stderr);
  assert.match(twice.stderr, /already a merge of 2 run\(s\): give the runs it was merged from/);
  // A run narrowed by its --grep: a re-run plans only the checks that grep selected.
  const narrowed = writeRun(path.join(root, 'narrowed'), '2026-12-31T20:00:00.000Z', [result(PREFIX, 'FAIL', 'reused'), result(`${PREFIX}-race`, 'PASS')], { grep: '@area:auth' });
  const narrowedBase = readRerunBase(narrowed);
  const narrowedPlan = rerunPlan(narrowedBase.results, narrowedBase.manifest, conformance);
  assert.ok(narrowedPlan.checkIds.includes(PREFIX) && !narrowedPlan.checkIds.includes(`${PREFIX}-race`));
  assert.ok(narrowedPlan.checkIds.every((id) => id.startsWith('auth.')), narrowedPlan.checkIds.join(', '));
  assert.equal(narrowedPlan.load, true, 'the run has no load stage: its re-run runs it');
  const race = conformance.find((c) => c.id === `${PREFIX}-race`)!;
  assert.equal(targetSelects({ grep: narrowedPlan.grep }, race.title, checkTags(race)), false, 'an id that is a prefix of another selects only itself');
});

test('ptas run --rerun-of on the command line: only the failed checks run again, with the run\'s nonce; ptas merge makes two attempts of them; refusals name the fix', async () => {
  const root = tmp();
  const base = path.join(root, 'base');
  // The auth checks against a reference that lets a refresh token be reused: two FAIL, the rest pass.
  const first = await runPtas(['run', '--no-load', '--workers', '2', '--grep', '@area:auth', '--fault', 'refresh-token-reusable', '--nonce', 'N-1', '--out', base]);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const baseResults = JSON.parse(readFileSync(path.join(base, 'results.json'), 'utf8')) as RunResults;
  const failed = baseResults.checks.filter((c) => c.verdict === 'FAIL').map((c) => c.id).sort();
  assert.deepEqual(failed, ['auth.refresh-token-single-use', 'auth.refresh-token-single-use-race']);

  const again = path.join(root, 'again');
  const rerun = await runPtas(['run', '--no-load', '--workers', '2', '--rerun-of', base, '--fault', 'refresh-token-reusable', '--out', again]);
  assert.equal(rerun.code, 1, rerun.stdout + rerun.stderr);
  assert.match(rerun.stdout, new RegExp(`a re-run of 2 check\\(s\\): join it to the run with ptas merge ${base} ${again} --out MERGED`));
  const againResults = JSON.parse(readFileSync(path.join(again, 'results.json'), 'utf8')) as RunResults;
  const ran = againResults.checks.filter((c) => !CROSSCUT_CHECKS.some((x) => x.id === c.id)).map((c) => c.id).sort();
  assert.deepEqual(ran, failed, 'the re-run ran the failed checks and nothing else');
  const againManifest = JSON.parse(readFileSync(path.join(again, MANIFEST_FILE), 'utf8')) as Manifest;
  assert.equal(againManifest.run.nonce, 'N-1', 'the run\'s nonce, without --nonce');

  const merged = path.join(root, 'merged');
  const merge = await runPtas(['merge', base, again, '--out', merged]);
  assert.equal(merge.code, 1, merge.stdout + merge.stderr);
  const mergedResults = JSON.parse(readFileSync(path.join(merged, 'results.json'), 'utf8')) as RunResults;
  for (const id of failed) assert.deepEqual(mergedResults.checks.find((c) => c.id === id)?.attempts?.map((a) => a.verdict), ['FAIL', 'FAIL'], id);
  const verify = await runPtas(['verify', merged, '--nonce', 'N-1']);
  // Every integrity step holds; only the required checks the narrowed run never selected keep it from certifying.
  assert.match(verify.stdout, /✔ nonce/);
  assert.match(verify.stdout, /✔ results\.json +NOT CONFORMANT, \d+ checks, \d+ with attempts that fold to their verdict/);
  assert.match(verify.stdout, /✖ required checks/);

  // Nothing to do: a run whose every check observed the implementation.
  const clean = path.join(root, 'clean');
  assert.equal((await runPtas(['run', '--no-load', '--workers', '1', '--grep', '@check:auth.client-id-required(\\s|$)', '--out', clean])).code, 0);
  const nothing = await runPtas(['run', '--no-load', '--rerun-of', clean, '--out', path.join(root, 'nothing')]);
  assert.equal(nothing.code, 0, nothing.stdout + nothing.stderr);
  assert.match(nothing.stdout, /nothing to re-run: every check of .* has a verdict that observed the implementation/);

  const refusals: Array<[string[], RegExp]> = [
    [['--rerun-of', base, '--grep', '@area:users'], /--rerun-of chooses the checks itself: leave out --grep and --shard/],
    [['--rerun-of', root], /--rerun-of .*: no manifest\.json there/],
    [['--rerun-of', merged], /--rerun-of .*: a merged bundle; give the run it was merged from/],
    [['--rerun-of', base, '--nonce', 'N-2'], /--nonce N-2 is not the nonce of the run in .* \(N-1\)/],
  ];
  for (const [args, message] of refusals) {
    const refused = await runPtas(['run', '--no-load', ...args, '--out', path.join(root, 'refused')]);
    assert.equal(refused.code, 2, `${args.join(' ')}: ${refused.stdout}${refused.stderr}`);
    assert.match(refused.stderr, message);
  }
});

test('a run whose conformance checks all observed the implementation but whose load stage ERRORed: the re-run is the load stage alone', () => {
  const erroredLoad = LOAD_CHECKS[0]!.id;
  const base = writeRun(
    path.join(tmp(), 'night'),
    '2026-12-31T20:00:00.000Z',
    all.map((c) => (c.id === erroredLoad ? result(c.id, 'ERROR', 'the probe could not reach a refusal') : result(c.id, 'PASS'))),
  );
  const { results, manifest } = readRerunBase(base);
  const plan = rerunPlan(results, manifest, conformance);
  assert.deepEqual(plan.checkIds, [], 'no conformance check asks for another attempt');
  assert.equal(plan.load, true, 'a load check ERRORed');
  assert.equal(conformance.filter((meta) => targetSelects({ grep: plan.grep }, meta.title, checkTags(meta))).length, 0, 'the grep selects no check');
});
