// No secret leaves `ptas serve`: runs of an implementation whose profile
// reads the client secret from the server's environment (env:NAME), one
// given the secret with the run request (from the API, and from the console
// for a profile that leaves it out), and one started from the console
// with the secret as a one-run value of its profile's env: reference (what
// the start-run form's password field sends), against a reference started
// with that secret. The secret and every token the reference issued are
// searched for in every API answer (bodies and headers), every console page
// and console answer (the report, the doctor's table, the bundle's archive
// among them), every event stream (read with a bearer token, and with the
// console's session), the server's log and every file the server wrote in
// its store. The console's pages call the API (/api/...) with their session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { spawnReference } from '../../app/run/reference-process.ts';
import { referenceProfile } from '../../reference/profile.ts';
import type { RunRecord } from '../../app/serve/contract.ts';
import { caller, consoleSignIn, readEvents, startConsoleTestServer, waitForRun } from '../serve/support.ts';

function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesBelow(full) : [full];
  });
}

test('runs through the API and the console leak neither the client secret nor any issued token: answers, pages, events, log, store', { timeout: 300_000 }, async () => {
  const clientSecret = `serve-leak-${randomBytes(16).toString('hex')}`;
  const tokenLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-leak-log-')), 'issued.txt');
  process.env.PTAS_REFERENCE_CLIENT_SECRET = clientSecret;
  process.env.PTAS_REFERENCE_TOKEN_LOG = tokenLog;
  const reference = await spawnReference();
  delete process.env.PTAS_REFERENCE_CLIENT_SECRET;
  delete process.env.PTAS_REFERENCE_TOKEN_LOG;
  const lab = await startConsoleTestServer({ env: { ...process.env, PTAS_LEAK_SECRET: clientSecret }, secretEnv: ['PTAS_LEAK_SECRET'] });
  const seen: string[] = [];
  const call = caller(lab.url, lab.token, seen);
  const consoleSeen: string[] = [];
  try {
    const profile = referenceProfile(reference.url, reference.options) as Record<string, any>;
    assert.equal(profile.credentials.clientSecret, clientSecret);
    profile.credentials.clientSecret = 'env:PTAS_LEAK_SECRET';
    profile.users.ownLicence.clientSecret = 'env:PTAS_LEAK_SECRET';
    const fromEnv = await call('PUT', '/api/implementations/leak-env', { body: { name: 'Leak (env)', profileText: JSON.stringify(profile, null, 2) } });
    assert.equal(fromEnv.status, 201, fromEnv.text);
    const { clientSecret: _secret, ...withoutSecret } = profile.credentials;
    const perRun = await call('PUT', '/api/implementations/leak-per-run', { body: { name: 'Leak (per run)', profileText: JSON.stringify({ ...profile, credentials: withoutSecret }, null, 2) } });
    assert.equal(perRun.status, 201, perRun.text);
    // The secret in the clear is refused, and the refusal does not repeat it.
    const literal = await call('PUT', '/api/implementations/leak-literal', { body: { name: 'x', profileText: JSON.stringify({ ...profile, credentials: { ...withoutSecret, clientSecret } }) } });
    assert.equal(literal.status, 422);

    // From the console: a profile whose secrets name a variable the server's environment does not set, its value typed for one run.
    const browser = await consoleSignIn(lab.url, lab.token, consoleSeen);
    const oneRun = { ...profile, credentials: { ...profile.credentials, clientSecret: 'env:PTAS_LEAK_ONE_RUN' }, users: { ...profile.users, ownLicence: { ...profile.users.ownLicence, clientSecret: 'env:PTAS_LEAK_ONE_RUN' } } };
    const created = await browser.call('POST', '/api/implementations', { body: { name: 'Leak (console)', profileText: JSON.stringify(oneRun, null, 2) } });
    assert.equal(created.status, 201, created.text);
    const consoleImplementation = created.json.id as string;
    const unset = await browser.call('POST', '/api/runs', { body: { implementation: consoleImplementation, options: { load: false, grep: '@area:auth' } } });
    assert.equal(unset.status, 422, 'without the value: refused (as the API refuses it), naming the variable');
    assert.equal(unset.json.error, 'missing-secret');
    assert.match(unset.json.message, /PTAS_LEAK_ONE_RUN/);
    const fromConsole = await browser.call('POST', '/api/runs', { body: { implementation: consoleImplementation, options: { load: false, grep: '@area:auth|@area:users' }, secrets: { env: { PTAS_LEAK_ONE_RUN: clientSecret } } } });
    assert.equal(fromConsole.status, 202, fromConsole.text);
    const consoleStream = fetch(`${lab.url}/api/runs/${fromConsole.json.id}/events`, { headers: { cookie: browser.cookie, authorization: `Bearer ${browser.secret}` } }).then((r) => r.text());

    const runs: RunRecord[] = [fromConsole.json as RunRecord];
    const streams: Array<Promise<{ raw: string }>> = [readEvents(lab.url, lab.token, fromConsole.json.id)];
    for (const body of [
      { implementation: 'leak-env', options: { load: false } },
      { implementation: 'leak-per-run', options: { load: false, grep: '@area:auth' }, secrets: { clientSecret } },
    ]) {
      const asked = await call('POST', '/api/runs', { body });
      assert.equal(asked.status, 202, asked.text);
      runs.push(asked.json as RunRecord);
      streams.push(readEvents(lab.url, lab.token, asked.json.id));
    }
    // From the console too, for the profile that leaves the client secret out: the secret typed for one run.
    const perRunFromConsole = await browser.call('POST', '/api/runs', { body: { implementation: 'leak-per-run', options: { load: false, grep: '@area:auth' }, secrets: { clientSecret } } });
    assert.equal(perRunFromConsole.status, 202, perRunFromConsole.text);
    runs.push(perRunFromConsole.json as RunRecord);
    streams.push(readEvents(lab.url, lab.token, perRunFromConsole.json.id));
    for (const run of runs) {
      const done = await waitForRun(call, run.id, ['finished'], 240_000);
      assert.equal(done.verdict, 'CONFORMANT', JSON.stringify(done));
      await call('GET', `/api/runs/${run.id}`);
      const shared = await call('POST', `/api/runs/${run.id}/share`);
      await call('GET', shared.json.url, { token: null });
    }
    await call('GET', '/api/runs');
    await call('GET', '/api/implementations');
    await call('GET', '/api/implementations/leak-env');
    await call('GET', `/api/runs/${runs[0]!.id}/compare/${runs[1]!.id}`);
    const events = await Promise.all(streams);
    assert.ok(events.every((e) => /event: check/.test(e.raw) && /event: end/.test(e.raw)));
    const consoleEvents = await consoleStream;
    assert.match(consoleEvents, /event: check[\s\S]*event: end/);

    // Every console page and answer about these implementations and runs.
    /** A console page's call of the API: it must answer, or its body would not be searched. */
    const asks = async (route: string) => assert.equal((await browser.call('GET', route)).status, 200, `GET ${route}`);
    for (const route of ['/', '/login', '/console/implementations/new']) await browser.call('GET', route);
    for (const route of ['/console/api/session', '/api/implementations', '/api/starter', '/api/profile-schema']) await asks(route);
    for (const implementation of ['leak-env', 'leak-per-run', consoleImplementation]) {
      await browser.call('GET', `/console/implementations/${implementation}`);
      for (const route of [`/api/implementations/${implementation}`, `/api/runs?implementation=${implementation}`]) await asks(route);
      const stored = (await browser.call('GET', `/api/implementations/${implementation}`)).json;
      await browser.call('POST', '/api/doctor', { body: { profileText: stored.profileText } });
    }
    for (const run of runs) {
      await browser.call('GET', `/console/runs/${run.id}`);
      for (const route of [`/api/runs/${run.id}`, `/api/runs/${run.id}/compare/${runs[0]!.id}`]) await asks(route);
      const report = await browser.file(run.id, 'report');
      assert.equal(report.status, 200);
      consoleSeen.push(await report.text());
      const archive = await browser.file(run.id, 'bundle');
      assert.equal(archive.status, 200);
      consoleSeen.push(gunzipSync(Buffer.from(await archive.arrayBuffer())).toString('latin1'));
    }
    const doctored = consoleSeen.find((text) => text.includes('"rows":[{'));
    assert.ok(doctored, 'the doctor ran on the profile whose secret the server has (its table is searched too)');

    const issued = readFileSync(tokenLog, 'utf8').split('\n').filter(Boolean);
    assert.ok(issued.length >= 20, `only ${issued.length} issued tokens were logged`);
    const outputs = [
      ...seen.map((text, i) => ({ where: `API answer ${i}`, text })),
      ...events.map((e, i) => ({ where: `event stream ${i}`, text: e.raw })),
      ...consoleSeen.map((text, i) => ({ where: `console answer ${i}`, text })),
      { where: 'the console event stream', text: consoleEvents },
      { where: 'server log', text: lab.logs.join('\n') },
      ...filesBelow(lab.data).map((file) => ({ where: file, text: readFileSync(file, 'latin1') })),
    ];
    assert.ok(outputs.length > 20);
    for (const { where, text } of outputs) {
      assert.ok(!text.includes(clientSecret), `the client secret leaked into ${where}`);
      for (const token of issued) assert.ok(!text.includes(token), `an issued token (${token.slice(0, 12)}…) leaked into ${where}`);
    }
  } finally {
    await lab.close();
    await reference.stop();
  }
});
