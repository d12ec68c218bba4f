// The API for CI (README "The console and its API"), against a real server
// on 127.0.0.1 running real runs of the bundled reference: tokens, runs
// queued one at a time and started in turn, live events, the bundle as an
// archive `ptas verify` accepts, cancel (running and waiting), the
// comparison of two runs, share links, implementations, and the validation
// of every parameter and body.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runPtas } from '../support/cli.ts';
import { MAX_CLIMBS } from '../../load/probes/rate-limit/run.ts';
import type { RunRecord } from '../../app/serve/contract.ts';
import type { RunResults } from '../../src/results/model.ts';
import { extractArchive, readEvents, startTestServer, waitForRun, type StreamedEvent, type TestServer } from './support.ts';

const USERS = { implementation: 'reference', options: { load: false, grep: '@area:users' } };

let lab: TestServer;
/** The first run: a short one, finished CONFORMANT. */
let first: RunRecord;

before(async () => {
  lab = await startTestServer();
});

after(async () => {
  await lab?.close();
});

test('every API route wants a live bearer token: none, a wrong one and a revoked one are 401 JSON', async () => {
  for (const [method, route] of [
    ['GET', '/api/runs'],
    ['POST', '/api/runs'],
    ['GET', '/api/implementations'],
    ['GET', '/api/runs/abc'],
    ['GET', '/api/runs/abc/events'],
    ['GET', '/api/runs/abc/bundle'],
    ['POST', '/api/runs/abc/cancel'],
    ['PUT', '/api/implementations/acme'],
    ['POST', '/api/implementations'],
    ['GET', '/api/starter'],
    ['GET', '/api/profile-schema'],
    ['POST', '/api/doctor'],
    ['POST', '/api/runs/abc/tickets'],
  ] as const) {
    const answer = await lab.call(method, route, { token: null, body: method === 'GET' ? undefined : {} });
    assert.equal(answer.status, 401, `${method} ${route}`);
    assert.equal(answer.json.error, 'unauthorized');
    assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
    assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
  }
  assert.equal((await lab.call('GET', '/api/runs', { token: 'ptas_not-a-token' })).status, 401);
  assert.equal((await lab.call('GET', '/api/runs', { token: lab.token.slice(0, -1) })).status, 401);
  const ci = lab.server.services.tokens.create('ci');
  assert.equal((await lab.call('GET', '/api/runs', { token: ci })).status, 200);
  lab.server.services.tokens.revoke('ci');
  const revoked = await lab.call('GET', '/api/runs', { token: ci });
  assert.equal(revoked.status, 401);
  assert.match(revoked.json.message, /revoked/);
  assert.equal((await lab.call('GET', '/api/runs')).status, 200);
});

test('parameters and bodies are checked by schema: 400/422 JSON naming the problem, never a file outside the store', async () => {
  const badId = await lab.call('GET', '/api/runs/not%20an%20id');
  assert.equal(badId.status, 400);
  assert.deepEqual(Object.keys(badId.json).sort(), ['details', 'error', 'message']);
  assert.match(badId.json.message, /params\/id must match pattern/);
  for (const route of ['/api/runs/..%2F..%2Ftokens', '/api/runs/..%2Fruns/bundle', '/api/implementations/..%2Ftokens', '/api/runs/%2E%2E/bundle', '/api/runs/../../tokens.json']) {
    const answer = await lab.call('GET', route);
    assert.ok(answer.status === 400 || answer.status === 404, `${route}: ${answer.status}`);
    assert.equal(typeof answer.json.error, 'string', route);
    assert.doesNotMatch(answer.text, /sha256|"tokens"/, route);
  }
  const notJson = await lab.call('POST', '/api/runs', { raw: '{"implementation": ' });
  assert.equal(notJson.status, 400);
  assert.equal(notJson.json.error, 'invalid-request');
  const unknownKey = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { lod: false } } });
  assert.equal(unknownKey.status, 400);
  assert.match(unknownKey.json.message, /body\/options\/lod is not a known key/);
  const wrongType = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: 'no' } } });
  assert.equal(wrongType.status, 400);
  assert.match(wrongType.json.message, /body\/options\/load must be boolean/);
  const missing = await lab.call('POST', '/api/runs', { body: { options: {} } });
  assert.equal(missing.status, 400);
  assert.match(missing.json.message, /body\/implementation is required/);
  const badGrep = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { grep: '(' } } });
  assert.equal(badGrep.status, 400);
  assert.match(badGrep.json.message, /options\.grep is not a regular expression/);
  const unknown = await lab.call('POST', '/api/runs', { body: { implementation: 'nobody' } });
  assert.equal(unknown.status, 422);
  assert.equal(unknown.json.error, 'unknown-implementation');
  const badWaivers = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { waivers: { waivers: [{ check: 'auth.refresh-token-single-use' }] } } } });
  assert.equal(badWaivers.status, 422);
  assert.equal(badWaivers.json.error, 'invalid-waivers');
  assert.match(badWaivers.json.message, /options\.waivers is not a valid waiver file[^]*missing "reason"/);
  assert.equal((await lab.call('GET', '/api/runs/AAAAAAAAAAAAAAAAAAAAAA')).status, 404);
  assert.equal((await lab.call('GET', '/api/nothing-here')).json.error, 'not-found');
  assert.deepEqual((await lab.call('GET', '/api/runs')).json, [], 'no refused request made a run');
});

test('a run of the reference: 202 and its Location, live check events then end, finished CONFORMANT; a second run waits behind it (position 1) and starts when it ends', async () => {
  const asked = await lab.call('POST', '/api/runs', { body: USERS });
  assert.equal(asked.status, 202, asked.text);
  const id = asked.json.id as string;
  assert.match(id, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(asked.headers.get('location'), `/api/runs/${id}`);
  const events = readEvents(lab.url, lab.token, id);

  const second = await lab.call('POST', '/api/runs', { body: USERS });
  assert.equal(second.status, 202);
  assert.equal(second.json.status, 'queued');
  assert.equal(second.json.queuePosition, 1);
  assert.equal((await lab.call('GET', `/api/runs/${second.json.id}`)).json.queuePosition, 1);

  first = await waitForRun(lab.call, id, ['finished']);
  assert.equal(first.verdict, 'CONFORMANT', JSON.stringify(first));
  assert.ok((first.counts?.PASS ?? 0) > 20);

  const { events: streamed, contentType } = await events;
  assert.match(contentType ?? '', /^text\/event-stream/);
  const types = streamed.map((e) => e.event);
  assert.equal(types[0], 'status');
  assert.equal(types.at(-1), 'end');
  assert.deepEqual(streamed.map((e) => e.id), streamed.map((_, i) => i + 1), 'numbered from 1, in order');
  const checks = streamed.filter((e): e is StreamedEvent & { data: Extract<StreamedEvent['data'], { type: 'check' }> } => e.data.type === 'check');
  assert.equal(checks.length, first.counts!.PASS, 'one check event per check');
  assert.ok(types.indexOf('check') < types.indexOf('end'));
  assert.ok(types.includes('log'));
  const last = checks.at(-1)!.data;
  assert.equal(last.counts.PASS, checks.length, 'running counts');
  assert.ok(checks.every((c, i) => i === 0 || c.data.elapsedMs >= checks[i - 1]!.data.elapsedMs), 'elapsed time grows');
  assert.ok(checks[0]!.data.planned! > 20);
  assert.equal((streamed.at(-1)!.data as { run: RunRecord }).run.verdict, 'CONFORMANT');

  // The stream of an ended run is its replay, ending the same way.
  const replay = await readEvents(lab.url, lab.token, id);
  assert.deepEqual(replay.events.map((e) => e.event), types);

  // The waiting run started when the first ended.
  const started = await waitForRun(lab.call, second.json.id, ['running', 'finished']);
  assert.ok(started.startedAt! >= first.finishedAt!, `${started.startedAt} < ${first.finishedAt}`);
  assert.equal(started.queuePosition, undefined);
  const cancelled = await lab.call('POST', `/api/runs/${second.json.id}/cancel`);
  assert.equal(cancelled.status, 200);
  assert.equal((await waitForRun(lab.call, second.json.id, ['cancelled', 'finished'])).status, 'cancelled');

  const list = await lab.call('GET', '/api/runs?implementation=reference');
  assert.deepEqual(list.json.map((r: RunRecord) => r.id), [second.json.id, id], 'newest first');
  assert.deepEqual((await lab.call('GET', '/api/runs?implementation=acme')).json, []);
});

test("the bundle downloads as one .tar.gz that extracts to the run's folder; ptas verify holds it but for the narrowing", async () => {
  const response = await fetch(`${lab.url}/api/runs/${first.id}/bundle`, { headers: { authorization: `Bearer ${lab.token}` } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/gzip');
  assert.equal(response.headers.get('content-disposition'), `attachment; filename="ptas-run-${first.id}.tar.gz"`);
  const dir = path.join(extractArchive(Buffer.from(await response.arrayBuffer())), `ptas-run-${first.id}`);
  for (const file of ['manifest.json', 'results.json', 'index.html', 'junit.xml']) assert.ok(existsSync(path.join(dir, file)), file);
  const verified = await runPtas(['verify', dir]);
  // A --grep run cannot certify (README "Certification package"): every step holds but the required checks.
  for (const step of ['manifest', 'files', 'results.json', 'junit.xml', 'index.html']) assert.match(verified.stdout, new RegExp(`✔ ${step.replace('.', '\\.')} `), verified.stdout);
  assert.match(verified.stdout, /✖ required checks .*not run: --grep/);
  assert.equal(verified.code, 1);
});

test('cancel of a running run answers once it stopped: cancelled, INCOMPLETE, its partial bundle written', async (t) => {
  const asked = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false } } });
  const id = asked.json.id as string;
  // Cancel once a few checks finished and others are still to come.
  await new Promise<void>((resolve, reject) => {
    let checks = 0;
    readEvents(lab.url, lab.token, id, (event) => {
      if (event.event === 'check' && ++checks === 3) resolve();
    }).then(() => reject(new Error('the run ended before three checks finished')), reject);
  });
  const startedAt = performance.now();
  const answer = await lab.call('POST', `/api/runs/${id}/cancel`);
  const stopMs = performance.now() - startedAt;
  t.diagnostic(`stopped ${Math.round(stopMs)} ms after the cancel`);
  assert.equal(answer.status, 200);
  assert.equal(answer.json.status, 'cancelled');
  assert.equal(answer.json.verdict, 'INCOMPLETE');
  assert.match(answer.json.note, /cancelled while running/);
  // Usually well under 2 s (a webhook check in flight ends its session first, about a second more, as on Ctrl-C);
  // the bound only tells a cancel that waits for the run's end (minutes) from one that stops it, on a loaded machine too.
  assert.ok(stopMs < 20_000, `stopping took ${Math.round(stopMs)} ms`);
  const bundle = lab.server.services.runs.bundleDir(id)!;
  const results = JSON.parse(readFileSync(path.join(bundle, 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.verdict, 'INCOMPLETE');
  assert.match(results.run.interrupted ?? '', /interrupted/);
  assert.ok(results.checks.length >= 3, 'the checks that finished are in the partial bundle');
  assert.equal((await lab.call('GET', `/api/runs/${id}/bundle`)).status, 200);
  const again = await lab.call('POST', `/api/runs/${id}/cancel`);
  assert.equal(again.status, 409);
});

test('cancel of a waiting run takes it out of the queue: cancelled, no verdict, no bundle; the run ahead goes on', async () => {
  const ahead = (await lab.call('POST', '/api/runs', { body: USERS })).json as RunRecord;
  const waiting = (await lab.call('POST', '/api/runs', { body: USERS })).json as RunRecord;
  const third = (await lab.call('POST', '/api/runs', { body: USERS })).json as RunRecord;
  assert.deepEqual([waiting.queuePosition, third.queuePosition], [1, 2]);
  const answer = await lab.call('POST', `/api/runs/${waiting.id}/cancel`);
  assert.equal(answer.json.status, 'cancelled');
  assert.equal(answer.json.verdict, undefined);
  assert.match(answer.json.note, /before it started/);
  assert.equal((await lab.call('GET', `/api/runs/${third.id}`)).json.queuePosition, 1, 'the run behind moved up');
  assert.equal((await lab.call('GET', `/api/runs/${waiting.id}/bundle`)).status, 409);
  const { events } = await readEvents(lab.url, lab.token, waiting.id);
  assert.deepEqual(events.map((e) => e.event).slice(-2), ['status', 'end']);
  await lab.call('POST', `/api/runs/${third.id}/cancel`);
  assert.equal((await waitForRun(lab.call, ahead.id, ['finished'])).verdict, 'CONFORMANT');
});

test('a full run with the load stage: its bundle, downloaded and extracted, is one ptas verify holds (exit 0); the comparison with another run is ptas report --baseline\'s', async (t) => {
  const asked = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: true, nonce: 'serve-test-7f3a' } } });
  assert.equal(asked.status, 202);
  const streamed = readEvents(lab.url, lab.token, asked.json.id);
  const run = await waitForRun(lab.call, asked.json.id, ['finished'], 240_000);
  assert.equal(run.verdict, 'CONFORMANT', JSON.stringify(run));
  // The load stage's staircases as they climb: each step of each 429 probe, in the order they ran, with its climb (a climb
  // that drew no 429 while the generator fell behind, as on a machine busy with other test files, is climbed again).
  const steps = (await streamed).events.filter((e) => e.event === 'load-step').map((e) => e.data as { probe: string; ratePerSecond: number; sent: number; refused: number; climb: number });
  /** Probes whose every climb fell short of the limit, with their climbs: the run's own record must say the generator did not hold them. */
  const heldBack = new Map<string, number>();
  for (const probe of ['load.token-rate-limit', 'load.accept-rate-limit']) {
    const ofProbe = steps.filter((s) => s.probe === probe);
    const climbs = [...new Set(ofProbe.map((s) => s.climb))];
    assert.deepEqual(climbs, climbs.map((_, i) => i + 1), `${probe}: climbs numbered in turn`);
    assert.ok(climbs.length <= MAX_CLIMBS, `${probe}: ${climbs.length} climbs`);
    for (const n of climbs) {
      const climb = ofProbe.filter((s) => s.climb === n);
      assert.ok(climb.length >= 2, `${probe} climb ${n}: ${climb.length} steps streamed`);
      assert.ok(climb.every((s, i) => i === 0 || s.ratePerSecond >= climb[i - 1]!.ratePerSecond), `${probe} climb ${n} climbs: ${climb.map((s) => s.ratePerSecond).join(', ')}`);
    }
    const last = ofProbe.filter((s) => s.climb === climbs.at(-1));
    t.diagnostic(`${probe}: ${climbs.length} climb(s), the last ${last.map((s) => `${s.ratePerSecond}/s ${s.refused}×429 of ${s.sent}`).join(', ')}`);
    if (!last.some((s) => s.refused > 0)) heldBack.set(probe, climbs.length);
  }
  // The cross-cutting check is told again once the load stage's answers are in (its final judgment), and counted once.
  const told = (await streamed).events.filter((e) => e.event === 'check').map((e) => e.data as { check: { id: string }; counts: Record<string, number> });
  assert.equal(told.filter((e) => e.check.id === 'errors.error-bodies-are-json').length, 2, 'told after the checks, and again after the load stage');
  const nonZero = (counts: Record<string, number | undefined> = {}) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n));
  assert.deepEqual(nonZero(told.at(-1)!.counts), nonZero(run.counts), 'the last running counts are the run\'s: a check told again counts once');
  const archive = await fetch(`${lab.url}/api/runs/${run.id}/bundle`, { headers: { authorization: `Bearer ${lab.token}` } });
  const dir = path.join(extractArchive(Buffer.from(await archive.arrayBuffer())), `ptas-run-${run.id}`);
  const verified = await runPtas(['verify', dir, '--nonce', 'serve-test-7f3a']);
  assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /✔ required checks/);
  // A probe the generator never gave its staircase (in as many climbs as its load budget held) is not judged, and its check
  // says so (REVIEW, as INCONCLUSIVE is shown), with a note for each climb before the last.
  const checks = (JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResults).checks;
  for (const [probe, climbs] of heldBack) {
    const check = checks.find((c) => c.id === probe)!;
    t.diagnostic(`${probe}: the generator held none of its ${climbs} climbs: ${check.verdict} ${check.reason}`);
    assert.equal(check.verdict, 'REVIEW', `${probe}: ${check.verdict} ${check.reason}`);
    assert.match(check.reason ?? '', /the generator did not hold its plan/);
    assert.equal(check.findings.filter((f) => /^climb \d drew no 429 while the generator did not hold its plan/.test(f.message)).length, climbs - 1, JSON.stringify(check.findings));
  }

  const compared = await lab.call('GET', `/api/runs/${run.id}/compare/${first.id}`);
  assert.equal(compared.status, 200, compared.text);
  assert.equal(compared.json.baseline.startedAt, JSON.parse(readFileSync(path.join(lab.server.services.runs.bundleDir(first.id)!, 'results.json'), 'utf8')).run.startedAt);
  assert.deepEqual(compared.json.verdict, { before: 'CONFORMANT', after: 'CONFORMANT' });
  assert.equal(compared.json.regressions, 0);
  assert.ok(compared.json.otherChanges.length > 0, 'the checks only the full run ran');
  const notReady = await lab.call('GET', `/api/runs/${run.id}/compare/AAAAAAAAAAAAAAAAAAAAAA`);
  assert.equal(notReady.status, 404);
});

test('a share link shows the report without login, with its CSP as a header and nosniff, until it is revoked', async () => {
  const shared = await lab.call('POST', `/api/runs/${first.id}/share`);
  assert.equal(shared.status, 201);
  assert.match(shared.json.url, /^\/share\/[A-Za-z0-9_-]{32}$/);
  const page = await fetch(`${lab.url}${shared.json.url}`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1]!;
  assert.equal(page.headers.get('content-security-policy'), `${meta}; frame-ancestors 'none'; sandbox allow-scripts allow-downloads`);
  assert.match(meta, /default-src 'none'/);
  assert.match(html, /CONFORMANT/);
  const bundle = await fetch(`${lab.url}${shared.json.url}/bundle`);
  assert.equal(bundle.status, 200);
  assert.equal(bundle.headers.get('content-type'), 'application/gzip');
  await bundle.arrayBuffer();

  const guessed = await fetch(`${lab.url}/share/${'A'.repeat(32)}`);
  assert.equal(guessed.status, 404);
  assert.equal((await fetch(`${lab.url}/share/..%2F..%2Ftokens.json`)).status, 400);
  const revoked = await lab.call('DELETE', `/api/runs/${first.id}/share`);
  assert.deepEqual(revoked.json, { revoked: 1 });
  assert.equal((await fetch(`${lab.url}${shared.json.url}`)).status, 404);
  assert.equal((await fetch(`${lab.url}${shared.json.url}/bundle`)).status, 404);
});

test('share links that expire, listed without their tokens and revoked one at a time; the shared page says it is shared, until when, and links its bundle', async () => {
  const week = await lab.call('POST', `/api/runs/${first.id}/share`, { body: { expiresInDays: 7 } });
  assert.equal(week.status, 201, week.text);
  const expiresAt = Date.parse(week.json.share.expiresAt);
  assert.ok(Math.abs(expiresAt - (Date.now() + 7 * 86_400_000)) < 60_000, week.json.share.expiresAt);
  const open = await lab.call('POST', `/api/runs/${first.id}/share`);
  assert.equal(open.json.share.expiresAt, undefined, 'without expiresInDays: until revoked');
  assert.equal((await lab.call('POST', `/api/runs/${first.id}/share`, { body: { expiresInDays: 0 } })).status, 400);
  assert.equal((await lab.call('POST', `/api/runs/${first.id}/share`, { body: { expiresInDays: 7, token: 'x' } })).status, 400);

  const page = await (await fetch(`${lab.url}${week.json.url}`)).text();
  const note = /<p class="notice notice-info" id="shared-note"[^>]*>(.*?)<\/p>/.exec(page);
  assert.ok(note, 'the shared page carries its note');
  assert.match(note[1]!, new RegExp(`valid until ${week.json.share.expiresAt.slice(0, 10)} `));
  const bundleHref = /<a href="([^"]+)" download>/.exec(note[1]!)![1]!;
  const bundle = await fetch(new URL(bundleHref, `${lab.url}${week.json.url}`));
  assert.equal(bundle.status, 200, 'the note\'s link, relative to the page, is the bundle');
  assert.equal(bundle.headers.get('content-type'), 'application/gzip');
  await bundle.arrayBuffer();
  assert.match(await (await fetch(`${lab.url}${open.json.url}`)).text(), /valid until it is revoked/);

  const listed = await lab.call('GET', `/api/runs/${first.id}/shares`);
  assert.equal(listed.status, 200);
  const byId = new Map((listed.json.shares as Array<{ id: string; live: boolean; createdBy?: string }>).map((s) => [s.id, s]));
  assert.equal(byId.get(week.json.share.id)?.live, true);
  assert.equal(byId.get(open.json.share.id)?.live, true);
  assert.ok(byId.get(week.json.share.id)?.createdBy, 'made by the token that asked');
  for (const url of [week.json.url, open.json.url]) assert.ok(!listed.text.includes(url.slice('/share/'.length)), 'no token in the list');

  assert.deepEqual((await lab.call('DELETE', `/api/runs/${first.id}/shares/${week.json.share.id}`)).json, { revoked: 1 });
  assert.equal((await fetch(`${lab.url}${week.json.url}`)).status, 404);
  assert.equal((await fetch(`${lab.url}${open.json.url}`)).status, 200, 'the other link lives on');
  assert.equal((await lab.call('DELETE', `/api/runs/${first.id}/shares/${week.json.share.id}`)).status, 404, 'revoked already');
  assert.equal((await lab.call('DELETE', `/api/runs/${first.id}/shares/not-an-id`)).status, 400);
  assert.equal((await lab.call('GET', `/api/runs/nope-${Date.now()}/shares`)).status, 404);
  assert.deepEqual((await lab.call('DELETE', `/api/runs/${first.id}/share`)).json, { revoked: 1 });
});

test('implementations: a profile that parses and validates is stored (201, then 200), one with a clear-text secret or a wrong key is 422 naming the key', async () => {
  const profileText = '{\n  // the sandbox\n  "name": "acme",\n  "baseUrl": "https://sandbox.acme.example",\n  "credentials": { "clientId": "partner-a", "clientSecret": "env:ACME_SECRET" },\n}\n';
  const created = await lab.call('PUT', '/api/implementations/acme', { body: { name: 'Acme Payments', profileText } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.json.profileText, profileText, 'kept as written, comments included');
  const replaced = await lab.call('PUT', '/api/implementations/acme', { body: { name: 'Acme Payments (sandbox)', profileText } });
  assert.equal(replaced.status, 200);
  assert.equal(replaced.json.createdAt, created.json.createdAt);
  assert.equal((await lab.call('GET', '/api/implementations/acme')).json.name, 'Acme Payments (sandbox)');

  const literal = await lab.call('PUT', '/api/implementations/acme', { body: { name: 'Acme', profileText: profileText.replace('env:ACME_SECRET', 's3cr3t-in-the-clear') } });
  assert.equal(literal.status, 422);
  assert.equal(literal.json.error, 'literal-secret');
  assert.equal(literal.json.details.keyPath, '/credentials/clientSecret');
  assert.equal(literal.json.details.fix, 'env:PTAS_CLIENT_SECRET');
  assert.match(literal.json.message, /"clientSecret": "env:PTAS_CLIENT_SECRET"/);
  assert.doesNotMatch(literal.text, /s3cr3t-in-the-clear/);
  const wrongKey = await lab.call('PUT', '/api/implementations/acme', { body: { name: 'Acme', profileText: '{"baseUrl": "https://x.example", "http": {"timeoutMs": "soon"}}' } });
  assert.equal(wrongKey.status, 422);
  assert.equal(wrongKey.json.error, 'invalid-profile');
  assert.equal(wrongKey.json.details.keyPath, '/http/timeoutMs');
  const notJson = await lab.call('PUT', '/api/implementations/acme', { body: { name: 'Acme', profileText: '{"baseUrl": ' } });
  assert.equal(notJson.status, 422);
  assert.match(notJson.json.message, /line 1/);
  assert.equal((await lab.call('PUT', '/api/implementations/Acme_Corp', { body: { name: 'x', profileText: '{}' } })).status, 400);
  assert.equal((await lab.call('PUT', '/api/implementations/reference', { body: { name: 'x', profileText: '{}' } })).status, 409);
  assert.equal((await lab.call('GET', '/api/implementations/acme')).json.name, 'Acme Payments (sandbox)', 'a refused PUT changed nothing');

  // Its env: reference is unset in the server's environment: the run is refused before it is queued.
  const unresolved = await lab.call('POST', '/api/runs', { body: { implementation: 'acme' } });
  assert.equal(unresolved.status, 422);
  assert.equal(unresolved.json.error, 'missing-secret');
  assert.match(unresolved.json.message, /ACME_SECRET/);

  const summaries = (await lab.call('GET', '/api/implementations')).json;
  assert.deepEqual(summaries.map((s: { id: string }) => s.id), ['acme', 'reference']);
  assert.equal(summaries[0].baseUrl, 'https://sandbox.acme.example');
  const reference = summaries[1];
  assert.ok(reference.trend.length >= 3);
  assert.ok(reference.trend.every((t: { verdict: string }, i: number, all: Array<{ finishedAt: string }>) => t.verdict && (i === 0 || all[i - 1]!.finishedAt <= all[i]!.finishedAt)), 'oldest first');
  assert.equal(reference.lastRun.id, (await lab.call('GET', '/api/runs?implementation=reference')).json[0].id);

  assert.equal((await lab.call('DELETE', '/api/implementations/acme')).status, 204);
  assert.equal((await lab.call('GET', '/api/implementations/acme')).status, 404);
});

test('the server log names runs, never a token', () => {
  assert.ok(lab.logs.some((line) => /started/.test(line)));
  assert.ok(lab.logs.every((line) => !line.includes(lab.token)));
});

test('what the console asks, a CI client may: a new implementation under an id made from its name, the starter or a preset, the profile schema, Check with one-run secrets; a ticket is a console session’s only', async () => {
  const profileText = '{ "baseUrl": "https://sandbox.acme.example", "credentials": { "clientId": "partner-a", "clientSecret": "env:ACME_SECRET" } }';
  const created = await lab.call('POST', '/api/implementations', { body: { name: 'Acme Payments', profileText } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.json.id, 'acme-payments');
  assert.equal(created.headers.get('location'), '/api/implementations/acme-payments');
  assert.equal((await lab.call('POST', '/api/implementations', { body: { name: 'Acme Payments', profileText } })).json.id, 'acme-payments-2', 'the name again: another id');
  assert.equal((await lab.call('POST', '/api/implementations', { body: { name: 'Acme', profileText: '{"baseUrl": ' } })).status, 422);
  assert.equal((await lab.call('POST', '/api/implementations', { body: { name: 'Acme', profileText, id: 'mine' } })).status, 400, 'the id is not the client’s to choose');

  assert.match((await lab.call('GET', '/api/starter')).json.profileText, /"clientSecret": "env:PTAS_CLIENT_SECRET"/);
  assert.match((await lab.call('GET', '/api/starter?preset=reference&baseUrl=http%3A%2F%2F127.0.0.1%3A8080')).json.profileText, /started as `ptas reference` at http:\/\/127\.0\.0\.1:8080/);
  assert.equal((await lab.call('GET', '/api/starter?baseUrl=x&extra=1')).status, 400);
  const schema = await lab.call('GET', '/api/profile-schema');
  assert.equal(schema.json.properties.baseUrl.type, 'string');
  assert.equal(schema.headers.get('cache-control'), 'private, max-age=300');

  // Check with the one-run secret a run would take: the target does not answer, which its answer says (nothing stored).
  const checked = await lab.call('POST', '/api/doctor', { body: { profileText: '{ "baseUrl": "http://127.0.0.1:9", "credentials": { "clientId": "x", "clientSecret": "env:ACME_SECRET" } }', secrets: { env: { ACME_SECRET: 'one-run' } } } });
  assert.equal(checked.status, 200, checked.text);
  assert.deepEqual(checked.json.rows, []);
  assert.match(checked.json.error, /127\.0\.0\.1:9/);
  assert.doesNotMatch(checked.text, /one-run/);
  assert.equal((await lab.call('POST', '/api/doctor', { body: { profileText: '{ "baseUrl": "http://127.0.0.1:9", "credentials": { "clientId": "x", "clientSecret": "env:ACME_SECRET" } }' } })).json.error, 'missing-secret', 'without it: refused as a run would be');

  // A bearer token downloads the bundle itself: a ticket opens a console page, for a console session.
  const ticket = await lab.call('POST', '/api/runs/AAAAAAAAAAAAAAAAAAAAAA/tickets', { body: { kind: 'bundle' } });
  assert.equal(ticket.status, 403, ticket.text);
  for (const id of ['acme-payments', 'acme-payments-2']) assert.equal((await lab.call('DELETE', `/api/implementations/${id}`)).status, 204);
});
