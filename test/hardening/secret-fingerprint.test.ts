// manifest.json shows the profile with every secret replaced by a
// fingerprint, so that whoever holds a secret can confirm it and nobody else
// learns it. A bundle is forwarded to people who were not there, so a weak
// secret must not fall to guessing (issue 28, finding 7: one salted SHA-256
// per secret, and a six-digit secret fell to 10^6 guesses in 0.6 s). A real
// `ptas run` against the bundled reference with a six-digit client secret:
// the manifest's fingerprint of it is no salted SHA-256 one guess at a time
// can test, it names a memory-hard KDF (scrypt) whose parameters make every
// guess cost at least N = 2^15, r = 8 (the parameters are asserted, not a
// timing), and the secret's holder confirms it with those parameters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, scryptSync } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MANIFEST_FILE, type Manifest } from '../../src/certify/manifest.ts';
import { runPtas } from '../support/cli.ts';

/** Six digits: a million guesses. */
const WEAK_SECRET = '482913';
const FINGERPRINT = /^scrypt:N=(\d+),r=(\d+),p=(\d+):([0-9a-f]+):([0-9a-f]+)$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('the manifest fingerprints a weak client secret with scrypt (N ≥ 2^15, r ≥ 8), not a salted SHA-256; its holder confirms it', { timeout: 180_000 }, async () => {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'ptas-secret-fingerprint-')), 'bundle');
  const run = await runPtas(['run', '--no-load', '--grep', '@check:auth\\.client-secret-verified', '--out', out], { env: { PTAS_REFERENCE_CLIENT_SECRET: WEAK_SECRET } });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const manifest = JSON.parse(readFileSync(path.join(out, MANIFEST_FILE), 'utf8')) as Manifest;
  const profile = manifest.profile.content as { credentials: { clientSecret: string }; users: { ownLicence: { clientSecret: string } } };
  const fingerprint = profile.credentials.clientSecret;
  assert.ok(manifest.profile.hashedSecrets.includes('credentials.clientSecret'));
  assert.ok(!JSON.stringify(manifest).includes(WEAK_SECRET), 'the secret itself is not in the manifest');

  // What broke it: a hash of the secret one SHA-256 away, in any arrangement of salt and secret.
  const hex = /[0-9a-f]{64}$/.exec(fingerprint)?.[0];
  const salt = manifest.profile.salt;
  for (const guessable of [sha256(salt + WEAK_SECRET), sha256(WEAK_SECRET + salt), sha256(WEAK_SECRET)]) {
    assert.notEqual(hex, guessable, `the fingerprint ${fingerprint} is checked by one salted SHA-256 per guess`);
  }

  // What it is instead: scrypt with its parameters in the value, each guess at least N = 2^15, r = 8 (32 MiB of memory).
  const parts = FINGERPRINT.exec(fingerprint);
  assert.ok(parts, `not a scrypt fingerprint: ${fingerprint}`);
  const [, N, r, p, saltHex, derived] = parts;
  assert.ok(Number(N) >= 2 ** 15 && Number(r) >= 8 && Number(p) >= 1, `too cheap a KDF: N=${N}, r=${r}, p=${p}`);
  assert.ok(saltHex!.length >= 32, 'a salt of at least 16 bytes');
  assert.equal(saltHex, salt, 'the manifest\'s salt, fresh for every bundle');
  const confirm = (guess: string) => scryptSync(guess, saltHex!, derived!.length / 2, { N: Number(N), r: Number(r), p: Number(p), maxmem: 256 * 1024 ** 2 }).toString('hex');
  assert.equal(confirm(WEAK_SECRET), derived, 'whoever holds the secret confirms it');
  assert.notEqual(confirm('482914'), derived);
  assert.equal(profile.users.ownLicence.clientSecret, fingerprint, 'the same secret elsewhere in the profile: the same fingerprint, computed once');
});
