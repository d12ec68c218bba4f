// `ptas rejudge` as a certifier or a lab uses it (README "Judging stored runs
// again"): a real run's bundle judged again by the same suite gives every
// verdict it has, nothing sent; with --out it becomes a new bundle that names
// the one it came from and that `ptas verify` accepts; a bundle whose stored
// verdict an older policy gave lists exactly that flip, with both bases; a
// results.json alone, one recorded before records existed, a bundle changed
// after its run and --out onto the run itself are each handled as said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunResults } from '../../src/results/model.ts';
import { countVerdicts, runVerdict, verdictInputOf } from '../../src/results/verdict.ts';
import { MANIFEST_FILE, serializeManifest, sha256Hex, type Manifest } from '../../src/certify/manifest.ts';
import { verifyBundle } from '../../app/verify/verify-bundle.ts';
import { writeReport } from '../../reports/write.ts';
import { rehashArtifacts } from '../../app/certify/write-bundle.ts';
import { runPtas } from '../support/cli.ts';
import { RejudgeRefused, rejudgeStored } from '../../app/rejudge/rejudge.ts';
import { listAllChecks } from '../../app/run/list.ts';
import { rejudgedText } from '../../reports/rejudged.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'ptas-rejudge-'));
const CHECK = 'auth.missing-bearer-is-401';
const run = path.join(root, 'run');
// A real run of the bundled reference with a fault its check FAILs on, whole so that its bundle certifies: the bundle every case below starts from.
const ran = await runPtas(['run', '--fault', 'missing-bearer-allowed', '--out', run]);
const stored = JSON.parse(readFileSync(path.join(run, 'results.json'), 'utf8')) as RunResults;
// The cases that need no exit code or flag of the command line judge in this process (each ptas process costs seconds of CPU).
await listAllChecks();
const textOf = (account: Awaited<ReturnType<typeof rejudgeStored>>[number]) => rejudgedText({ ...account, suiteVersion: account.results.run.suiteVersion });

const copyOf = (name: string) => {
  const dir = path.join(root, name);
  cpSync(run, dir, { recursive: true });
  return dir;
};

/** The bundle's results.json rewritten by `edit` and its reports and manifest brought in line, as a run judged by another suite would have left them. */
function rewritten(dir: string, edit: (results: RunResults) => RunResults): void {
  const edited = edit(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResults);
  writeReport({ ...edited, verdict: runVerdict(verdictInputOf(edited)), counts: countVerdicts(edited.checks) }, dir);
  rehashArtifacts(dir);
}

test('the run the cases start from FAILed its check on its requirement', () => {
  assert.equal(ran.code, 1, ran.stderr);
  const check = stored.checks.find((c) => c.id === CHECK)!;
  assert.equal(check.verdict, 'FAIL');
  // Its record keeps the rule it applied to the answer and what that read, not the FAIL the rule made of it.
  assert.ok(check.record?.claims.some((e) => 'rule' in e && e.rule.rule === 'unauthorized' && e.rule.status === 200 && e.ended), JSON.stringify(check.record));
});

test('judged again by the same suite: every verdict as it was, exit code as ptas run gave', async () => {
  const again = await runPtas(['rejudge', run]);
  assert.equal(again.code, 1, again.stderr);
  assert.match(again.stdout, /\n {2}0 changed: NOT CONFORMANT → NOT CONFORMANT; certifiable yes → yes\n/);
  assert.match(again.stdout, /nothing sent to the implementation/);
});

test('--out writes a new bundle naming the one it came from, which ptas verify accepts', async () => {
  const out = path.join(root, 'rejudged');
  const again = await runPtas(['rejudge', run, '--out', out]);
  assert.equal(again.code, 1, again.stderr);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  assert.deepEqual(results.run.rejudgedFrom, {
    suiteVersion: stored.run.suiteVersion,
    resultsSha256: sha256Hex(readFileSync(path.join(run, 'results.json'))),
    manifestSha256: sha256Hex(readFileSync(path.join(run, 'manifest.json'))),
  });
  const pick = (r: RunResults) => r.checks.map((c) => [c.id, c.verdict, c.reason, c.basis, c.findings]);
  assert.deepEqual(pick(results), pick(stored), 'every check judged as the run judged it: verdict, reason, basis, findings');
  const verified = await runPtas(['verify', out]);
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
});

test('a bundle whose stored verdict an older policy gave: exactly that check flips, shown with both bases', async () => {
  const old = copyOf('older-policy');
  // As a policy that held an answer to a request without a bearer at most a WARN would have judged it.
  rewritten(old, (r) => ({ ...r, checks: r.checks.map((c) => (c.id === CHECK ? { ...c, verdict: 'WARN', basis: undefined } : c)) }));
  const again = await runPtas(['rejudge', old, '--json']);
  assert.equal(again.code, 1, again.stderr);
  const report = JSON.parse(again.stdout) as {
    runs: Array<{ verdict: { before: string; after: string }; certifiable: { after: boolean }; checks: Array<{ id: string; new: boolean; before: { verdict: string; basis?: string }; after: { verdict: string; basis?: string } }> }>;
  };
  const [one] = report.runs;
  // The fault also broke other checks' requirements (a bearer is required everywhere): the run stays NOT CONFORMANT.
  assert.deepEqual(one!.verdict, { before: 'NOT CONFORMANT', after: 'NOT CONFORMANT' });
  assert.deepEqual(one!.checks.map((c) => [c.id, c.before.verdict, c.after.verdict, c.new]), [[CHECK, 'WARN', 'FAIL', false]]);
  assert.equal(one!.checks[0]!.before.basis, undefined);
  assert.match(one!.checks[0]!.after.basis!, /5 rule 1: "Every REST operation/);
  const text = textOf((await rejudgeStored({ paths: [old] }))[0]!);
  assert.match(text, /1 changed: NOT CONFORMANT → NOT CONFORMANT/);
  assert.match(text, new RegExp(`WARN → FAIL\\s+${CHECK.replace(/\./g, '\\.')} \\[target\\]`));
  assert.match(text, /after: {2}FAIL: .*; on spec .*5 rule 1: "Every REST operation/);
  assert.match(text, /certifiable yes → yes/);
});

test('ptas verify: a verdict changed after the run, every report, count and hash rewritten to agree, is caught by what the check recorded', async () => {
  const forged = copyOf('forged');
  rewritten(forged, (r) => ({ ...r, checks: r.checks.map((c) => (c.id === CHECK ? { ...c, verdict: 'PASS', reason: undefined, basis: undefined } : c)) }));
  // The manifest made to record the forged verdict and counts too: only the judgment of the record is left to tell.
  const results = JSON.parse(readFileSync(path.join(forged, 'results.json'), 'utf8')) as RunResults;
  const manifest = JSON.parse(readFileSync(path.join(forged, MANIFEST_FILE), 'utf8')) as Manifest;
  writeFileSync(path.join(forged, MANIFEST_FILE), serializeManifest({ ...manifest, run: { ...manifest.run, verdict: results.verdict, counts: results.counts } }));
  const report = await verifyBundle(forged);
  assert.equal(report.problem?.name, 'judgments', JSON.stringify(report.steps));
  assert.equal(report.problem?.detail, `results.json: check ${CHECK} (target target) says PASS, but what it recorded judges to FAIL: its verdict was changed after the run`);
  const honest = await verifyBundle(run);
  assert.match(honest.steps.find((s) => s.name === 'judgments')!.detail, /^\d+ verdicts are what their checks' records judge to/);
});

test('a results.json alone is judged again, and --out writes a report, not a bundle', async () => {
  const alone = path.join(root, 'alone');
  cpSync(path.join(run, 'results.json'), path.join(alone, 'results.json'), { recursive: true });
  const out = path.join(root, 'alone-out');
  const [again] = await rejudgeStored({ paths: [path.join(alone, 'results.json')], outDir: out });
  assert.equal(again!.results.verdict, 'NOT CONFORMANT');
  assert.match(textOf(again!), /a report: the source was a results\.json, not a bundle/);
  assert.ok(existsSync(path.join(out, 'index.html')) && !existsSync(path.join(out, 'manifest.json')));
});

test('checks recorded before records existed keep their verdicts and are named as not judged again', async () => {
  const before = copyOf('no-records');
  rewritten(before, (r) => ({ ...r, checks: r.checks.map(({ record: _record, ...c }) => c) }));
  const [one] = await rejudgeStored({ paths: [before] });
  assert.deepEqual(one!.preview.checks, []);
  assert.deepEqual(one!.preview.notJudged.map((n) => n.why), ['no-record']);
  assert.equal(one!.preview.notJudged[0]!.checks.length, stored.checks.length);
});

test('refused: a bundle changed after its run, and --out onto the run itself (exit 2, named)', async () => {
  const tampered = copyOf('tampered');
  const file = path.join(tampered, 'results.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('"verdict":"FAIL"', '"verdict":"PASS"'));
  const changed = await runPtas(['rejudge', tampered]);
  assert.equal(changed.code, 2);
  assert.match(changed.stderr, /not the bundle its manifest describes \(results\.json: its SHA-256 differs/);
  await assert.rejects(rejudgeStored({ paths: [run], outDir: run }), (error: Error) => error instanceof RejudgeRefused && /--out .* holds .*: write the run judged again into a new folder/.test(error.message));
  rmSync(root, { recursive: true, force: true });
});
