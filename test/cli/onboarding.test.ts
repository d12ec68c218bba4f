// Issue 12's acceptance, as a certification team meets an implementation it
// has never seen: the reference started the way the deployed API works
// (ECDSA P-256 signatures over its component list, JWK Sets behind the
// bearer token, slow offers made by an amount in the creation body), a
// profile written by `ptas init` and filled in from what the reference says
// about itself, `ptas doctor` on it, then `ptas run`: CONFORMANT, with the
// 202 path and the signature checks PASS, not SKIP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { readProfileFile } from '../../src/config/load.ts';
import type { Profile } from '../../src/config/profile.ts';
import { fromRoot } from '../../src/paths.ts';
import type { RunResults } from '../../src/results/model.ts';
import { seedUsers } from '../../reference/fixtures/users.ts';
import { runPtas } from '../support/cli.ts';

const CLIENT_ID = 'ptas-reference-client';
const SECRET = 'onboarding-test-secret';

/** `ptas reference` as a partner starts it: a real process, its address read from the start banner. */
async function startDeployedReference(): Promise<{ url: string; banner: string; stop: () => void }> {
  const child = spawn(process.execPath, [fromRoot('bin', 'ptas.js'), 'reference', '--port', '0', '--deployed-api'], {
    env: { ...process.env, PTAS_REF_CLIENT_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start banner: ${lines.join('\n')}`)), 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`ptas reference exited ${code}: ${lines.join('\n')}`)));
  });
  // The rest of the banner (what a profile must say) follows at once.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { url, banner: lines.join('\n'), stop: () => child.kill('SIGTERM') };
}

/** What a team writes into the starter profile, from the reference's banner and its README (paths under /reference/v1). */
function fillIn(starter: Profile): Profile {
  const body = { amount: '10.00', currency: 'EUR' };
  return {
    ...starter,
    auth: { ...starter.auth, jwksUrl: '/.well-known/jwks.json', jwksAccess: 'bearer' },
    users: { ...starter.users, existingUserId: seedUsers(1)[0]!.id },
    trading: {
      createUser: { method: 'POST', path: '/reference/v1/users', expectStatus: [201], extract: { userId: '/data/id' } },
      createOffer: { method: 'POST', path: '/reference/v1/users/{userId}/offers', body, expectStatus: [201], extract: { offerId: '/data/id' } },
      offerRecipes: {
        fast: { body, acceptAnswers: 200 },
        slow: { body: { ...body, amount: '9999.00' }, acceptAnswers: 202 },
        expiring: { body: { ...body, validity_seconds: 1 }, expiresAfterSeconds: 1 },
      },
      offerStatus: { method: 'GET', path: '/reference/v1/offers/{offerId}', headers: { 'svc-user-id': '{userId}' }, extract: { status: '/data/status' } },
      terminalStatuses: ['accepted'],
      pollDeadlineMs: 10_000,
    },
    webhooks: {
      register: { method: 'PUT', path: '/reference/v1/webhooks/user-update', body: { url: '{receiverUrl}' } },
      trigger: { method: 'POST', path: '/reference/v1/users/{userId}/events', body: { action: '{action}', success: '{success}', status: '{status}' } },
      riskEvaluationAction: 'risk_evaluation',
      signature: { scheme: 'rfc9421', jwksUrl: '/reference/v1/webhooks/jwks.json' },
    },
  };
}

test('deployed-API reference: init, fill in, doctor OK, run CONFORMANT with the 202 path and signatures PASS', async () => {
  const reference = await startDeployedReference();
  try {
    assert.match(reference.banner, /ecdsa-p256-sha256/, 'the banner says how deliveries are signed');
    assert.match(reference.banner, /jwksAccess": "bearer"/, 'the banner says the key sets need the bearer token');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-onboarding-'));
    const starterFile = path.join(dir, 'ptas-profile.jsonc');
    const init = await runPtas(['init', '--yes', '--base-url', reference.url, '--client-id', CLIENT_ID, '--out', starterFile]);
    assert.equal(init.code, 0, init.stdout + init.stderr);

    const starter = readProfileFile(starterFile);
    assert.equal(starter.baseUrl, reference.url);
    const filledFile = path.join(dir, 'profile.json');
    writeFileSync(filledFile, JSON.stringify(fillIn(starter), null, 2));
    const env = { PTAS_CLIENT_SECRET: SECRET };

    const doctor = await runPtas(['doctor', '-c', filledFile], { env });
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.doesNotMatch(doctor.stdout, /^PROBLEM/m);

    const out = path.join(dir, 'report');
    // Every check (the filled-in profile must leave no FAIL or ERROR anywhere); two workers rather than four only spares worker starts.
    const run = await runPtas(['run', '-c', filledFile, '--no-load', '--workers', '2', '--out', out], { env });
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
    const notClean = results.checks.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => `${c.id}: ${c.verdict} ${c.reason}`);
    assert.deepEqual(notClean, []);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(results.verdict, 'CONFORMANT');
    const verdictOf = (id: string) => results.checks.find((c) => c.id === id)?.verdict;
    for (const id of [
      'trading.accept-within-predefined-time-is-200',
      'trading.accept-beyond-predefined-time-is-202',
      'trading.accepted-202-reaches-terminal-status',
      'trading.expired-offer-rejected',
      'webhooks.signature-verifies',
    ]) {
      assert.equal(verdictOf(id), 'PASS', `${id} is ${verdictOf(id)}`);
    }
    // A REVIEW-level check: the spec does not say tokens verify against the key set, so "they do" is for review.
    assert.equal(verdictOf('auth.tokens-verify-against-jwks'), 'REVIEW');
    assert.match(results.checks.find((c) => c.id === 'auth.tokens-verify-against-jwks')!.reason!, /both tokens verify against the JWK Set/);
  } finally {
    reference.stop();
  }
});
