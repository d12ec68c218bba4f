// The certification bundle (README "Certification package"): `ptas run
// --sign-key --nonce` writes a signed, hash-listed manifest, and `ptas
// verify` holds it against the certifier's key and nonce — and catches a
// changed byte in any artifact, a removed or added file, a wrong nonce, a
// wrong key, reports that disagree and a required check without a verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPtas } from '../support/cli.ts';
import { MANIFEST_FILE, type Manifest } from '../../src/certify/manifest.ts';
import { loadPublicKey } from '../../src/certify/signing.ts';
import type { RunResults } from '../../src/results/model.ts';
import { countVerdicts } from '../../src/results/verdict.ts';
import { writeReport } from '../../reports/write.ts';
import { writeBundle } from '../../app/certify/write-bundle.ts';
import { verifyBundle } from '../../app/verify/verify-bundle.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-certify-'));
const NONCE = 'cert-2026-11-23.7f3a';

function keyFiles(dir: string, name: string): { privateKey: string; publicKey: string } {
  const pair = generateKeyPairSync('ed25519');
  const privateKey = path.join(dir, `${name}.pem`);
  const publicKey = path.join(dir, `${name}.pub`);
  writeFileSync(privateKey, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  return { privateKey, publicKey };
}

const keys = tmp();
const vendor = keyFiles(keys, 'vendor');
const stranger = keyFiles(keys, 'stranger');
const bundle = path.join(tmp(), 'bundle');
const copy = () => {
  const dir = path.join(tmp(), 'copy');
  cpSync(bundle, dir, { recursive: true });
  return dir;
};
const verify = (dir: string, nonce = NONCE) => verifyBundle(dir, { publicKey: loadPublicKey(vendor.publicKey), nonce });

test('ptas run --sign-key --nonce --explore writes a signed bundle, and ptas verify holds it (exit 0)', async () => {
  // A full run (every check and the load stage): certifiability and the required-check list are the point, and the shard test compares
  // against it. Two workers, not the default four: fewer Playwright worker starts, and verdicts do not depend on the worker count.
  // With a bounded exploration (README "Exploring with generated cases"): its checks are in the bundle, and it still verifies.
  const run = await runPtas(['run', '--workers', '2', '--explore', '5s', '--sign-key', `env:VENDOR_KEY`, '--nonce', NONCE, '--out', bundle], { env: { VENDOR_KEY: readFileSync(vendor.privateKey, 'utf8') } });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /manifest: .*manifest\.json \(3 artifacts, signed, Ed25519 key sha256:[0-9a-f]{16}…, nonce cert-2026-11-23\.7f3a\)/);
  const manifest = JSON.parse(readFileSync(path.join(bundle, MANIFEST_FILE), 'utf8')) as Manifest;
  assert.deepEqual(manifest.artifacts.map((a) => a.path), ['index.html', 'junit.xml', 'results.json']);
  assert.equal(manifest.run.nonce, NONCE);
  assert.equal(manifest.catalogue.specVersion.startsWith('service-spec.md'), true);
  assert.ok(manifest.requiredChecks.includes('auth.refresh-token-single-use'));
  // The secret is in the profile only as its scrypt fingerprint (test/hardening/secret-fingerprint.test.ts).
  const secret = JSON.parse(readFileSync(path.join(bundle, 'results.json'), 'utf8')) as RunResults;
  assert.ok(secret.checks.length > 80);
  const explored = secret.checks.filter((c) => c.id.startsWith('explore.'));
  assert.ok(explored.length >= 9, 'the exploration\'s rules are checks of the run');
  assert.deepEqual(explored.filter((c) => c.verdict === 'FAIL' || c.verdict === 'WARN' || c.verdict === 'ERROR'), [], 'the clean reference contradicts no explored rule');
  assert.ok(!manifest.requiredChecks.some((id) => id.startsWith('explore.')), 'a certification does not require an exploration');
  // The run says what verify will: certifiable, in results.json, the terminal and the report's banner.
  assert.deepEqual(secret.certification, { certifiable: true, required: manifest.requiredChecks.length, gaps: [] });
  assert.match(run.stdout, new RegExp(`certifiable: all ${manifest.requiredChecks.length} required checks have one final verdict`));
  assert.match(readFileSync(path.join(bundle, 'index.html'), 'utf8'), /id="notice-certification" data-certifiable="true"/);
  assert.match(String((manifest.profile.content as { credentials: { clientSecret: string } }).credentials.clientSecret), /^scrypt:N=32768,r=8,p=1:[0-9a-f]{32}:[0-9a-f]{64}$/);
  assert.ok(manifest.profile.hashedSecrets.includes('credentials.clientSecret'));

  const verified = await runPtas(['verify', bundle, '--pubkey', vendor.publicKey, '--nonce', NONCE]);
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  for (const step of ['manifest', 'files', 'signature', 'nonce', 'results.json', 'junit.xml', 'index.html', 'required checks']) {
    assert.match(verified.stdout, new RegExp(`✔ ${step.replace('.', '\\.')} `), `${step} was checked`);
  }
  assert.match(verified.stdout, /every request|ptas-nonce header of all \d+ recorded exchanges/);
});

test('one changed byte in any artifact or in the manifest is caught, naming the file (the CLI exits 1)', async () => {
  for (const file of ['index.html', 'junit.xml', 'results.json', MANIFEST_FILE]) {
    const dir = copy();
    const bytes = readFileSync(path.join(dir, file));
    const at = Math.floor(bytes.length / 2);
    bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
    writeFileSync(path.join(dir, file), bytes);
    const report = await verify(dir);
    assert.ok(report.problem, `${file}: tampering went unnoticed`);
    if (file === MANIFEST_FILE) assert.match(report.problem.detail, /manifest\.json|does not verify/, report.problem.detail);
    else assert.match(report.problem.detail, new RegExp(`^${file.replace('.', '\\.')}: its SHA-256 differs`), report.problem.detail);
  }
  const dir = copy();
  writeFileSync(path.join(dir, 'index.html'), readFileSync(path.join(dir, 'index.html'), 'utf8').replace('CONFORMANT', 'CONFORMANT!'));
  const cli = await runPtas(['verify', dir, '--pubkey', vendor.publicKey, '--nonce', NONCE]);
  assert.equal(cli.code, 1);
  assert.match(cli.stderr, /does not hold: index\.html: its SHA-256 differs/);
});

test('a removed file, an added file, a wrong nonce and a wrong key are each caught', async () => {
  const removed = copy();
  rmSync(path.join(removed, 'junit.xml'));
  assert.match((await verify(removed)).problem?.detail ?? '', /^junit\.xml: listed in the manifest but missing/);

  const added = copy();
  writeFileSync(path.join(added, 'notes.txt'), 'added later');
  assert.match((await verify(added)).problem?.detail ?? '', /^notes\.txt: in the bundle but not listed/);

  const wrongNonce = await verify(copy(), 'an-older-nonce');
  assert.equal(wrongNonce.problem?.name, 'nonce');
  assert.match(wrongNonce.problem!.detail, /the run's nonce is "cert-2026-11-23\.7f3a", not "an-older-nonce"/);

  const wrongKey = await verifyBundle(copy(), { publicKey: loadPublicKey(stranger.publicKey), nonce: NONCE });
  assert.equal(wrongKey.problem?.name, 'signature');
  assert.match(wrongKey.problem!.detail, /signed with key sha256:[0-9a-f]{16}…, not with the given key/);

  const noSignature = copy();
  rmSync(path.join(noSignature, 'manifest.json.sig'));
  assert.match((await verify(noSignature)).problem?.detail ?? '', /signature file is missing/);
});

/** Re-signs a bundle after editing results.json (as a forger holding the key would): only the reports' agreement is left to catch it. */
function rewrite(dir: string, edit: (results: RunResults) => RunResults, renderAgain: boolean): void {
  const results = edit(JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResults);
  if (renderAgain) writeReport(results, dir);
  else writeFileSync(path.join(dir, 'results.json'), JSON.stringify(results) + '\n');
  const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  writeBundle({ dir, results, profile: manifest.profile, tlsCertificateSha256: null, requiredChecks: manifest.requiredChecks, nonce: NONCE, signingKey: undefined });
}

test('reports that disagree, and a required check without a verdict, are caught even in a consistently re-hashed bundle', async () => {
  // A FAIL turned into a PASS in results.json alone: junit.xml and index.html still tell the truth.
  const forged = copy();
  rewrite(forged, (r) => {
    const checks = r.checks.map((c, i) => (i === 0 ? { ...c, verdict: 'ERROR' as const } : c));
    return { ...r, checks, counts: countVerdicts(checks), verdict: 'INCOMPLETE' };
  }, false);
  const disagreement = await verifyBundle(forged, { nonce: NONCE });
  assert.equal(disagreement.problem?.name, 'junit.xml', JSON.stringify(disagreement.problem));

  // A run that left a required check out, re-rendered throughout: the required-check list catches it.
  const partial = copy();
  rewrite(partial, (r) => {
    const checks = r.checks.filter((c) => c.id !== 'auth.refresh-token-single-use');
    return { ...r, checks, counts: countVerdicts(checks) };
  }, true);
  const missing = await verifyBundle(partial, { nonce: NONCE });
  assert.equal(missing.problem?.name, 'required checks', JSON.stringify(missing.steps));
  assert.match(missing.problem!.detail, /required check auth\.refresh-token-single-use has no verdict/);

  const skipped = copy();
  rewrite(skipped, (r) => {
    // Its record rewritten to match (a SKIP forged alone is caught by the judgments: test/cli/rejudge.test.ts).
    const checks = r.checks.map((c) => (c.id === 'auth.tokens-are-jwts' ? { ...c, verdict: 'SKIP' as const, reason: 'no jwksUrl', record: { claims: [], skipped: { reason: 'no jwksUrl' } } } : c));
    return { ...r, checks, counts: countVerdicts(checks) };
  }, true);
  assert.match((await verifyBundle(skipped, { nonce: NONCE })).problem?.detail ?? '', /required check auth\.tokens-are-jwts was skipped/);
});

test('a signing key that is not Ed25519, or cannot be read, is refused before the run (exit 2)', async () => {
  const rsa = path.join(keys, 'rsa.pem');
  writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const refused = await runPtas(['run', '--no-load', '--sign-key', rsa, '--out', tmp()]);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /--sign-key: .*rsa\.pem is a rsa key; an Ed25519 key is required/);
  const unset = await runPtas(['verify', bundle, '--pubkey', 'env:PTAS_TEST_NO_SUCH_KEY']);
  assert.equal(unset.code, 2);
  assert.match(unset.stderr, /--pubkey: environment variable PTAS_TEST_NO_SUCH_KEY is not set/);
});

test('--shard 1/2 and 2/2 merged with ptas merge give the full run\'s checks and verdicts; a missing, duplicate or foreign part is refused', async () => {
  const parts = [path.join(tmp(), 'part1'), path.join(tmp(), 'part2')];
  const env = { VENDOR_KEY: readFileSync(vendor.privateKey, 'utf8') };
  for (const [i, out] of parts.entries()) {
    // Full shards (the merge must give the full run's checks and verdicts), on two workers as the full run above.
    const run = await runPtas(['run', '--workers', '2', '--shard', `${i + 1}/2`, '--sign-key', 'env:VENDOR_KEY', '--nonce', NONCE, '--out', out], { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`shard ${i + 1}/2: join the parts with ptas merge`));
  }
  const [first, second] = parts.map((p) => JSON.parse(readFileSync(path.join(p, 'results.json'), 'utf8')) as RunResults);
  assert.ok(first!.checks.some((c) => c.area === 'load') && !second!.checks.some((c) => c.area === 'load'), 'the load stage runs in part 1 only');

  const merged = path.join(tmp(), 'merged');
  const merge = await runPtas(['merge', ...parts, '--out', merged, '--pubkey', vendor.publicKey, '--sign-key', vendor.privateKey]);
  assert.equal(merge.code, 0, merge.stdout + merge.stderr);
  const whole = JSON.parse(readFileSync(path.join(bundle, 'results.json'), 'utf8')) as RunResults;
  const together = JSON.parse(readFileSync(path.join(merged, 'results.json'), 'utf8')) as RunResults;
  const verdicts = (r: RunResults, keep: (id: string) => boolean) =>
    Object.fromEntries(r.checks.filter((c) => keep(c.id)).map((c) => [c.id, c.verdict]).sort(([a], [b]) => a!.localeCompare(b!)));
  // The load stage's verdicts are measurements, and the full run's and part 1's are two runs on a shared machine
  // (a rate-limit estimate may WARN in one): the merge keeps part 1's exactly; every other verdict is the full run's.
  const isLoad = (id: string) => id.startsWith('load.');
  // The full run explored too; the parts did not.
  const notLoad = (id: string) => !isLoad(id) && !id.startsWith('explore.');
  assert.deepEqual(verdicts(together, notLoad), verdicts(whole, notLoad), 'the same checks with the same verdicts as one full run');
  assert.deepEqual(verdicts(together, isLoad), verdicts(first!, isLoad), 'the load stage as part 1 ran it');
  assert.deepEqual(Object.keys(verdicts(together, isLoad)), Object.keys(verdicts(whole, isLoad)), 'the same load checks as one full run');
  assert.equal(together.verdict, whole.verdict);
  assert.deepEqual(together.run.mergedFrom?.map((p) => `${p.index}/${p.total}`), ['1/2', '2/2']);
  assert.equal((await verify(merged)).problem, undefined, 'the merged bundle verifies as any other');

  const missing = await runPtas(['merge', parts[0]!, '--out', path.join(tmp(), 'm')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /shard 2\/2 is missing \(given: 1\/2\)/);
  const twice = await runPtas(['merge', parts[0]!, parts[0]!, '--out', path.join(tmp(), 'm')]);
  assert.match(twice.stderr, /shard 1\/2 given twice/);
  // A part of another run: re-bound to another nonce (as a forger would, re-hashed).
  const foreign = path.join(tmp(), 'foreign');
  cpSync(parts[1]!, foreign, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(foreign, MANIFEST_FILE), 'utf8')) as Manifest;
  writeBundle({ dir: foreign, results: second!, profile: manifest.profile, tlsCertificateSha256: null, requiredChecks: manifest.requiredChecks, nonce: 'another-run' });
  const mixed = await runPtas(['merge', parts[0]!, foreign, '--out', path.join(tmp(), 'm')]);
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /its nonce \("another-run"\) is not .*\("cert-2026-11-23\.7f3a"\): not parts of one run/);
  const tampered = path.join(tmp(), 'tampered');
  cpSync(parts[1]!, tampered, { recursive: true });
  writeFileSync(path.join(tampered, 'junit.xml'), readFileSync(path.join(tampered, 'junit.xml'), 'utf8') + ' ');
  assert.match((await runPtas(['merge', parts[0]!, tampered, '--out', path.join(tmp(), 'm')])).stderr, /junit\.xml: its SHA-256 differs/);
});
