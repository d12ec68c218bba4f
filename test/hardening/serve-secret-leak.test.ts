// No secret leaves `ptas serve`: runs of an implementation whose profile
// reads the client secret from the server's environment (env:NAME), and one
// given the secret with the run request, against a reference started with
// that secret. The secret and every token the reference issued are searched
// for in every API answer (bodies and headers), every event stream, the
// server's log and every file the server wrote in its store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnReference } from '../../app/run/reference-process.ts';
import { referenceProfile } from '../../reference/profile.ts';
import type { RunRecord } from '../../app/serve/contract.ts';
import { caller, readEvents, startTestServer, waitForRun } from '../serve/support.ts';

function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesBelow(full) : [full];
  });
}

test('runs through the API leak neither the client secret nor any issued token: answers, events, log, store', { timeout: 300_000 }, async () => {
  const clientSecret = `serve-leak-${randomBytes(16).toString('hex')}`;
  const tokenLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-leak-log-')), 'issued.txt');
  process.env.PTAS_REFERENCE_CLIENT_SECRET = clientSecret;
  process.env.PTAS_REFERENCE_TOKEN_LOG = tokenLog;
  const reference = await spawnReference();
  delete process.env.PTAS_REFERENCE_CLIENT_SECRET;
  delete process.env.PTAS_REFERENCE_TOKEN_LOG;
  const lab = await startTestServer({ env: { ...process.env, PTAS_LEAK_SECRET: clientSecret } });
  const seen: string[] = [];
  const call = caller(lab.url, lab.token, seen);
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

    const runs: RunRecord[] = [];
    const streams: Array<Promise<{ raw: string }>> = [];
    for (const body of [
      { implementation: 'leak-env', options: { load: false } },
      { implementation: 'leak-per-run', options: { load: false, grep: '@area:auth' }, secrets: { clientSecret } },
    ]) {
      const asked = await call('POST', '/api/runs', { body });
      assert.equal(asked.status, 202, asked.text);
      runs.push(asked.json as RunRecord);
      streams.push(readEvents(lab.url, lab.token, asked.json.id));
    }
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

    const issued = readFileSync(tokenLog, 'utf8').split('\n').filter(Boolean);
    assert.ok(issued.length >= 20, `only ${issued.length} issued tokens were logged`);
    const outputs = [
      ...seen.map((text, i) => ({ where: `API answer ${i}`, text })),
      ...events.map((e, i) => ({ where: `event stream ${i}`, text: e.raw })),
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
