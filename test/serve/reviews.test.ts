// A reviewer's decisions on REVIEW checks (issue 30 item 7), on a real `ptas
// serve` server: a finished run of the bundled reference lists its REVIEW
// checks; a certifier records a decision (a viewer may not, a check that gave
// no REVIEW takes none); the decision is in the bundle (reviews.json, the
// report, the manifest's hashes), which `ptas verify` holds with a step of
// its own, and which it refuses once the decisions are altered or name a
// check that gave no REVIEW, even re-hashed. A second decision replaces the
// first. The audit log records who decided.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunRecord } from '../../app/serve/contract.ts';
import type { AuditEntry } from '../../app/serve/audit.ts';
import { rehashArtifacts } from '../../app/certify/write-bundle.ts';
import { caller, startTestServer, waitForRun, type Call, type TestServer } from './support.ts';
import { runPtas } from '../support/cli.ts';

const REVIEWED = 'auth.tokens-verify-against-jwks';
let lab: TestServer;
let certifier: Call;
let run: RunRecord;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-reviews-'));

before(async () => {
  lab = await startTestServer();
  certifier = caller(lab.url, lab.server.services.tokens.create('reviewer', { role: 'certifier' }));
  const started = await certifier('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false, grep: `@check:(${REVIEWED}|auth.missing-bearer-is-401)(\\s|$)` } } });
  assert.equal(started.status, 202, started.text);
  run = await waitForRun(certifier, (started.json as RunRecord).id, ['finished']);
});

after(async () => {
  await lab?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The steps ptas verify printed as failed, by name. */
function failedSteps(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('✖ ')).map((line) => line.slice(2).split(/\s{2,}/)[0]!);
}

/** The run's bundle as a certifier receives it: downloaded and extracted into a folder of its own. */
async function downloadBundle(name: string): Promise<string> {
  const archive = path.join(scratch, `${name}.tar.gz`);
  writeFileSync(archive, Buffer.from(await (await fetch(`${lab.url}/api/runs/${run.id}/bundle`, { headers: { authorization: `Bearer ${lab.token}` } })).arrayBuffer()));
  const into = path.join(scratch, name);
  execFileSync('mkdir', ['-p', into]);
  execFileSync('tar', ['xzf', archive, '-C', into]);
  return path.join(into, `ptas-run-${run.id}`);
}

test('a certifier decides a REVIEW check; the decision is in the bundle, the report and the manifest, and ptas verify holds it', async () => {
  const listed = await certifier('GET', `/api/runs/${run.id}/reviews`);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.json.checks.map((c: { check: string; decision?: unknown }) => [c.check, c.decision]), [[REVIEWED, undefined]]);

  const viewer = caller(lab.url, lab.server.services.tokens.create('onlooker', { role: 'viewer' }));
  assert.equal((await viewer('POST', `/api/runs/${run.id}/reviews`, { body: { check: REVIEWED, decision: 'accepted', note: 'x' } })).status, 403);
  const notReview = await certifier('POST', `/api/runs/${run.id}/reviews`, { body: { check: 'auth.missing-bearer-is-401', decision: 'accepted', note: '' } });
  assert.equal(notReview.status, 400);
  assert.match(notReview.json.message, /gave no REVIEW in this run/);
  assert.equal((await certifier('POST', `/api/runs/${run.id}/reviews`, { body: { check: REVIEWED, decision: 'maybe', note: '' } })).status, 400);

  const note = 'Both keys are in the published set; the refresh token verifying too is fine for us.';
  const decided = await certifier('POST', `/api/runs/${run.id}/reviews`, { body: { check: REVIEWED, decision: 'accepted', note } });
  assert.equal(decided.status, 201, decided.text);
  assert.equal(decided.json.review.by, 'reviewer');
  const after = (await certifier('GET', `/api/runs/${run.id}/reviews`)).json.checks[0];
  assert.equal(after.decision.decision, 'accepted');
  assert.equal(after.decision.note, note);

  const bundle = await downloadBundle('accepted');
  const verified = await runPtas(['verify', bundle]);
  // A narrowed run cannot certify: every step holds but the required checks.
  assert.deepEqual(failedSteps(verified.stdout), ['required checks'], verified.stdout);
  assert.match(verified.stdout, /✔ reviews\s+1 accepted, 0 rejected, 0 of 1 REVIEW checks undecided/);
  const html = readFileSync(path.join(bundle, 'index.html'), 'utf8');
  assert.match(html, /<section id="reviews"><h2>Reviewer decisions<\/h2>/);
  assert.ok(html.includes(note.replace(/'/g, '&#39;')) || html.includes(note), 'the note is in the report');
  const manifest = JSON.parse(readFileSync(path.join(bundle, 'manifest.json'), 'utf8')) as { artifacts: Array<{ path: string }> };
  assert.ok(manifest.artifacts.some((a) => a.path === 'reviews.json'), 'the manifest vouches for the decisions');
  const shared = (await certifier('POST', `/api/runs/${run.id}/share`)).json.url as string;
  assert.match(await (await fetch(`${lab.url}${shared}`)).text(), /Reviewer decisions/, 'the shared report shows them');

  // Altered decisions: caught by their hash; re-hashed, a decision on a check that gave no REVIEW is caught by the reviews step.
  const altered = path.join(scratch, 'altered');
  cpSync(bundle, altered, { recursive: true });
  writeFileSync(path.join(altered, 'reviews.json'), readFileSync(path.join(altered, 'reviews.json'), 'utf8').replace('"accepted"', '"rejected"'));
  const changed = await runPtas(['verify', altered]);
  assert.deepEqual(failedSteps(changed.stdout), ['files'], changed.stdout);
  assert.match(changed.stderr, /reviews\.json/);
  const forged = JSON.parse(readFileSync(path.join(altered, 'reviews.json'), 'utf8'));
  forged.reviews[0].check = 'auth.missing-bearer-is-401';
  writeFileSync(path.join(altered, 'reviews.json'), JSON.stringify(forged));
  rehashArtifacts(altered);
  const misnamed = await runPtas(['verify', altered]);
  assert.deepEqual(failedSteps(misnamed.stdout), ['reviews', 'required checks'], misnamed.stdout);
  assert.match(misnamed.stdout, /✖ reviews\s+reviews\.json: auth\.missing-bearer-is-401 \(\S+\) gave no REVIEW in this run/);

  // A second decision replaces the first; the audit log says who decided.
  assert.equal((await certifier('POST', `/api/runs/${run.id}/reviews`, { body: { check: REVIEWED, decision: 'rejected', note: 'on second thought' } })).status, 201);
  const again = await runPtas(['verify', await downloadBundle('rejected')]);
  assert.match(again.stdout, /✔ reviews\s+0 accepted, 1 rejected, 0 of 1 REVIEW checks undecided/);
  const entries = (await lab.call('GET', '/api/audit')).json.entries as AuditEntry[];
  assert.equal(entries.filter((e) => e.action === 'POST /api/runs/:id/reviews' && e.actor === 'reviewer').length, 2);
});
