// Issue 28 (found while fixing its finding 7): a bundle gave a weak client
// secret away through its report, not its manifest. Every secret in
// results.json and index.html is a marker «client_secret#xxxxxxxx», and the
// marker's digits were the first 8 hex digits of a plain SHA-256 of the
// secret: a six-digit secret fell to a million guesses in under a second;
// results.run.profileHash, a SHA-256 over the profile with those markers in
// it, was a second way. Here a real run against the bundled reference with a
// six-digit client secret: no marker in the bundle is any candidate's plain
// SHA-256 prefix, the secret's marker is the same in every exchange of every
// worker (a reader can still match them), and the profile's hash does not
// depend on any secret.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { profileHash } from '../../app/run/profile-hash.ts';
import { runPtas } from '../support/cli.ts';

const WEAK_SECRET = '482913';

async function runWithSecret(secret: string): Promise<{ results: string; report: string }> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'ptas-markers-'));
  const run = await runPtas(['run', '--no-load', '--grep', '@area:auth', '--workers', '2', '--out', out], { env: { PTAS_REFERENCE_CLIENT_SECRET: secret } });
  assert.equal(run.code, 0, run.stdout.slice(-3000) + run.stderr);
  return { results: readFileSync(path.join(out, 'results.json'), 'utf8'), report: readFileSync(path.join(out, 'index.html'), 'utf8') };
}

test('a marker does not give a weak secret away to guessing, and still matches the same secret across exchanges; the profile hash holds no secret', { timeout: 240_000 }, async () => {
  const { results, report } = await runWithSecret(WEAK_SECRET);
  const markers = [...new Set([...results.matchAll(/«client_secret#([0-9a-f]{8})»/g)].map((m) => m[1]!))];
  // The client secret's own marker, in the token requests of every check (both workers); a check that sends a wrong secret on purpose has another.
  type Evidence = { label?: string; request: { body?: string } };
  const checks = (JSON.parse(results) as { checks: Array<{ evidence?: Evidence[] }> }).checks;
  const sent = checks.flatMap((check) => check.evidence ?? []).filter((e) => !/wrong/i.test(e.label ?? '') && e.request.body?.includes('«client_secret#'));
  const own = new Set(sent.map((e) => /«client_secret#([0-9a-f]{8})»/.exec(e.request.body!)![1]));
  assert.ok(sent.length >= 10, `the client secret was sent by many checks: ${sent.length}`);
  assert.equal(own.size, 1, `one marker for the one client secret, in every exchange of both workers: ${[...own].join(', ')}`);
  assert.ok(report.length > 0);
  const found: string[] = [];
  for (let n = 0; n < 1_000_000; n++) {
    const guess = String(n).padStart(6, '0');
    if (markers.includes(createHash('sha256').update(guess).digest('hex').slice(0, 8))) found.push(guess);
  }
  assert.deepEqual(found, [], `the marker is a plain SHA-256 prefix: ${found.join(', ')} (the secret is ${WEAK_SECRET})`);

  // The run's profile hash is over the profile with every secret left out: the same whatever the secrets are.
  const profile = (clientSecret: string, other: string) => ({ baseUrl: 'http://127.0.0.1:8080', credentials: { clientId: 'c', clientSecret }, users: { ownLicence: { clientId: 'o', clientSecret: other } } });
  assert.equal(profileHash(profile(WEAK_SECRET, '111111')), profileHash(profile('917340', '222222')), 'the profile hash holds no secret');
  assert.notEqual(profileHash(profile(WEAK_SECRET, '111111')), profileHash({ ...profile(WEAK_SECRET, '111111'), baseUrl: 'http://127.0.0.1:8081' }), 'and still tells profiles apart');
  assert.match((JSON.parse(results) as { run: { profileHash: string } }).run.profileHash, /^sha256:[0-9a-f]{12}$/);
});
