// Issue 28, medium: Check was a server-side request forgery that returned the
// body. Any http(s) host was accepted — link-local 169.254.169.254, the
// server's own port — a `#` or `?` suffix on baseUrl picked the path, and
// the answer's body came back in Check's table; runs reached the same hosts.
// Here, against a real server: Check (the console's) and runs (the API's)
// refuse the server's own address (by address and by name), a link-local
// address (also behind a name that resolves to it), an operation or JWK Set
// written as an absolute URL to either, and a base URL with a query or a
// fragment; the refusal carries nothing of what is there. A legitimate
// target on loopback (the server is on loopback) is still checked and run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnReference } from '../../app/run/reference-process.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { consoleSignIn, startConsoleTestServer, waitForRun } from '../serve/support.ts';

test("Check and runs call no host the operator's policy refuses: the server itself, link-local and metadata addresses, a path picked by ?/# — and still call a legitimate target", { timeout: 120_000 }, async () => {
  const reference = await spawnReference();
  // A name under the profile author's control that resolves to the metadata address; every other name as the system resolves it.
  const lab = await startConsoleTestServer({
    env: { ...process.env, ANY_SECRET: 'not-a-real-secret' },
    secretEnv: ['ANY_SECRET'],
    resolveHost: async (host) => (host === 'metadata.attacker.test' ? ['169.254.169.254'] : host === 'localhost' ? ['127.0.0.1'] : Promise.reject(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }))),
  });
  try {
    const own = new URL(lab.url);
    const browser = await consoleSignIn(lab.url, lab.token);
    // A secret the Check can resolve (as a server of a4a5ec0 read any variable), so what stops it is the target.
    const credentials = { clientId: 'x', clientSecret: 'env:ANY_SECRET' };
    const check = (profile: object) => browser.call('POST', '/api/doctor', { body: { profileText: JSON.stringify(profile) } });
    const refused: Array<[string, object, RegExp]> = [
      ['the server itself', { baseUrl: lab.url, credentials }, /where this server listens/],
      ['the server itself, by name', { baseUrl: `http://localhost:${own.port}/api/implementations`, credentials }, /where this server listens/],
      ['the metadata address', { baseUrl: 'http://169.254.169.254/latest/meta-data', credentials }, /link-local/],
      ['a name that resolves to it', { baseUrl: 'http://metadata.attacker.test/', credentials }, /169\.254\.169\.254 is a link-local/],
      ['a fragment that picks the path', { baseUrl: `${reference.url}/#/latest/meta-data`, credentials }, /baseUrl: has a fragment/],
      ['a query that picks the path', { baseUrl: `${reference.url}/?/reference/v1/offers`, credentials }, /baseUrl: has a query/],
      ['an operation written as an absolute URL', { baseUrl: reference.url, credentials, trading: { createUser: { method: 'POST', path: `${lab.url}/api/runs` } } }, /trading\.createUser\.path: .*where this server listens/],
      ['a JWK Set written as an absolute URL', { baseUrl: reference.url, credentials, auth: { jwksUrl: 'http://169.254.169.254/keys' } }, /auth\.jwksUrl: .*link-local/],
    ];
    for (const [what, profile, why] of refused) {
      const answer = await check(profile);
      assert.equal(answer.status, 422, `Check of ${what}: ${answer.text}`);
      assert.match(answer.text, why, `Check of ${what}: ${answer.text}`);
      assert.doesNotMatch(answer.text, /ptas console|<html|"rows":\[\{/i, `Check of ${what} shows nothing of what is there`);
    }

    // Runs through the API: refused before they are queued.
    for (const [what, profile, why] of refused.filter(([what]) => !/fragment|query/.test(what))) {
      const id = `ssrf-${refused.findIndex(([w]) => w === what)}`;
      const stored = await lab.call('PUT', `/api/implementations/${id}`, { body: { name: id, profileText: JSON.stringify(profile) } });
      assert.equal(stored.status, 201, `${what}: ${stored.text}`);
      const run = await lab.call('POST', '/api/runs', { body: { implementation: id, secrets: { env: { ANY_SECRET: 'x' } } } });
      assert.equal(run.status, 422, `a run of ${what}: ${run.text}`);
      assert.equal(run.json.error, 'target-refused');
      assert.match(run.json.message, why);
    }
    for (const suffix of ['#/x', '?/x']) {
      const stored = await lab.call('PUT', '/api/implementations/ssrf-suffix', { body: { name: 'x', profileText: JSON.stringify({ baseUrl: `${reference.url}/${suffix}`, credentials }) } });
      assert.equal(stored.status, 422, `a base URL ending ${suffix} is not stored: ${stored.text}`);
      assert.equal(stored.json.details.keyPath, '/baseUrl');
    }
    assert.deepEqual((await lab.call('GET', '/api/runs')).json, [], 'no run was queued');

    // A legitimate target on loopback (the server is on loopback): Check calls it and a run runs against it, as before.
    const profile = referenceProfile(reference.url, reference.options) as Record<string, any>;
    const secret = profile.credentials.clientSecret as string;
    profile.credentials.clientSecret = 'env:REFERENCE_SECRET';
    profile.users.ownLicence.clientSecret = 'env:REFERENCE_SECRET';
    const checked = await lab.server.services.doctor(JSON.stringify(profile), { env: { REFERENCE_SECRET: secret } });
    assert.ok(checked.summary.rows.some((row) => row.operation === 'token' && row.outcome === 'OK'), JSON.stringify(checked.summary.rows));
    const stored = await lab.call('PUT', '/api/implementations/legit', { body: { name: 'legit', profileText: JSON.stringify(profile) } });
    assert.equal(stored.status, 201, stored.text);
    const run = await lab.call('POST', '/api/runs', { body: { implementation: 'legit', options: { grep: '@check:auth.access-token-opens-api' }, secrets: { env: { REFERENCE_SECRET: secret } } } });
    assert.equal(run.status, 202, run.text);
    const done = await waitForRun(lab.call, run.json.id, ['finished'], 90_000);
    assert.equal(done.verdict, 'CONFORMANT', JSON.stringify(done));
  } finally {
    await lab.close();
    await reference.stop();
  }
});
