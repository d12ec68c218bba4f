// `ptas load` and the load stage's safety rules: exit codes, the result
// file, k6 missing, and no load on a remote target without explicit caps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runLoadStage } from '../../load/stage.ts';
import { EXIT } from '../../src/exit-codes.ts';
import { startServer } from '../support/servers.ts';
import { spawnReference } from '../../app/run/reference-process.ts';
import { referenceProfile } from '../../reference/profile.ts';

const root = path.resolve(import.meta.dirname, '../..');
const ptas = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [path.join(root, 'bin', 'ptas.js'), 'load', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });

/** As ptas, for a target served by this process (a blocking spawn would starve it). */
function ptasAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'bin', 'ptas.js'), 'load', ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('ptas load runs the 413 boundary on the bundled reference and writes its result; a fault makes it exit 1', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-load-cli-'));
  try {
    const ok = ptas(['-s', 'token-body-size-boundary', '-o', path.join(dir, 'ok.json')]);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    const result = JSON.parse(readFileSync(path.join(dir, 'ok.json'), 'utf8'));
    assert.equal(result.verdict, 'PASS');
    assert.equal(result.load.probes[0].largestAcceptedBytes, 16_384);
    assert.doesNotMatch(JSON.stringify(result), /reference-demo-secret|"client_secret":"ref-/, 'no secret in the result file');
    const broken = ptas(['-s', 'token-body-size-boundary', '--fault', 'no-token-body-limit', '-o', path.join(dir, 'broken.json')]);
    assert.equal(broken.status, 1, broken.stdout + broken.stderr);
    assert.match(broken.stdout, /FAIL .*no body-size limit/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ptas load --engine k6 without a k6 binary is a usage error naming the fix', () => {
  const run = ptas(['-s', 'token-smoke', '--engine', 'k6'], { PTAS_K6: '/nonexistent/k6' });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /no k6 binary: install k6 .* or set PTAS_K6/);
});

test('ptas load without --scenario is a usage error (exit 2) naming --scenario and --list, not an internal error', () => {
  const run = ptas([]);
  assert.equal(run.status, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /name a scenario with --scenario \(or --list them\)/);
  assert.doesNotMatch(run.stderr, /internal error|at .*\.ts:/);
});

test('ptas load refuses a remote target without explicit caps', () => {
  const run = ptas(['-s', 'token-rate-breakpoint', '--base-url', 'https://partner-sandbox.invalid', '--client-id', 'c'], { PTAS_CLIENT_SECRET: 'not-used-secret' });
  assert.equal(run.status, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /not on this machine: load needs explicit limits/);
});

test('the load stage runs no rate probe against a remote target without load.caps, and says which key to set', async () => {
  const result = await runLoadStage({
    profile: { baseUrl: 'https://partner-sandbox.invalid', credentials: { clientId: 'c', clientSecret: 'not-used-secret' }, load: { probes: { tokenBodyLimit: false } } },
    embeddedReference: false,
  });
  const byId = Object.fromEntries(result.checks.map((c) => [c.id, c]));
  for (const id of ['load.token-rate-limit', 'load.accept-rate-limit', 'load.rate-limited-accept-not-executed']) {
    assert.equal(byId[id]?.verdict, 'SKIP', id);
    assert.match(byId[id]!.reason!, /set load\.caps/);
  }
  assert.equal(byId['load.rate-limit-headers']?.verdict, 'SKIP');
  assert.equal(byId['load.token-body-size-limit']?.verdict, 'SKIP');
  assert.deepEqual(result.load?.probes, []);
});

test("a load profile's crossed thresholds end with 99 (k6's code) and say so: the thresholds are the user's targets, not the spec's", async () => {
  // A target whose user details always fail: the smoke profile's failed-share threshold is crossed.
  const target = await startServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/v1/oauth/token') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'stub-token', refresh_token: 'stub-refresh', expires_in: 300, token_type: 'Bearer' }));
      } else if (request.method === 'GET' && request.url === '/') {
        response.end('stub');
      } else {
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal"}');
      }
    });
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-load-thresholds-'));
  try {
    const crossed = await ptasAsync(['-s', 'user-details-smoke', '--base-url', target.url, '--duration', '3', '--rate', '20', '-o', path.join(dir, 'smoke.json')], { PTAS_CLIENT_ID: 'stub', PTAS_CLIENT_SECRET: 'stub-secret-value' });
    assert.equal(crossed.status, EXIT.THRESHOLDS_CROSSED, crossed.stdout + crossed.stderr);
    assert.match(crossed.stdout, /ptas load: FAIL thresholds crossed: .*failed/);
    assert.doesNotMatch(crossed.stdout + crossed.stderr, /not conformant/i);
    assert.equal(JSON.parse(readFileSync(path.join(dir, 'smoke.json'), 'utf8')).judgedBy, 'thresholds');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.close();
  }
});

test('an accept staircase whose every offer set-up is refused is ERROR naming the set-up\'s answers, never a verdict on the limit', { timeout: 90_000 }, async () => {
  const reference = await spawnReference({});
  try {
    const profile = referenceProfile(reference.url, reference.options);
    const trading = profile.trading!;
    // An operation the spec does not show, declared wrong: every offer the accepts need is answered 404.
    const broken = { ...profile, trading: { ...trading, createOffer: { ...trading.createOffer!, path: '/v1/no-such-offers' } } };
    const result = await runLoadStage({ profile: broken, embeddedReference: true });
    const accept = result.checks.find((c) => c.id === 'load.accept-rate-limit')!;
    assert.equal(accept.verdict, 'ERROR', accept.reason);
    assert.match(accept.reason!, /^no accept was measured: the set-up created no offer to accept \(its answers: 404 ×\d+\)/);
  } finally {
    await reference.stop();
  }
});
