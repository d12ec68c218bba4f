// auth.jwksAccess: how every JWK Set on the target is fetched. The spec says a
// JWKS operation exists, not how it is called; the deployed API's wants the
// partner's bearer token (REAL-API-NOTES).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadJwks, JwksUnavailable } from '../../src/auth/jwks.ts';
import { HttpClient, createTransport } from '../../src/http/client.ts';
import { Redactor } from '../../src/http/redact.ts';
import { startServer } from '../support/servers.ts';

const KEYS = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'k1' }] };

/** A key set that answers only to the credential `wanted` names; every request's headers are kept. */
async function guardedKeySet(wanted: { header: string; value: string }) {
  const seen: Array<Record<string, string | string[] | undefined>> = [];
  const server = await startServer((req, res) => {
    seen.push(req.headers);
    const ok = req.headers[wanted.header] === wanted.value;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? KEYS : { error: 'unauthorized' }));
  });
  const http = new HttpClient({ baseUrl: server.url, transport: createTransport({ timeoutMs: 2000 }), redactor: new Redactor() });
  return { server, http, seen };
}

const bearer = 'partner-token';

test('"bearer" sends the access token at once; unset tries anonymously, then with the token on a 401', async () => {
  const { server, http, seen } = await guardedKeySet({ header: 'authorization', value: 'Bearer partner-token' });
  try {
    assert.deepEqual(await loadJwks({ kind: 'url', url: '/jwks' }, http, { access: 'bearer', bearer }), KEYS);
    assert.equal(seen.length, 1);
    assert.deepEqual(await loadJwks({ kind: 'url', url: '/jwks' }, http, { bearer }), KEYS);
    assert.deepEqual(seen.slice(1).map((h) => h.authorization ?? null), [null, 'Bearer partner-token']);
  } finally {
    await server.close();
  }
});

test('"none" never sends the token, and a 401 names the setting to change', async () => {
  const { server, http, seen } = await guardedKeySet({ header: 'authorization', value: 'Bearer partner-token' });
  try {
    await assert.rejects(loadJwks({ kind: 'url', url: '/jwks' }, http, { access: 'none', bearer }), (e: unknown) => e instanceof JwksUnavailable && /auth\.jwksAccess/.test(e.message));
    assert.deepEqual(seen.map((h) => h.authorization ?? null), [null]);
  } finally {
    await server.close();
  }
});

test('a header access sends that header and redacts its value from the evidence', async () => {
  const { server, http, seen } = await guardedKeySet({ header: 'x-api-key', value: 'k-123456789' });
  try {
    assert.deepEqual(await loadJwks({ kind: 'url', url: '/jwks' }, http, { access: { header: 'X-Api-Key', value: 'k-123456789' }, bearer }), KEYS);
    assert.equal(seen[0]!['x-api-key'], 'k-123456789');
    assert.equal(seen[0]!.authorization, undefined);
    assert.doesNotMatch(http.redactor.redactString('sent k-123456789'), /k-123456789/);
  } finally {
    await server.close();
  }
});

test('credentials never go to a key set on another origin', async () => {
  const { server, seen } = await guardedKeySet({ header: 'authorization', value: 'Bearer partner-token' });
  const elsewhere = new HttpClient({ baseUrl: 'http://127.0.0.1:9', transport: createTransport({ timeoutMs: 2000 }), redactor: new Redactor() });
  try {
    await assert.rejects(loadJwks({ kind: 'url', url: `${server.url}/jwks` }, elsewhere, { access: 'bearer', bearer }), JwksUnavailable);
    assert.deepEqual(seen.map((h) => h.authorization ?? null), [null]);
  } finally {
    await server.close();
  }
});
