// Issue 28, high: any token holder read any environment variable of
// `ptas serve`. `env:NAME` was resolved in every string of a stored profile,
// so `"name": "env:CANARY_AWS_SECRET"` put the variable's value in the
// report's title, results.json, manifest.json, junit.xml, the events and the
// console's Check, and a value placed in a header or a secret's place was
// sent to a host the token holder chose; a 422 naming unset variables told
// which exist. Here, against a real server whose environment holds a canary:
// every way of naming it is refused (Save and runs through the API, Save and
// Check through the console), each refusal in the same words as for a
// variable that is not set, nothing reaches the host the profile names; a
// run reading a variable the operator allowed (--secret-env) still works;
// and the canary is nowhere: not in an answer, the log, an event or any file
// of the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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

/** A host a profile's author controls: it records every request it is sent. */
async function attackerHost(): Promise<{ url: string; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      received.push(`${request.method} ${request.url}\n${JSON.stringify(request.headers)}\n${body}`);
      response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('a profile cannot read the environment of ptas serve: refused wherever it names a variable the operator did not allow, in words that do not tell whether it is set; the canary is nowhere in the store', { timeout: 240_000 }, async () => {
  const canary = `canary-${randomBytes(16).toString('hex')}`;
  const allowedSecret = `allowed-${randomBytes(16).toString('hex')}`;
  process.env.PTAS_REFERENCE_CLIENT_SECRET = allowedSecret;
  const reference = await spawnReference();
  delete process.env.PTAS_REFERENCE_CLIENT_SECRET;
  const attacker = await attackerHost();
  const lab = await startConsoleTestServer({ env: { ...process.env, CANARY_AWS_SECRET: canary, PTAS_LAB_CLIENT_SECRET: allowedSecret }, secretEnv: ['PTAS_LAB_*'] });
  const seen: string[] = [];
  const call = caller(lab.url, lab.token, seen);
  try {
    const base = referenceProfile(reference.url, reference.options) as Record<string, any>;
    base.credentials.clientSecret = 'env:PTAS_LAB_CLIENT_SECRET';
    base.users.ownLicence.clientSecret = 'env:PTAS_LAB_CLIENT_SECRET';
    const put = (id: string, profile: object) => call('PUT', `/api/implementations/${id}`, { body: { name: id, profileText: JSON.stringify(profile, null, 2) } });
    /** The answer with the variable's name taken out: what it says of the variable beyond the name the profile wrote. */
    const words = (text: string, name: string) => text.replaceAll(name, 'NAME');

    // Where nothing secret goes: the implementation's name (the report's <title>), a header an operation sends, the base URL.
    const attacks: Array<[string, (name: string) => object]> = [
      ['name', (name) => ({ ...base, name: `env:${name}` })],
      ['an operation header', (name) => ({ ...base, trading: { ...base.trading, createOffer: { ...base.trading.createOffer, headers: { 'x-note': `env:${name}` } } } })],
      ['baseUrl', (name) => ({ ...base, baseUrl: `env:${name}` })],
    ];
    for (const [where, profile] of attacks) {
      const set = await put('attack', profile('CANARY_AWS_SECRET'));
      assert.equal(set.status, 422, `env: at ${where}: ${set.text}`);
      assert.equal(set.json.error, where === 'baseUrl' ? 'invalid-profile' : 'env-reference-refused', set.text);
      const unset = await put('attack', profile('CANARY_NOT_SET_ANYWHERE'));
      assert.equal(words(set.text, 'CANARY_AWS_SECRET'), words(unset.text, 'CANARY_NOT_SET_ANYWHERE'), `the refusal at ${where} tells whether the variable is set`);
    }

    // Where a secret goes, on the way to a host the author chose: storable, but no run and no Check reads a variable the operator did not allow.
    const exfiltrate = (name: string) => ({ baseUrl: attacker.url, credentials: { clientId: 'x', clientSecret: `env:${name}` } });
    assert.equal((await put('exfiltrate-set', exfiltrate('CANARY_AWS_SECRET'))).status, 201);
    assert.equal((await put('exfiltrate-unset', exfiltrate('CANARY_NOT_SET_ANYWHERE'))).status, 201);
    const runSet = await call('POST', '/api/runs', { body: { implementation: 'exfiltrate-set', options: { grep: '@area:auth' } } });
    const runUnset = await call('POST', '/api/runs', { body: { implementation: 'exfiltrate-unset', options: { grep: '@area:auth' } } });
    assert.equal(runSet.status, 422, runSet.text);
    assert.equal(runSet.json.error, 'missing-secret');
    assert.equal(words(runSet.text, 'CANARY_AWS_SECRET'), words(runUnset.text, 'CANARY_NOT_SET_ANYWHERE'));

    // The console: Save and Check refuse the same, in the same words for a set and an unset variable.
    const browser = await consoleSignIn(lab.url, lab.token, seen);
    for (const [where, profile] of attacks.slice(0, 2)) {
      const saved = await browser.call('POST', '/api/implementations', { body: { name: 'attack', profileText: JSON.stringify(profile('CANARY_AWS_SECRET')) } });
      assert.equal(saved.status, 422, `console Save, env: at ${where}: ${saved.text}`);
      const checkedSet = await browser.call('POST', '/api/doctor', { body: { profileText: JSON.stringify(profile('CANARY_AWS_SECRET')) } });
      const checkedUnset = await browser.call('POST', '/api/doctor', { body: { profileText: JSON.stringify(profile('CANARY_NOT_SET_ANYWHERE')) } });
      assert.equal(checkedSet.status, 422, `console Check, env: at ${where}: ${checkedSet.text}`);
      assert.match(checkedSet.text, /env: references are read only where a secret goes/, `console Check, env: at ${where}`);
      assert.equal(words(checkedSet.text, 'CANARY_AWS_SECRET'), words(checkedUnset.text, 'CANARY_NOT_SET_ANYWHERE'));
    }
    const checkedSecret = await browser.call('POST', '/api/doctor', { body: { profileText: JSON.stringify(exfiltrate('CANARY_AWS_SECRET')) } });
    assert.equal(checkedSecret.status, 422, checkedSecret.text);
    assert.match(checkedSecret.text, /has no value this run may use/);
    assert.deepEqual(attacker.received, [], 'nothing reached the host the profile names');

    // A variable the operator allowed works where a secret goes: a real run, its bundle in the store.
    assert.equal((await put('allowed', base)).status, 201);
    const asked = await call('POST', '/api/runs', { body: { implementation: 'allowed', options: { grep: '@area:auth' } } });
    assert.equal(asked.status, 202, asked.text);
    const events = readEvents(lab.url, lab.token, asked.json.id);
    const done = await waitForRun(call, asked.json.id, ['finished'], 180_000);
    assert.equal(done.verdict, 'CONFORMANT', JSON.stringify(done));
    const stream = await events;
    for (const run of [done, ...((await call('GET', '/api/runs')).json as RunRecord[])]) await call('GET', `/api/runs/${run.id}`);

    const outputs = [
      ...seen.map((text, i) => ({ where: `answer ${i}`, text })),
      { where: 'the event stream', text: stream.raw },
      { where: 'the server log', text: lab.logs.join('\n') },
      ...attacker.received.map((text, i) => ({ where: `request ${i} to the author's host`, text })),
      ...filesBelow(lab.data).map((file) => ({ where: file, text: readFileSync(file, 'latin1') })),
    ];
    assert.ok(filesBelow(lab.data).some((file) => file.endsWith('manifest.json')), 'the store holds a bundle');
    for (const { where, text } of outputs) {
      assert.ok(!text.includes(canary), `the server's environment leaked into ${where}`);
      assert.ok(!text.includes(allowedSecret), `the allowed secret leaked into ${where}`);
    }
  } finally {
    await lab.close();
    await attacker.close();
    await reference.stop();
  }
});
