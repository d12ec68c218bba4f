// https targets: a custom CA (--ca), mutual TLS (--cert/--key), a refused
// untrusted certificate without --insecure, and --insecure recorded in results.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { referenceProfile } from '../../reference/profile.ts';
import { spawnReference, type ReferenceProcess } from '../../app/run/reference-process.ts';
import type { RunResults } from '../../src/results/model.ts';
import { runPtas } from '../support/cli.ts';
import { makePki, startTlsFront, type TestPki, type TlsFront } from '../support/tls.ts';

let pki: TestPki;
let reference: ReferenceProcess;
let tlsFront: TlsFront;
let mtlsFront: TlsFront;

before(async () => {
  pki = makePki();
  reference = await spawnReference();
  tlsFront = await startTlsFront(pki, reference.url, { requireClientCert: false });
  mtlsFront = await startTlsFront(pki, reference.url, { requireClientCert: true });
});

after(async () => {
  await tlsFront?.close();
  await mtlsFront?.close();
  await reference?.stop();
});

/** A committed-style profile: the secret is an env: reference. */
function profileFor(baseUrl: string): string {
  const profile = referenceProfile(baseUrl, reference.options);
  profile.credentials = { clientId: profile.credentials.clientId, clientSecret: 'env:PTAS_TEST_SECRET' };
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'ptas-tls-')), 'profile.json');
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

async function run(baseUrl: string, extra: string[]) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'ptas-tls-out-'));
  const result = await runPtas(['run', '-c', profileFor(baseUrl), '--no-load', '--grep', '@check:auth\\.access-token-opens-api', '--out', out, ...extra], {
    env: { PTAS_TEST_SECRET: reference.options.clientSecret },
  });
  return { ...result, out };
}

test('an https target signed by a custom CA passes with --ca', async () => {
  const result = await run(tlsFront.url, ['--ca', pki.caCert]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  const results = JSON.parse(readFileSync(path.join(result.out, 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.run.insecureTls, false);
});

test('an untrusted certificate is refused without --insecure: exit 3 with a TLS hint', async () => {
  const result = await run(tlsFront.url, []);
  assert.equal(result.code, 3, result.stdout + result.stderr);
  assert.match(result.stderr, /TLS.*--ca.*--insecure/);
});

test('--insecure runs and is recorded in the results', async () => {
  const result = await run(tlsFront.url, ['--insecure']);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  const results = JSON.parse(readFileSync(path.join(result.out, 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.run.insecureTls, true);
});

test('mutual TLS: refused without a client certificate, passes with --cert and --key', async () => {
  const refused = await run(mtlsFront.url, ['--ca', pki.caCert]);
  assert.equal(refused.code, 3, refused.stdout + refused.stderr);
  const accepted = await run(mtlsFront.url, ['--ca', pki.caCert, '--cert', pki.clientCert, '--key', pki.clientKey]);
  assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
});
