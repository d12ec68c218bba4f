// The console on `ptas serve`'s own server and services, wired as the command
// line wires it (app/serve/console-on-server.ts, bin/serve-command.ts): a
// revoked token ends its console sessions; a console session opens the API
// for CI with both of its halves, never with one, and that is all its pages
// call; a run's report and bundle get no ticket (409 "not yet") before the
// run wrote them, and a bearer token none at all; Cancel on a run that has
// ended says so; the bundled reference's page carries the list's name;
// Check says what a profile lacks; a nonce `ptas run --nonce` would refuse
// is refused from the console too; what fails inside a console route is in
// the server's log, redacted; New's presets; and a profile as long as the
// API stores, the console stores.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PROFILE_TEXT_MAX_CHARS, type RunRecord } from '../../app/serve/contract.ts';
import { registerConsole } from '../../app/serve/console/routes.ts';
import { ServeError } from '../../app/serve/errors.ts';
import { consoleSignIn, startConsoleTestServer, startTestServer, waitForRun, type TestServer } from './support.ts';

let lab: TestServer;

before(async () => {
  lab = await startConsoleTestServer();
});

after(async () => {
  await lab?.close();
});

test('a revoked token ends its console sessions at once; a token made again under its name does not revive them', async () => {
  const session = await consoleSignIn(lab.url, lab.server.services.tokens.create('browser'));
  assert.equal((await session.call('GET', '/api/implementations')).status, 200);
  assert.equal(lab.server.services.tokens.revoke('browser'), true);
  const api = await session.call('GET', '/api/implementations');
  assert.equal(api.status, 401, 'the API');
  const page = await fetch(`${lab.url}/`, { headers: { cookie: session.cookie }, redirect: 'manual' });
  assert.equal(page.status, 303, 'a page');
  assert.match(page.headers.get('location') ?? '', /^\/login\?next=/);
  const again = lab.server.services.tokens.create('browser');
  assert.equal((await session.call('GET', '/api/implementations')).status, 401, 'the old session stays ended');
  const fresh = await consoleSignIn(lab.url, again);
  assert.equal((await fresh.call('GET', '/api/implementations')).status, 200, 'the new token signs in');
});

test('a console session opens the API for CI with its cookie and its secret as the bearer, never with one of them; a revoked token ends that too', async () => {
  const session = await consoleSignIn(lab.url, lab.server.services.tokens.create('console-api'));
  const other = await consoleSignIn(lab.url, lab.token);
  const api = (route: string, headers: Record<string, string>, method = 'GET') => fetch(`${lab.url}${route}`, { method, headers });
  const runs = await api('/api/runs', { cookie: session.cookie, authorization: `Bearer ${session.secret}` });
  assert.equal(runs.status, 200);
  assert.deepEqual(await runs.json(), (await lab.call('GET', '/api/runs')).json, 'the same answer as with a token');
  assert.equal((await api('/api/implementations', { cookie: session.cookie, authorization: `Bearer ${session.secret}` })).status, 200);
  for (const [what, headers] of [
    ['the cookie alone', { cookie: session.cookie }],
    ['the secret alone', { authorization: `Bearer ${session.secret}` }],
    ['the cookie and another session’s secret', { cookie: session.cookie, authorization: `Bearer ${other.secret}` }],
    ['the cookie and its own id as the bearer', { cookie: session.cookie, authorization: `Bearer ${session.cookie.split('=')[1]}` }],
  ] as const) {
    const answer = await api('/api/runs', headers);
    assert.equal(answer.status, 401, what);
    assert.equal(((await answer.json()) as { error: string }).error, 'unauthorized', what);
    assert.equal((await api('/api/runs', { ...headers, 'content-type': 'application/json' }, 'POST')).status, 401, `POST with ${what}`);
  }
  lab.server.services.tokens.revoke('console-api');
  assert.equal((await api('/api/runs', { cookie: session.cookie, authorization: `Bearer ${session.secret}` })).status, 401, 'its token revoked');
  assert.equal((await api('/api/runs', { cookie: other.cookie, authorization: `Bearer ${other.secret}` })).status, 200, 'another token’s session goes on');
});

test("a run's report and bundle get no ticket until written, and a bearer token none at all; Cancel on a run that has ended says so; the reference's page has the list's name", async () => {
  const session = await consoleSignIn(lab.url, lab.token);
  const started = await session.call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false, grep: '@area:auth' } } });
  assert.equal(started.status, 202, started.text);
  const id = (started.json as RunRecord).id;
  // Not even a ticket: a download would save the error page as the bundle.
  for (const kind of ['report', 'bundle'] as const) {
    const early = await session.call('POST', `/api/runs/${id}/tickets`, { body: { kind } });
    assert.equal(early.status, 409, `${kind}: ${early.text}`);
    assert.equal(early.json.error, 'not-ready');
    assert.match(early.json.message, /has no bundle yet: it is written when the run ends/);
  }
  const byToken = await lab.call('POST', `/api/runs/${id}/tickets`, { body: { kind: 'report' } });
  assert.equal(byToken.status, 403, byToken.text);
  assert.match(byToken.json.message, /a ticket opens a console page, for a console session/);
  const cancelled = await session.call('POST', `/api/runs/${id}/cancel`);
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal((await waitForRun(lab.call, id, ['cancelled'])).status, 'cancelled');
  // The run page takes this for no error: the run's end comes with its live view.
  const again = await session.call('POST', `/api/runs/${id}/cancel`);
  assert.equal(again.status, 409, again.text);
  assert.match(again.json.message, /has ended \(cancelled\): there is nothing to cancel/);

  const listed = (await session.call('GET', '/api/implementations')).json as Array<{ id: string; name: string }>;
  const page = (await session.call('GET', '/api/implementations/reference')).json as { name: string };
  assert.equal(page.name, listed.find((i) => i.id === 'reference')?.name);
  const save = await session.call('PUT', '/api/implementations/reference', { body: { name: 'mine', profileText: '{}' } });
  assert.equal(save.status, 409, 'the reference has no profile to save');
});

test('Check on a profile without a baseUrl says so, instead of answering for the bundled reference; a profile the server refuses is 422, a syntax error named as such', async () => {
  const session = await consoleSignIn(lab.url, lab.token);
  const checked = await session.call('POST', '/api/doctor', { body: { profileText: '{ "credentials": { "clientId": "x", "clientSecret": "env:NOPE_UNSET" } }' } });
  assert.equal(checked.status, 200, checked.text);
  assert.deepEqual(checked.json.rows, [], 'nothing was tried');
  assert.match(checked.json.error, /the profile names no baseUrl/);
  assert.deepEqual(checked.json.brokenKeys, ['baseUrl']);
  const noBase = await session.call('POST', '/api/doctor', { body: { profileText: '{}' } });
  assert.deepEqual(noBase.json.rows, []);
  assert.match(noBase.json.error, /the profile names no baseUrl: set it to the address of the implementation to check/);
  // A text that does not parse is refused for that, as Save refuses it, even when a baseUrl is written above the error.
  const broken = await session.call('POST', '/api/doctor', { body: { profileText: '{\n  "baseUrl": "http://127.0.0.1:9",\n  "credentials": {\n}' } });
  assert.equal(broken.status, 422, broken.text);
  assert.match(broken.json.message, /not valid JSON.*line \d/);
  // A profile the server refuses is refused by Check with the status Save and the API give it.
  const reading = await session.call('POST', '/api/doctor', { body: { profileText: '{ "baseUrl": "http://127.0.0.1:9", "name": "env:HOME" }' } });
  assert.equal(reading.status, 422, reading.text);
  assert.match(reading.json.message, /^name: env: references are read only where a secret goes/);
  const saved = await session.call('POST', '/api/implementations', { body: { name: 'reading', profileText: '{ "baseUrl": "http://127.0.0.1:9", "name": "env:HOME" }' } });
  assert.equal(saved.status, 422, saved.text);
});

test('a nonce ptas run --nonce refuses is refused when a run starts, from the console as from the API', async () => {
  const session = await consoleSignIn(lab.url, lab.token);
  for (const nonce of ['café-2026', 'two words', 'tab\tinside']) {
    const refused = await session.call('POST', '/api/runs', { body: { implementation: 'reference', options: { grep: '@area:auth', nonce } } });
    assert.equal(refused.status, 400, nonce);
    assert.equal(refused.json.error, 'invalid-request');
    assert.match(refused.json.message, /^body\/options\/nonce must match pattern/);
  }
  for (const nonce of ['café-2026', 'two words', '', 'x'.repeat(201)]) {
    await assert.rejects(lab.server.services.runs.start({ implementation: 'reference', options: { nonce } }), (error: unknown) => error instanceof ServeError && error.kind === 'invalid-request', JSON.stringify(nonce));
  }
  assert.deepEqual((await lab.call('GET', '/api/runs')).json.filter((r: RunRecord) => r.options.nonce).length, 0, 'no run was queued');
});

test("what fails inside a console route is in the server's log, redacted; the answer says only where to look", async () => {
  const jwt = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJsZWFrIn0.c2lnbmF0dXJlLXZhbHVl';
  const broken = await startTestServer({
    registerExtra: (app, services, log) =>
      registerConsole(
        app,
        {
          ...services,
          tokens: {
            ...services.tokens,
            verify: () => {
              throw new Error(`the token store broke on Bearer ${jwt}`);
            },
          },
        },
        { log },
      ),
  });
  try {
    const answer = await fetch(`${broken.url}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: broken.url }, body: new URLSearchParams({ token: broken.token }).toString() });
    assert.equal(answer.status, 500);
    const page = await answer.text();
    assert.match(page, /the console failed on this request \(see the server log\)/);
    assert.ok(!page.includes(jwt));
    const line = broken.logs.find((l) => l.includes('the token store broke'));
    assert.ok(line, broken.logs.join('\n'));
    assert.match(line, /internal error in the console on POST \/login/);
    assert.ok(!line.includes(jwt), line);
  } finally {
    await broken.close();
  }
});

test("New implementation's presets come from ptas init's: a complete profile for a reference at the address given; an address it cannot use is refused", async () => {
  const session = await consoleSignIn(lab.url, lab.token);
  const preset = await session.call('GET', '/api/starter?preset=deployed-api&baseUrl=http%3A%2F%2F127.0.0.1%3A8080');
  assert.equal(preset.status, 200, preset.text);
  const text = (preset.json as { profileText: string }).profileText;
  assert.match(text, /started as `ptas reference --deployed-api` at http:\/\/127\.0\.0\.1:8080/);
  assert.match(text, /"clientSecret": "env:PTAS_CLIENT_SECRET"/);
  const refused = await session.call('GET', '/api/starter?preset=reference&baseUrl=ftp%3A%2F%2Fx');
  assert.equal(refused.status, 400, refused.text);
  assert.match((refused.json as { message: string }).message, /^baseUrl ftp:\/\/x: /);
  assert.equal((await session.call('GET', '/api/starter?preset=nope')).status, 400, 'a preset it does not know');
  assert.match(((await session.call('GET', '/api/starter')).json as { profileText: string }).profileText, /env:PTAS_CLIENT_SECRET/, 'no preset: the starter');
});

test('the console stores a profile as long as the API does (PROFILE_TEXT_MAX_CHARS), and refuses one character more, as the API does', async () => {
  const session = await consoleSignIn(lab.url, lab.token);
  const profile = '{\n  "name": "big",\n  "baseUrl": "https://sandbox.big.example",\n  "credentials": { "clientId": "partner-a", "clientSecret": "env:BIG_SECRET" }\n}\n';
  const padded = (length: number) => `// ${'x'.repeat(length - profile.length - 4)}\n${profile}`;
  const longest = padded(PROFILE_TEXT_MAX_CHARS);
  assert.equal(longest.length, PROFILE_TEXT_MAX_CHARS);
  const stored = await session.call('POST', '/api/implementations', { body: { name: 'Big', profileText: longest } });
  assert.equal(stored.status, 201, stored.text.slice(0, 300));
  assert.equal((await lab.call('PUT', '/api/implementations/big-api', { body: { name: 'Big', profileText: longest } })).status, 201);
  const tooLong = padded(PROFILE_TEXT_MAX_CHARS + 1);
  assert.equal((await session.call('POST', '/api/implementations', { body: { name: 'Bigger', profileText: tooLong } })).status, 400);
  assert.equal((await lab.call('PUT', '/api/implementations/bigger-api', { body: { name: 'Bigger', profileText: tooLong } })).status, 400);
});
