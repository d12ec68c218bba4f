// "Re-judge stored runs with this version" through the API for CI (GET
// /api/rejudge-preview), on a real `ptas serve` whose store holds runs of the
// test's choosing (seeded as a restored backup of bundles): a run whose
// stored verdict its records no longer give (a WARN over a FAIL on a MUST
// sentence) is listed with the flipped check and both bases; a run judged by
// an older suite (0.0.1) is listed with every check it did not run as new,
// its flipped check marked new, and its certifiability lost to the new
// required checks; a run where only a basis changes comes after them; runs
// nothing changes in are a count. Read-only: the bundles stay byte for byte
// and no run starts. A results.json written again is judged again; one that
// is no run's results is named. Viewers read it; an unknown implementation
// is 404, a malformed one or an unknown parameter 400, no token 401.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RejudgeOverview, StoredRunPreview } from '../../app/serve/rejudge-preview.ts';
import { requiredCheckIds } from '../../app/certify/required-checks.ts';
import { listAllChecks } from '../../app/run/list.ts';
import { certifiability } from '../../src/certify/certifiability.ts';
import type { RunResults } from '../../src/results/model.ts';
import { FLIP_REASON, FLIPPED, STEADY, storedRun, type StoredRunShape } from '../support/rejudge-runs.ts';
import { caller, startTestServer, type TestServer } from './support.ts';
import { seededImplementation, seedStore } from './support/seeded-runs.ts';

const ACME = 'Acme Payments';
const SENTENCE = /^spec 4\.1 rule 2, 5 rule 2: "It is exchanged with client_id for a new access token, and each refresh token is single-use\."$/;
const implementation = seededImplementation;

let lab: TestServer;
let data: string;
let required: string[];

/** A run as the installed suite recorded it: with the certifiability it stated. */
const recorded = (shape: StoredRunShape): RunResults => {
  const results = storedRun(shape);
  return { ...results, certification: certifiability(results, required) };
};

before(async () => {
  await listAllChecks();
  required = await requiredCheckIds();
  data = mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-rejudge-'));
  seedStore(
    data,
    [implementation('acme', ACME), implementation('globex', 'Globex')],
    [
      { id: 'acme-flip', results: recorded({ startedAt: '2027-01-03T21:00:00.000Z', implementation: ACME, flipped: 'warn-over-fail' }) },
      { id: 'acme-basis', results: recorded({ startedAt: '2027-01-02T21:00:00.000Z', implementation: ACME, flipped: 'fail-on-profile' }) },
      { id: 'acme-steady', results: recorded({ startedAt: '2027-01-01T21:00:00.000Z', implementation: ACME, flipped: 'agreed' }) },
      // Judged by 0.0.1, which required only its two checks: certifiable then.
      {
        id: 'acme-old',
        results: storedRun({ startedAt: '2026-12-01T21:00:00.000Z', implementation: ACME, flipped: 'warn-over-fail', suiteVersion: '0.0.1', certification: { certifiable: true, required: 2, gaps: [] } }),
      },
      { id: 'globex-steady', results: recorded({ startedAt: '2027-01-01T21:00:00.000Z', implementation: 'Globex', flipped: 'agreed' }) },
    ],
  );
  lab = await startTestServer({ dataDir: data });
});

after(async () => {
  await lab?.close();
  rmSync(data, { recursive: true, force: true });
});

const preview = async (query = ''): Promise<RejudgeOverview> => {
  const answer = await lab.call('GET', `/api/rejudge-preview${query}`);
  assert.equal(answer.status, 200, answer.text);
  return answer.json as RejudgeOverview;
};
const runOf = (overview: RejudgeOverview, id: string): StoredRunPreview => overview.runs.find((r) => r.run === id)!;

/** Every file of every stored bundle, with its bytes. */
const bundleFiles = () =>
  Object.fromEntries(
    readdirSync(path.join(data, 'runs')).flatMap((run) =>
      readdirSync(path.join(data, 'runs', run, 'bundle'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => {
          const file = path.join(e.parentPath, e.name);
          return [path.relative(data, file), readFileSync(file, 'base64')];
        }),
    ),
  );

test('runs whose verdict or certifiability would change first, then runs where only a check changes, each newest first; the others a count', async () => {
  const overview = await preview();
  assert.equal(overview.suiteVersion, '0.1.0');
  assert.deepEqual(
    overview.runs.map((r) => [r.run, r.implementation, r.change]),
    [
      ['acme-flip', 'acme', 'verdict'],
      ['acme-old', 'acme', 'verdict'],
      ['acme-basis', 'acme', 'checks'],
    ],
  );
  assert.equal(overview.unchanged, 2, 'acme-steady and globex-steady');
  assert.deepEqual(overview.unreadable, []);
});

test('a WARN whose record claims a FAIL on a MUST sentence: the verdict flips, the check listed with both judgments, not new', async () => {
  const flip = runOf(await preview(), 'acme-flip');
  assert.equal(flip.startedAt, '2027-01-03T21:00:00.000Z');
  assert.equal(flip.judgedBy, '0.1.0');
  assert.deepEqual(flip.verdict, { before: 'CONFORMANT', after: 'NOT CONFORMANT' });
  assert.deepEqual(flip.certifiable, { before: false, after: false });
  assert.deepEqual(flip.newChecks, []);
  const [check, ...others] = flip.checks;
  assert.deepEqual(others, [], `${STEADY} kept its verdict`);
  assert.deepEqual([check!.id, check!.target, check!.new, check!.before], [FLIPPED, 'https://sandbox.acme.example', false, { verdict: 'WARN', reason: FLIP_REASON }]);
  assert.deepEqual([check!.after?.verdict, check!.after?.reason], ['FAIL', FLIP_REASON]);
  assert.match(check!.after!.basis!, SENTENCE);
});

test('a run judged by 0.0.1: every check it did not run is new, its flipped check marked new, and the new required checks cost it its certifiability', async () => {
  const old = runOf(await preview(), 'acme-old');
  assert.equal(old.judgedBy, '0.0.1');
  assert.deepEqual(old.verdict, { before: 'CONFORMANT', after: 'NOT CONFORMANT' });
  assert.deepEqual(old.certifiable, { before: true, after: false });
  assert.deepEqual(old.checks.map((c) => [c.id, c.new, c.since]), [[FLIPPED, true, '0.1.0']]);
  const newIds = old.newChecks.map((c) => c.id);
  assert.ok(newIds.includes('users.bearer-required') && !newIds.includes(FLIPPED) && !newIds.includes(STEADY), newIds.join(', '));
  assert.ok(old.newChecks.every((c) => c.since === '0.1.0'));
  assert.ok(old.gaps.length > 0 && old.gaps.every((g) => g.new && newIds.includes(g.check)), 'every gap is a required check new since the run');
  assert.match(old.gaps[0]!.problem, /is new in 0\.1\.0: this run never observed it$/);
});

test('the same FAIL on another basis: listed after the flips, both bases given, the verdict the same', async () => {
  const basis = runOf(await preview(), 'acme-basis');
  assert.deepEqual(basis.verdict, { before: 'NOT CONFORMANT', after: 'NOT CONFORMANT' });
  const [check] = basis.checks;
  assert.match(check!.before!.basis!, /^profile-declared auth\.refreshTokenReuse = true; spec 4\.1/);
  assert.match(check!.after!.basis!, SENTENCE);
});

test('read-only and offline: every bundle stays byte for byte, no run is started', async () => {
  const files = bundleFiles();
  const runs = (await lab.call('GET', '/api/runs')).json;
  await preview();
  await preview('?implementation=acme');
  assert.deepEqual(bundleFiles(), files);
  assert.deepEqual((await lab.call('GET', '/api/runs')).json, runs);
});

test('one implementation’s runs; a viewer reads them; an unknown implementation is 404, a malformed one or an unknown parameter 400, no token 401', async () => {
  const acme = await preview('?implementation=acme');
  assert.deepEqual([acme.runs.length, acme.unchanged], [3, 1]);
  const globex = await preview('?implementation=globex');
  assert.deepEqual([globex.runs, globex.unchanged], [[], 1]);
  const reference = await preview('?implementation=reference');
  assert.deepEqual([reference.runs, reference.unchanged], [[], 0]);

  const viewer = caller(lab.url, lab.server.services.tokens.create('auditor', { role: 'viewer' }));
  assert.equal((await viewer('GET', '/api/rejudge-preview')).status, 200);
  const unknown = await lab.call('GET', '/api/rejudge-preview?implementation=initech');
  assert.deepEqual([unknown.status, unknown.json.error, unknown.json.message], [404, 'not-found', 'implementation initech does not exist']);
  const malformed = await lab.call('GET', '/api/rejudge-preview?implementation=Not_An_Id');
  assert.deepEqual([malformed.status, malformed.json.error], [400, 'invalid-request']);
  assert.equal((await lab.call('GET', '/api/rejudge-preview?write=true')).status, 400);
  assert.equal((await lab.call('GET', '/api/rejudge-preview', { token: null })).status, 401);
});

test('a results.json written again is judged again; one that is no run’s results is named, not skipped', async () => {
  const steadyFile = path.join(data, 'runs', 'acme-steady', 'bundle', 'results.json');
  writeFileSync(steadyFile, JSON.stringify(recorded({ startedAt: '2027-01-01T21:00:00.000Z', implementation: ACME, flipped: 'warn-over-fail' })));
  writeFileSync(path.join(data, 'runs', 'globex-steady', 'bundle', 'results.json'), '{"not": "a run"}');
  const overview = await preview();
  assert.deepEqual(overview.runs.map((r) => r.run), ['acme-flip', 'acme-steady', 'acme-old', 'acme-basis']);
  assert.equal(overview.unchanged, 0);
  assert.deepEqual(overview.unreadable, [{ run: 'globex-steady', implementation: 'globex', problem: 'its results.json is not a run’s results' }]);
});
