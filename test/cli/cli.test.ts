// The command line as a new user meets it: the README's main command, a
// fault making the run NOT CONFORMANT, and the exit codes of bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifactText } from '../support/artifact-text.ts';
import { runPtas } from '../support/cli.ts';
import type { RunResults } from '../../src/results/model.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-cli-'));

test('ptas run on the embedded reference: CONFORMANT, exit 0, three artifacts', async () => {
  const out = tmp();
  // Every check: CONFORMANT is a verdict over the whole embedded reference. Two workers rather than four only spares worker starts.
  const run = await runPtas(['run', '--no-load', '--workers', '2', '--out', out]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  for (const file of ['index.html', 'results.json', 'junit.xml']) assert.ok(existsSync(path.join(out, file)), `${file} missing`);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.verdict, 'CONFORMANT');
  assert.match(run.stdout, /CONFORMANT/);
  assert.ok(results.checks.length > 0);
  assert.equal(results.counts.FAIL + results.counts.ERROR, 0);
});

test('--fault refresh-token-reusable: exit 1, the single-use check FAILs with the offending exchange, no secret in any file', async () => {
  const out = tmp();
  const tokenLog = path.join(tmp(), 'issued-tokens.txt');
  // The auth checks (they issue the tokens searched for below), on two workers: fewer worker starts, the same verdicts.
  const run = await runPtas(['run', '--no-load', '--fault', 'refresh-token-reusable', '--grep', '@area:auth', '--workers', '2', '--out', out], {
    env: { PTAS_REFERENCE_TOKEN_LOG: tokenLog },
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.verdict, 'NOT CONFORMANT');
  assert.deepEqual(results.run.reference?.faults, ['refresh-token-reusable']);
  const check = results.checks.find((c) => c.id === 'auth.refresh-token-single-use');
  assert.equal(check?.verdict, 'FAIL');
  assert.match(check!.reason!, /refresh token reused at .* was accepted: 200/);
  const reuse = check!.evidence.find((e) => e.label === 'second use of the same refresh token');
  assert.equal(reuse?.response?.status, 200, 'the accepted reuse is in the evidence');
  assert.match(reuse!.request.body!, /«refresh_token#[0-9a-f]{8}»/, 'the reused token appears as a marker');
  assert.equal(check!.basis?.kind, 'spec', 'the FAIL rests on the spec text');
  assert.equal(check!.basis?.requirement, 'TOKEN-REFRESH-SINGLE-USE');
  assert.ok(run.stdout.includes(`spec ${check!.basis!.clause}: "${check!.basis!.quote}"`), 'the terminal quotes the spec sentence beside the FAIL');

  const tokens = readFileSync(tokenLog, 'utf8').split('\n').filter(Boolean);
  assert.ok(tokens.length > 10, 'the run issued tokens');
  const artifacts = ['index.html', 'results.json', 'junit.xml'].map((f) => artifactText(path.join(out, f)));
  for (const text of [...artifacts, run.stdout, run.stderr]) {
    for (const token of tokens) assert.ok(!text.includes(token), 'an issued token leaked into an artifact or the terminal');
  }
});

test('a bad config file exits 2 naming the offending key', async () => {
  const dir = tmp();
  const file = path.join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify({ baseUrl: 'http://127.0.0.1:1', http: { timeoutMs: 'soon' } }));
  const run = await runPtas(['run', '--config', file]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /\/http\/timeoutMs/);
});

/** The per-request time limit of the unreachable-target test: a wait for it would show as a run of a minute. */
const UNREACHABLE_TIMEOUT_MS = 60_000;

test('an unreachable target exits 3 within seconds, naming the address', async () => {
  const run = await runPtas(['run', '--base-url', 'http://127.0.0.1:9', '--client-id', 'x'], { env: { PTAS_CLIENT_SECRET: 'irrelevant-secret', PTAS_TIMEOUT_MS: String(UNREACHABLE_TIMEOUT_MS) } });
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /127\.0\.0\.1:9.*unreachable.*CONNECTION_REFUSED/);
  // Refused at once, not after the per-request time limit: half of it is far beyond a loaded machine's slowness.
  assert.ok(run.durationMs < UNREACHABLE_TIMEOUT_MS / 2, `took ${run.durationMs} ms`);
});

test('missing credentials for a real target exit 2 and say where to put them', async () => {
  const run = await runPtas(['run', '--base-url', 'http://127.0.0.1:9'], { env: { PTAS_CLIENT_ID: '', PTAS_CLIENT_SECRET: '' } });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /credentials\.clientId.*--client-id.*PTAS_CLIENT_ID/);
});

test('an unknown fault exits 2 and points at --list-faults', async () => {
  const run = await runPtas(['run', '--no-load', '--fault', 'no-such-fault']);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /unknown fault: no-such-fault.*--list-faults/);
});

test('a set-up step of an unspecified operation failing: ERROR, run INCOMPLETE, exit 5 — never NOT CONFORMANT', async () => {
  const dir = tmp();
  const file = path.join(dir, 'profile.json');
  // The reference's own users, but an offer-creation template that points nowhere: nothing of the spec is violated.
  const trading = {
    createUser: { method: 'POST', path: '/reference/v1/users', expectStatus: [201], extract: { userId: '/data/id' } },
    createOffer: { method: 'POST', path: '/reference/v1/no-such-operation', expectStatus: [201], extract: { offerId: '/data/id' } },
  };
  writeFileSync(file, JSON.stringify({ trading }));
  const out = tmp();
  // Every trading check (none may turn the set-up failure into a FAIL), on two workers: fewer worker starts, the same verdicts.
  const run = await runPtas(['run', '--no-load', '--grep', '@area:trading', '--workers', '2', '--config', file, '--out', out]);
  assert.equal(run.code, 5, run.stdout + run.stderr);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.verdict, 'INCOMPLETE');
  assert.equal(results.counts.FAIL, 0);
  assert.ok(results.counts.ERROR > 0);
  assert.match(run.stdout, /^INCOMPLETE /m);
  assert.match(run.stdout, /checks? could not run: nothing was found wrong/);
});

test('an unknown or conflicting variant exits 2 and points at --list-variants', async () => {
  const run = await runPtas(['run', '--no-load', '--variant', 'no-such-variant']);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /unknown variant: no-such-variant.*--list-variants/);
});

test('ptas reference --list-variants names each variant with the clause that allows it', async () => {
  const run = await runPtas(['reference', '--list-variants']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /legitimate variants/);
  const { VARIANTS } = await import('../../reference/variants/index.ts');
  for (const variant of VARIANTS) assert.match(run.stdout, new RegExp(`${variant.name}\\s+\\[${variant.area}\\]`));
  assert.equal((run.stdout.match(/allowed by: /g) ?? []).length, VARIANTS.length);
});

test('usage errors exit 2 with help; --help teaches with examples', async () => {
  const unknown = await runPtas(['frobnicate']);
  assert.equal(unknown.code, 2);
  const help = await runPtas(['run', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Examples:/);
  assert.match(help.stdout.replace(/\s+/g, ' '), /Exit codes: 0 conformant, 1 not conformant, 2 usage or config error, 3 target unreachable, 4 internal error, 5 incomplete/);
  assert.match(help.stdout, /--variant/);
  assert.match(help.stdout, /PTAS_CLIENT_SECRET/);
});

test('ptas list shows every check with its requirement ids and severity', async () => {
  const run = await runPtas(['list', '--json']);
  assert.equal(run.code, 0, run.stderr);
  const checks = JSON.parse(run.stdout) as Array<{ id: string; requirements: string[]; severity: string }>;
  const single = checks.find((c) => c.id === 'auth.refresh-token-single-use');
  assert.deepEqual(single?.requirements, ['TOKEN-REFRESH-SINGLE-USE']);
  assert.equal(single?.severity, 'MUST');
});

test('ptas reference --list-faults names each fault with the requirement it breaks', async () => {
  const run = await runPtas(['reference', '--list-faults']);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /refresh-token-reusable\s+TOKEN-REFRESH-SINGLE-USE/);
});
