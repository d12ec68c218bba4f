// "Run again only the failed and skipped checks" through the API (README "The
// console and its API"), on a real server and a real reference on
// 127.0.0.1: a run whose token check fails (its one-run client secret is
// wrong) is re-run with the right secret; the re-run runs that check alone,
// and its bundle joins both attempts as `ptas merge` does (fail-then-pass is
// FLAKY), while the run it repeats stays as it was. What the merge would
// refuse is refused before the re-run waits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunRecord } from '../../app/serve/contract.ts';
import type { RunResults } from '../../src/results/model.ts';
import { REFERENCE_DEFAULTS } from '../../reference/options.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { readEvents, startTestServer, waitForRun, type TestServer } from './support.ts';

const IMPLEMENTATION = 'rerun-target';
const TOKEN_CHECK = 'auth.client-credentials-issues-pair';
const BEARER_CHECK = 'auth.missing-bearer-is-401';
const GREP = `@check:(${TOKEN_CHECK}|${BEARER_CHECK})(\\s|$)`;

let lab: TestServer;
let reference: RunningReference;
/** The first run, with a client secret the reference refuses. */
let failed: RunRecord;
/** Its re-run, with the right one. */
let rerun: RunRecord;

const secret = (value: string) => ({ env: { PTAS_CLIENT_SECRET: value } });
const resultsOf = (runId: string) => JSON.parse(readFileSync(path.join(lab.data, 'runs', runId, 'bundle', 'results.json'), 'utf8')) as RunResults;

before(async () => {
  [lab, reference] = await Promise.all([startTestServer(), startReference({ port: 0 })]);
  const profileText = await lab.server.services.presetProfile('reference', { baseUrl: reference.url });
  const stored = await lab.call('PUT', `/api/implementations/${IMPLEMENTATION}`, { body: { name: 'Re-run target', profileText } });
  assert.ok(stored.status === 201, `${stored.status} ${stored.text}`);
  const started = await lab.call('POST', '/api/runs', { body: { implementation: IMPLEMENTATION, options: { grep: GREP }, secrets: secret('not-the-client-secret') } });
  assert.equal(started.status, 202, started.text);
  failed = await waitForRun(lab.call, started.json.id, ['finished']);
});

after(async () => {
  await lab?.close();
  await reference?.close();
});

test('a re-run runs only what failed, with the run’s options; its bundle joins both attempts (fail-then-pass is FLAKY); the run it repeats is unchanged', { timeout: 180_000 }, async () => {
  const before = resultsOf(failed.id);
  assert.equal(before.checks.find((c) => c.id === TOKEN_CHECK)?.verdict, 'FAIL', 'the wrong client secret fails the token check');
  assert.equal(before.checks.find((c) => c.id === BEARER_CHECK)?.verdict, 'PASS', 'a request without a bearer needs no secret');
  assert.equal(failed.verdict, 'NOT CONFORMANT');

  const started = await lab.call('POST', '/api/runs', { body: { implementation: IMPLEMENTATION, options: { rerunOf: failed.id }, secrets: secret(REFERENCE_DEFAULTS.clientSecret) } });
  assert.equal(started.status, 202, started.text);
  assert.deepEqual(started.json.options, { rerunOf: failed.id, load: false }, 'the first run’s options (no load stage, no nonce), and the run it repeats');
  const { events } = await readEvents(lab.url, lab.token, started.json.id);
  rerun = await waitForRun(lab.call, started.json.id, ['finished']);

  // Live, the re-run's own checks: the failed one; the passed one is not run again.
  const ran = events.flatMap((e) => (e.data.type === 'check' ? [e.data.check.id] : []));
  assert.ok(ran.includes(TOKEN_CHECK), `ran: ${ran.join(', ')}`);
  assert.ok(!ran.includes(BEARER_CHECK), `ran: ${ran.join(', ')}`);

  // Its bundle is the merge of both attempts.
  const merged = resultsOf(rerun.id);
  assert.equal(merged.run.mergedFrom?.length, 2, 'two attempts of the one part');
  const token = merged.checks.find((c) => c.id === TOKEN_CHECK)!;
  assert.equal(token.verdict, 'FLAKY', 'for certification a fail-then-pass is not a pass');
  assert.deepEqual(token.attempts?.map((a) => a.verdict), ['FAIL', 'PASS']);
  const bearer = merged.checks.find((c) => c.id === BEARER_CHECK)!;
  assert.equal(bearer.verdict, 'PASS', 'a check the re-run did not run keeps its one attempt');
  assert.deepEqual(bearer.attempts?.map((a) => [a.run.attempt, a.verdict]), [[1, 'PASS']], 'its one attempt is the first run’s');
  assert.equal(rerun.verdict, merged.verdict);
  assert.equal(rerun.verdict, 'NOT CONFORMANT', 'FLAKY keeps the run from being CONFORMANT');
  assert.deepEqual(rerun.counts, merged.counts);
  assert.equal(rerun.bundle, true);
  assert.equal(rerun.certification?.certifiable, merged.certification?.certifiable);

  // The run it repeats: its record and its bundle as they were.
  assert.deepEqual((await lab.call('GET', `/api/runs/${failed.id}`)).json, failed);
  assert.deepEqual(resultsOf(failed.id), before);
  // Its archive downloads like any run's.
  assert.equal((await fetch(`${lab.url}/api/runs/${rerun.id}/bundle`, { headers: { authorization: `Bearer ${lab.token}` } })).status, 200);
});

test('a re-run of the re-run: a FLAKY check runs again; every attempt of the chain is joined', { timeout: 180_000 }, async () => {
  assert.ok(rerun, 'the test above made the re-run');
  const started = await lab.call('POST', '/api/runs', { body: { implementation: IMPLEMENTATION, options: { rerunOf: rerun.id }, secrets: secret(REFERENCE_DEFAULTS.clientSecret) } });
  assert.equal(started.status, 202, started.text);
  const again = await waitForRun(lab.call, started.json.id, ['finished']);
  const merged = resultsOf(again.id);
  assert.equal(merged.run.mergedFrom?.length, 3);
  assert.deepEqual(merged.checks.find((c) => c.id === TOKEN_CHECK)?.attempts?.map((a) => a.verdict), ['FAIL', 'PASS', 'PASS'], 'FLAKY is run again: a contradiction was seen');
  assert.equal(merged.checks.find((c) => c.id === TOKEN_CHECK)?.verdict, 'FLAKY', 'passing again does not undo the failure');
});

test('what a re-run cannot be is refused before it waits, naming why', { timeout: 120_000 }, async () => {
  const ask = (options: Record<string, unknown>, implementation = IMPLEMENTATION) => lab.call('POST', '/api/runs', { body: { implementation, options, secrets: secret(REFERENCE_DEFAULTS.clientSecret) } });
  const runsBefore = (await lab.call('GET', '/api/runs')).json.length;

  const withGrep = await ask({ rerunOf: failed.id, grep: '@area:auth' });
  assert.equal(withGrep.status, 400);
  assert.equal(withGrep.json.details?.keyPath, '/options/grep');
  assert.match(withGrep.json.message, /takes the options of the run it repeats/);

  const unknown = await ask({ rerunOf: 'no-such-run' });
  assert.equal(unknown.status, 400);
  assert.match(unknown.json.message, /there is no run no-such-run/);

  const otherImplementation = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { rerunOf: failed.id } } });
  assert.equal(otherImplementation.status, 400);
  assert.match(otherImplementation.json.message, new RegExp(`a run of ${IMPLEMENTATION}, not of reference`));

  // The re-run of a run with nothing left to observe.
  const passing = await lab.call('POST', '/api/runs', { body: { implementation: IMPLEMENTATION, options: { grep: `@check:${BEARER_CHECK}(\\s|$)` }, secrets: secret(REFERENCE_DEFAULTS.clientSecret) } });
  const passed = await waitForRun(lab.call, passing.json.id, ['finished']);
  assert.equal(passed.verdict, 'CONFORMANT');
  const nothing = await ask({ rerunOf: passed.id });
  assert.equal(nothing.status, 409);
  assert.match(nothing.json.message, /nothing to re-run: every check of run .* has a verdict that observed the implementation/);

  // The profile saved since: its attempts would be runs of two profiles, which ptas merge refuses.
  const profileText = (await lab.call('GET', `/api/implementations/${IMPLEMENTATION}`)).json.profileText as string;
  assert.equal((await lab.call('PUT', `/api/implementations/${IMPLEMENTATION}`, { body: { name: 'Re-run target', profileText: `// saved again\n${profileText}` } })).status, 200);
  const edited = await ask({ rerunOf: failed.id });
  assert.equal(edited.status, 409);
  assert.match(edited.json.message, /was saved .* after run .* was asked for: .* ptas merge refuses; start a full run/);

  assert.equal((await lab.call('GET', '/api/runs')).json.length, runsBefore + 1, 'no refused re-run was stored (the one new run is the passing one)');
});
