// The server beyond the API: loopback only unless TLS protects it (then
// HTTPS), one first-run token per store, and the services the console calls
// directly: the starter profile, the editor's check, the doctor, the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../src/config/errors.ts';
import { runPtas } from '../support/cli.ts';
import { makePki } from '../support/tls.ts';
import { checkStorableProfile } from '../../app/serve/profile-text.ts';
import { createServer, isLoopback } from '../../app/serve/server.ts';
import { startTestServer } from './support.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-server-'));

test('a --host beyond loopback without --tls-cert/--tls-key is refused: exit 2, naming the fix', async () => {
  const cli = await runPtas(['serve', '--host', '0.0.0.0', '--port', '0', '--data', tmp()]);
  assert.equal(cli.code, 2, cli.stderr);
  assert.match(cli.stderr, /--host 0\.0\.0\.0 would expose the API .* without TLS: give --tls-cert FILE --tls-key FILE/);
  await assert.rejects(createServer({ host: '192.0.2.1', port: 0, dataDir: tmp(), log: () => undefined }), ConfigError);
  const half = await runPtas(['serve', '--tls-cert', 'cert.pem', '--data', tmp()]);
  assert.equal(half.code, 2);
  assert.match(half.stderr, /--tls-cert and --tls-key go together/);
  assert.deepEqual(['127.0.0.1', '127.9.0.3', '::1', 'localhost', '0.0.0.0', '192.168.1.2', '::', 'example.com'].map(isLoopback), [true, true, true, true, false, false, false, false]);
});

test('with --tls-cert and --tls-key it serves HTTPS, on any host', async () => {
  const pki = makePki();
  await assert.rejects(createServer({ host: '0.0.0.0', port: 0, dataDir: tmp(), tls: { certFile: path.join(pki.dir, 'none.pem'), keyFile: pki.serverKey }, log: () => undefined }), /--tls-cert .*none\.pem: cannot read it/);
  const server = await createServer({ host: '0.0.0.0', port: 0, dataDir: tmp(), tls: { certFile: pki.serverCert, keyFile: pki.serverKey }, log: () => undefined });
  try {
    assert.match(server.url, /^https:\/\//);
    const port = new URL(server.url).port;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/runs', ca: readFileSync(pki.caCert), headers: { authorization: `Bearer ${server.firstRunToken!.token}` } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.once('error', reject);
      req.end();
    });
    assert.deepEqual(answer, { status: 200, body: '[]' });
  } finally {
    await server.close();
  }
});

test('a first-run token only while the store has no live token', async () => {
  const data = tmp();
  const first = await startTestServer({ dataDir: data });
  assert.equal(first.server.firstRunToken?.name, 'first-run');
  await first.close();
  const second = await startTestServer({ dataDir: data });
  try {
    assert.equal(second.server.firstRunToken, undefined);
    assert.equal((await second.call('GET', '/api/runs', { token: first.token })).status, 200, 'the first token still works');
  } finally {
    await second.close();
  }
});

test("the console's services: ptas init's starter profile (storable as it is), the editor's check, the doctor on a profile text, the schema bundle", async () => {
  const lab = await startTestServer();
  try {
    const { services } = lab.server;
    const starter = services.starterProfile({ name: 'Acme', baseUrl: 'https://sandbox.acme.example' });
    assert.match(starter, /"clientSecret": "env:PTAS_CLIENT_SECRET"/);
    assert.match(starter, /^\s*\/\//m, 'commented, as ptas init --yes writes it');
    assert.equal(checkStorableProfile(starter, services.policy).baseUrl, 'https://sandbox.acme.example');
    assert.deepEqual(services.implementations.validate(starter), { ok: true });
    const created = services.implementations.create({ name: 'Acme Payments (sandbox)', profileText: starter });
    assert.equal(created.id, 'acme-payments-sandbox');
    assert.equal(services.implementations.create({ name: 'Acme Payments (sandbox)', profileText: starter }).id, 'acme-payments-sandbox-2');
    assert.throws(() => services.starterProfile({ baseUrl: 'ftp://x' }), /baseUrl ftp:\/\/x: expected an http/);

    const wrong = services.implementations.validate('{"http": {"timeoutMs": -1}}');
    assert.equal(wrong.ok, false);
    assert.equal(!wrong.ok && wrong.error.error, 'invalid-profile');

    // Without a base URL the doctor examines the bundled reference, as `ptas doctor` does.
    const doctor = await services.doctor('{ /* the reference */ }');
    assert.equal(doctor.exitCode, 0, JSON.stringify(doctor.summary.broken));
    assert.ok(doctor.summary.rows.some((row) => row.operation === 'token' && row.outcome === 'OK'));
    assert.deepEqual(doctor.summary.broken, []);
    await assert.rejects(services.doctor('{"baseUrl": "http://127.0.0.1:9", "credentials": {"clientId": "a", "clientSecret": "env:UNSET_FOR_THIS_TEST"}}'), /UNSET_FOR_THIS_TEST/);
    await assert.rejects(services.doctor('{"baseUrl": "http://127.0.0.1:9", "credentials": {"clientId": "a"}}', { clientSecret: 'given-once' }), (error: Error & { kind?: string }) => error.kind === 'unreachable');

    assert.ok(existsSync(services.profileSchemaPath));
    assert.equal(JSON.parse(readFileSync(services.profileSchemaPath, 'utf8')).type, 'object');
  } finally {
    await lab.close();
  }
});
