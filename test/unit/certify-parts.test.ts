// The parts of a certification bundle that need no run: the profile's secrets
// as salted hashes, and the target's fingerprint (a real https server's
// certificate, compared with what openssl says of it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { profileWithHashedSecrets, saltedHash } from '../../src/certify/profile-secrets.ts';
import { tlsCertificateSha256 } from '../../app/certify/target-fingerprint.ts';
import { makePki, startTlsFront } from '../support/tls.ts';

test('secrets become salted hashes: the client secret wherever it appears, and values under secret-named keys', () => {
  const profile = {
    baseUrl: 'https://sandbox.example.com',
    credentials: { clientId: 'partner-1', clientSecret: 's3cret-0815' },
    auth: { jwksAccess: { header: 'x-api-key', value: 'k-123' } },
    webhooks: { signature: { scheme: 'hmac', sharedSecret: 'whsec', keys: ['a'] } },
    trading: { createOffer: { method: 'POST', path: '/sandbox/offers', headers: { Authorization: 'Basic abc', 'svc-user-id': '{userId}' } } },
    users: { note: 'the secret is s3cret-0815' },
  };
  const { content, hashedSecrets } = profileWithHashedSecrets(profile, ['s3cret-0815'], 'salt-1');
  const text = JSON.stringify(content);
  for (const secret of ['s3cret-0815', 'whsec', 'k-123', 'Basic abc']) assert.ok(!text.includes(secret), `${secret} in ${text}`);
  assert.equal((content as typeof profile).credentials.clientSecret, saltedHash('salt-1', 's3cret-0815'));
  assert.equal((content as typeof profile).credentials.clientId, 'partner-1', 'what is not secret stays readable');
  assert.equal((content as typeof profile).baseUrl, 'https://sandbox.example.com');
  assert.deepEqual(hashedSecrets.sort(), ['auth.jwksAccess.value', 'credentials.clientSecret', 'trading.createOffer.headers.Authorization', 'users.note', 'webhooks.signature.sharedSecret']);
  assert.equal((content as typeof profile).trading.createOffer.headers['svc-user-id'], '{userId}');
  assert.notEqual(saltedHash('salt-2', 's3cret-0815'), saltedHash('salt-1', 's3cret-0815'), 'another salt, another hash');
});

test("an https target's certificate fingerprint is the one openssl computes; an http target has none", async () => {
  const pki = makePki();
  const upstream = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const front = await startTlsFront(pki, `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, { requireClientCert: false });
  try {
    const expected = execFileSync('openssl', ['x509', '-in', pki.serverCert, '-noout', '-fingerprint', '-sha256'], { encoding: 'utf8' }).trim().split('=')[1];
    assert.equal(await tlsCertificateSha256({ baseUrl: front.url, insecure: false }), expected);
    assert.equal(await tlsCertificateSha256({ baseUrl: 'http://127.0.0.1:1', insecure: false }), null);
    assert.equal(await tlsCertificateSha256({ baseUrl: 'https://127.0.0.1:1', insecure: false }), null, 'no handshake: none recorded');
  } finally {
    await front.close();
    upstream.close();
  }
});
