// `ptas verify` judges the bundle folder it was given, not what its entries
// point at (issue 28, finding 6): a listed file replaced by a symbolic link
// to an identical copy outside the bundle (the bytes hash as listed, but the
// folder a certifier archives or forwards no longer holds them), a link to a
// folder, the manifest itself as a link, and a FIFO (which a reader would
// block on) are each refused, exit 1 naming the path, before anything is
// hashed. The bundle is a synthetic one written as `ptas run` writes it
// (reports/write.ts, app/certify/write-bundle.ts: every check PASS, the
// catalogue's required checks), so it verifies as it is; the verify is the
// real command line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CheckResult } from '../../src/check/model.ts';
import { MANIFEST_FILE } from '../../src/certify/manifest.ts';
import { buildResults } from '../../src/results/build.ts';
import { suiteVersion, specVersion } from '../../src/version.ts';
import { writeReport } from '../../reports/write.ts';
import { requiredCheckIds } from '../../app/certify/required-checks.ts';
import { writeBundle } from '../../app/certify/write-bundle.ts';
import { listAllChecks } from '../../app/run/list.ts';
import { runPtas } from '../support/cli.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-verify-links-'));
const TARGET = 'https://sandbox.example.com';

/** A bundle as `ptas run --out dir` leaves it (unsigned), every check PASS. */
async function writeValidBundle(dir: string): Promise<void> {
  const checks: CheckResult[] = (await listAllChecks()).map((meta) => ({ ...meta, verdict: 'PASS', findings: [], evidence: [], timeline: [], target: TARGET, durationMs: 10 }));
  const startedAt = '2026-12-31T20:00:00.000Z';
  const results = buildResults({
    run: { target: TARGET, suiteVersion, specVersion: specVersion(), profileHash: 'sha256:0123456789ab', startedAt, finishedAt: '2026-12-31T20:01:00.000Z', durationMs: 60_000, insecureTls: false },
    checks,
  });
  writeReport(results, dir);
  writeBundle({ dir, results, profile: { salt: 'ab', hashedSecrets: [], content: { baseUrl: TARGET } }, tlsCertificateSha256: null, requiredChecks: await requiredCheckIds() });
}

const original = path.join(tmp(), 'bundle');
await writeValidBundle(original);
const copy = (): string => {
  const dir = path.join(tmp(), 'bundle');
  cpSync(original, dir, { recursive: true });
  return dir;
};
/** A copy of `file` outside the bundle, byte for byte, and the listed file replaced by a link to it. */
function linkToCopyOutside(dir: string, file: string): string {
  const outside = path.join(tmp(), path.basename(file));
  renameSync(path.join(dir, file), outside);
  symlinkSync(outside, path.join(dir, file));
  return outside;
}

test('the untouched bundle holds (exit 0): every entry a regular file', async () => {
  const verified = await runPtas(['verify', copy()]);
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /holds\n$/);
});

test('a listed file replaced by a symbolic link to an identical copy outside the bundle is refused, exit 1 naming it', async () => {
  const dir = copy();
  linkToCopyOutside(dir, 'results.json');
  const verified = await runPtas(['verify', dir]);
  assert.equal(verified.code, 1, `the link was followed and the bundle held:\n${verified.stdout}${verified.stderr}`);
  assert.match(verified.stderr, /does not hold: results\.json: a symbolic link/);
  // ptas merge reads its parts the same way: refused (exit 2) before the part is read.
  const merged = await runPtas(['merge', dir, '--out', path.join(tmp(), 'merged')]);
  assert.equal(merged.code, 2, merged.stdout + merged.stderr);
  assert.match(merged.stderr, /results\.json: a symbolic link/);
});

test('the manifest as a link, a linked folder and a FIFO are refused too, each named', async () => {
  const manifest = copy();
  linkToCopyOutside(manifest, MANIFEST_FILE);
  const linkedFolder = copy();
  const elsewhere = tmp();
  writeFileSync(path.join(elsewhere, 'extra.txt'), 'not listed');
  mkdirSync(path.join(linkedFolder, 'attachments'));
  symlinkSync(elsewhere, path.join(linkedFolder, 'attachments', 'more'));
  const fifo = copy();
  execFileSync('mkfifo', [path.join(fifo, 'pipe')]);
  for (const [dir, named] of [
    [manifest, /does not hold: manifest\.json: a symbolic link/],
    [linkedFolder, /does not hold: attachments\/more: a symbolic link/],
    [fifo, /does not hold: pipe: a FIFO/],
  ] as const) {
    // A time limit: a reader that opened the FIFO would wait for a writer forever.
    const verified = await runPtas(['verify', dir], { timeoutMs: 30_000 });
    assert.equal(verified.code, 1, `${named}: ${verified.signal ?? ''}\n${verified.stdout}${verified.stderr}`);
    assert.match(verified.stderr, named);
  }
});
